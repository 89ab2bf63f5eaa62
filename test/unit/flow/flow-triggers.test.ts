// The Flow triggers' payloads, made from a document (src/flow/flow-triggers.ts): the keys each extension declares,
// the values the order shows, and refusals instead of a payload Shopify would refuse.
import { describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { decimalAmount, flowTrigger, legacyOrderId } from '../../../src/flow/flow-triggers.ts';
import { message } from '../../../src/messages/message.ts';
import { loadFlowTriggers } from '../../../sim/store-simulator/flow-extensions.ts';
import { payloadErrors } from '../../../sim/store-simulator/flow-triggers.ts';
import { ROOT } from '../../support/paths.ts';
import path from 'node:path';

const CUFE = 'FE0120000155596713-2-2015-5900002026112500000000010010123784932441';
const invoice = {
  kind: 'invoice',
  orderGid: 'gid://shopify/Order/5900000000101',
  sourceKey: 'gid://shopify/Order/5900000000101',
  branchCode: '0000',
  billingPoint: '001',
  fiscalNumber: 42,
  cufe: CUFE,
  totalCents: 1234,
} as DocumentRow;
const note = { ...invoice, kind: 'credit_note', sourceKey: 'gid://shopify/Refund/777', fiscalNumber: 3, totalCents: 500 } as DocumentRow;
const base = { pdfToken: 'tok', reason: null, language: 'es' as const, appUrl: 'https://app.example' };

describe('flowTrigger', () => {
  it('an authorized invoice: order, number, CUFE, PDF link and total', () => {
    expect(flowTrigger({ ...base, event: 'invoice_authorized', doc: invoice })).toEqual({
      ok: true,
      handle: 'flow-invoice-authorized',
      payload: {
        order_id: 5900000000101,
        'Numero fiscal': '0000-001-0000000042',
        CUFE,
        PDF: 'https://app.example/invoices/tok.pdf',
        Total: 12.34,
      },
    });
  });

  it('an authorized credit note: its refund, number, CUFE and amount; a re-issue’s note names no refund', () => {
    expect(flowTrigger({ ...base, event: 'credit_note_authorized', doc: note })).toEqual({
      ok: true,
      handle: 'flow-credit-note-authorized',
      payload: { order_id: 5900000000101, Reembolso: 'gid://shopify/Refund/777', 'Numero fiscal': '0000-001-0000000003', CUFE, Monto: 5 },
    });
    const reissue = { ...note, sourceKey: 'replacement:0b4f…' } as DocumentRow;
    expect(flowTrigger({ ...base, event: 'credit_note_authorized', doc: reissue })).toMatchObject({ payload: { Reembolso: '' } });
  });

  it('needs attention: the reason in the shop’s language, on one line, at most 1000 characters', () => {
    const reason = message('amount_too_large');
    expect(flowTrigger({ ...base, event: 'invoice_needs_attention', doc: invoice, reason })).toEqual({
      ok: true,
      handle: 'flow-invoice-needs-attention',
      payload: {
        order_id: 5900000000101,
        Motivo: 'Un monto de este pedido es demasiado grande para facturarlo. Emita esta factura manualmente.',
      },
    });
    expect(flowTrigger({ ...base, language: 'en', event: 'invoice_needs_attention', doc: invoice, reason })).toMatchObject({
      payload: { Motivo: 'An amount in this order is too large to be invoiced. Issue this invoice by hand.' },
    });
    const long = message('unavailable', { reason: `línea uno\nlínea dos ${'x'.repeat(3000)}` });
    const trigger = flowTrigger({ ...base, event: 'invoice_needs_attention', doc: invoice, reason: long });
    const motivo = trigger.ok ? String(trigger.payload['Motivo']) : '';
    expect(motivo).toHaveLength(1000);
    expect(motivo).not.toMatch(/\n/);
    expect(motivo.endsWith('…')).toBe(true);
  });

  it('refuses rather than send what Flow would refuse', () => {
    expect(flowTrigger({ ...base, event: 'invoice_authorized', doc: { ...invoice, cufe: null } as DocumentRow })).toEqual({
      ok: false,
      problem: 'the document has no number, CUFE or PDF',
    });
    expect(flowTrigger({ ...base, event: 'invoice_authorized', doc: invoice, pdfToken: null }).ok).toBe(false);
    expect(flowTrigger({ ...base, event: 'invoice_needs_attention', doc: invoice, reason: 'not a message' })).toEqual({
      ok: false,
      problem: 'the event has no reason',
    });
    expect(flowTrigger({ ...base, event: 'invoice_authorized', doc: { ...invoice, orderGid: 'replacement' } as DocumentRow }).ok).toBe(
      false,
    );
  });

  it('money from cents: the JSON text is the exact decimal', () => {
    expect([1234, 10, 1, 0, 199_999_999_99, 7578].map((c) => JSON.stringify(decimalAmount(c)))).toEqual([
      '12.34',
      '0.1',
      '0.01',
      '0',
      '199999999.99',
      '75.78',
    ]);
    // Every amount up to a billion dollars: the JSON text is the cents' own decimal.
    for (let cents = 0; cents < 100_000_000_000; cents = cents * 3 + 7) {
      const text = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`.replace(/\.?0+$/, '').replace(/^$/, '0');
      expect(JSON.stringify(decimalAmount(cents))).toBe(text);
    }
    expect(legacyOrderId('gid://shopify/Order/5900000000101')).toBe(5900000000101);
    expect(legacyOrderId('gid://shopify/Refund/1')).toBeUndefined();
    expect(legacyOrderId('gid://shopify/Order/99999999999999999999')).toBeUndefined();
  });
});

describe('the payloads against the extensions the app declares (the simulator’s oracle)', () => {
  const declared = loadFlowTriggers(path.join(ROOT, 'extensions'));
  const shop = { shop: { domain: 't.myshopify.com', orders: new Map([['gid://shopify/Order/5900000000101', {}]]) } } as never;

  it('reads the three triggers, and each payload the app makes fits its extension exactly', () => {
    expect([...declared.keys()].sort()).toEqual(['flow-credit-note-authorized', 'flow-invoice-authorized', 'flow-invoice-needs-attention']);
    expect(declared.get('flow-invoice-authorized')!.fields).toEqual([
      { type: 'order_reference', key: 'order_id' },
      { type: 'single_line_text_field', key: 'Numero fiscal' },
      { type: 'single_line_text_field', key: 'CUFE' },
      { type: 'url', key: 'PDF' },
      { type: 'number_decimal', key: 'Total' },
    ]);
    const made = [
      flowTrigger({ ...base, event: 'invoice_authorized', doc: invoice }),
      flowTrigger({ ...base, event: 'credit_note_authorized', doc: note }),
      flowTrigger({ ...base, event: 'invoice_needs_attention', doc: invoice, reason: message('amount_too_large') }),
    ];
    for (const t of made) {
      if (!t.ok) throw new Error(t.problem);
      expect(payloadErrors(shop, declared.get(t.handle)!, t.payload)).toEqual([]);
    }
  });

  it('refuses a malformed payload, naming each field', () => {
    const trigger = declared.get('flow-invoice-authorized')!;
    expect(
      payloadErrors(shop, trigger, {
        order_id: 'gid://shopify/Order/5900000000101',
        'Número fiscal': '0000-001-0000000042',
        CUFE: 'a\nb',
        PDF: 'invoices/tok.pdf',
        Total: '12.34',
      }),
    ).toEqual([
      { field: ['payload', 'Número fiscal'], message: 'Número fiscal is not a field of trigger flow-invoice-authorized' },
      { field: ['payload', 'order_id'], message: 'order_id must be the numeric id (not a GID)' },
      { field: ['payload', 'Numero fiscal'], message: 'Numero fiscal is missing' },
      { field: ['payload', 'CUFE'], message: 'CUFE must be one line of text' },
      { field: ['payload', 'PDF'], message: 'PDF must be an http(s) URL' },
      { field: ['payload', 'Total'], message: 'Total must be a number' },
    ]);
    expect(
      payloadErrors(shop, trigger, {
        ...(flowTrigger({ ...base, event: 'invoice_authorized', doc: invoice }) as { payload: object }).payload,
        order_id: 1,
      }),
    ).toEqual([{ field: ['payload', 'order_id'], message: 'order_id names no order of t.myshopify.com' }]);
  });
});
