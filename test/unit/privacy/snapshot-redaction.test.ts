// The pure redaction of customers/redact, on every order fixture: the buyer's data is gone, what the
// invoice is made of is unchanged (the redacted order maps to the same lines, taxes and payments).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { parseJsonKeepingBigIds } from '../../../src/privacy/compliance-payloads.ts';
import { redactDocumentClient, redactOrderSnapshot, redactRequestClient } from '../../../src/privacy/snapshot-redaction.ts';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { FIXTURES } from '../../support/paths.ts';

const DIR = path.join(FIXTURES, 'orders');
const fixtures = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && !f.includes('.transactions.') && !f.includes('.document.'))
  .map((f) => [f, JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as Record<string, unknown>] as const);

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every personal value the order carries, where Shopify puts them. */
function personalValues(order: Json): string[] {
  const values: unknown[] = [order['email'], order['contact_email'], order['phone'], order['note']];
  const customer = order['customer'];
  if (isRecord(customer)) values.push(customer['email'], customer['phone'], customer['first_name'], customer['last_name']);
  for (const key of ['billing_address', 'shipping_address']) {
    const a = order[key];
    if (isRecord(a)) values.push(a['first_name'], a['last_name'], a['name'], a['address1'], a['address2'], a['phone'], a['zip']);
  }
  for (const attr of (order['note_attributes'] as Json[] | undefined) ?? []) values.push(attr['value']);
  return values.filter((v): v is string => typeof v === 'string' && v.trim().length >= 4);
}

describe('redactOrderSnapshot', () => {
  it('has fixtures with personal data to remove', () => {
    expect(fixtures.length).toBeGreaterThan(10);
    expect(fixtures.filter(([, o]) => personalValues(o).length > 0).length).toBeGreaterThan(5);
  });

  it.each(fixtures)('%s: no personal value is left; the order reads the same for invoicing', (_name, order) => {
    const before = JSON.stringify(order);
    const redacted = redactOrderSnapshot(order);
    expect(JSON.stringify(order)).toBe(before); // the input is not changed

    const text = JSON.stringify(redacted);
    for (const value of personalValues(order)) expect(text).not.toContain(JSON.stringify(value));
    for (const key of ['email', 'contact_email', 'phone', 'billing_address', 'shipping_address', 'note', 'client_details', 'browser_ip']) {
      if (key in order) expect(redacted[key], key).toBeNull();
    }
    if (isRecord(order['customer']))
      expect(Object.keys(redacted['customer'] as Json).every((k) => k === 'id' || k === 'admin_graphql_api_id')).toBe(true);
    if ('note_attributes' in order) expect(redacted['note_attributes']).toEqual([]);

    const original = parseShopifyOrder(order);
    const after = parseShopifyOrder(redacted);
    expect(after.ok).toBe(original.ok);
    if (original.ok && after.ok) {
      const o = original.order;
      const a = after.order;
      expect(a.lineItems).toEqual(o.lineItems);
      expect(a.shippingLines).toEqual(o.shippingLines);
      expect([a.totalPrice, a.totalTax, a.totalTip, a.currency, a.taxesIncluded, a.orderGid, a.name]).toEqual([
        o.totalPrice,
        o.totalTax,
        o.totalTip,
        o.currency,
        o.taxesIncluded,
        o.orderGid,
        o.name,
      ]);
      expect(a.paymentGatewayNames).toEqual(o.paymentGatewayNames);
      expect(a.email).toBeUndefined();
      expect(a.billingAddress).toBeUndefined();
      expect(a.noteAttributes).toEqual([]);
    }
  });

  it('clears nested personal fields: shipping phones, fulfillment destinations, line properties', () => {
    const order = {
      id: 1,
      shipping_lines: [{ title: 'Envío', phone: '+507 6000-0000', price: '5.00' }],
      fulfillments: [{ id: 9, destination: { address1: 'Calle 1', first_name: 'Ana' } }],
      line_items: [{ title: 'Taza', properties: [{ name: 'Grabado', value: 'Ana' }], price: '10.00' }],
    };
    expect(redactOrderSnapshot(order)).toEqual({
      id: 1,
      shipping_lines: [{ title: 'Envío', phone: null, price: '5.00' }],
      fulfillments: [{ id: 9, destination: null }],
      line_items: [{ title: 'Taza', properties: [], price: '10.00' }],
    });
  });
});

describe('redactDocumentClient and redactRequestClient', () => {
  const document = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'gateway/send-document-example.json'), 'utf8')) as {
    document: GatewayDocument;
  };

  it('keep the client classification and place, drop who the client is', () => {
    const doc: GatewayDocument = {
      ...document.document,
      dataTransaction: {
        ...document.document.dataTransaction,
        client: {
          typeClientEB: '01',
          typeTaxpayer: '2',
          numberRUC: '155596713-2-2015',
          digitCheckRUC: '59',
          businessName: 'Comercio, S.A.',
          address: 'Calle 50',
          codeLocation: '8-8-7',
          province: 'PANAMA',
          district: 'PANAMA',
          correction: 'BELLA VISTA',
          telephone1: '6000-0000',
          email1: 'a@example.com',
          country: 'PA',
        },
      },
    };
    const redacted = redactDocumentClient(doc);
    expect(redacted.dataTransaction.client).toEqual({
      typeClientEB: '01',
      typeTaxpayer: '2',
      codeLocation: '8-8-7',
      province: 'PANAMA',
      district: 'PANAMA',
      correction: 'BELLA VISTA',
      country: 'PA',
    });
    expect(redacted.listItems).toBe(doc.listItems);
    expect(doc.dataTransaction.client.businessName).toBe('Comercio, S.A.'); // input unchanged

    const request = { GW_Token: '[redacted]', document: doc };
    expect((redactRequestClient(request) as { document: GatewayDocument }).document.dataTransaction.client).toEqual(
      redacted.dataTransaction.client,
    );
    const download = { GW_Token: '[redacted]', documentData: { numberDocumentFiscal: '0000000001' } };
    expect(redactRequestClient(download)).toBe(download);
  });
});

describe('parseJsonKeepingBigIds', () => {
  it('keeps ids beyond 2^53 exact and leaves the others numbers', () => {
    expect(parseJsonKeepingBigIds('{"a":820982911946154508,"b":[450789469,9007199254740993],"c":1.5}')).toEqual({
      a: '820982911946154508',
      b: [450789469, '9007199254740993'],
      c: 1.5,
    });
  });
});
