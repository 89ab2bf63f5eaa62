// What the intake stores for a body: the webhooks and the reconciliation sweep both build it with these functions.
import { describe, expect, it } from 'vitest';
import { creditNoteOf, intakeDocument, invoiceOf } from '../../../src/documents/intake-document.ts';
import { readOrderFixture } from '../../support/order-fixtures.ts';
import { readRefundFixture } from '../../support/refund-fixtures.ts';

describe('the intake document', () => {
  it("a paid order: its invoice, type 01, with the order's id, name, total and currency, and the body as it came", () => {
    const read = invoiceOf(readOrderFixture('tax-exclusive'));
    if (!read.ok) throw new Error(read.error);
    expect(read.about).toEqual({ order: '#1101' });
    expect(intakeDocument('tienda.myshopify.com', read.source, '{"id":1}')).toEqual({
      shop: 'tienda.myshopify.com',
      kind: 'invoice',
      documentType: '01',
      sourceKey: 'gid://shopify/Order/5900000010001',
      orderGid: 'gid://shopify/Order/5900000010001',
      orderName: '#1101',
      totalCents: 10_593,
      currency: 'USD',
      test: false,
      rawSnapshot: '{"id":1}',
    });
  });

  it("a refund: its credit note, type 04, for the refunded money, named by its invoice's order later", () => {
    const refund = readRefundFixture('partial-line', 'refund');
    const read = creditNoteOf(refund, JSON.stringify(refund));
    if (!read.ok) throw new Error(read.error);
    expect(intakeDocument('tienda.myshopify.com', read.source, 'text')).toEqual({
      shop: 'tienda.myshopify.com',
      kind: 'credit_note',
      documentType: '04',
      sourceKey: 'gid://shopify/Refund/9400000011021',
      orderGid: 'gid://shopify/Order/5900000001102',
      orderName: undefined,
      totalCents: 4_735,
      currency: 'USD',
      // The fixture's refund went through the test gateway.
      test: true,
      rawSnapshot: 'text',
    });
  });

  it('a body that is not what its topic says: an error naming the field', () => {
    expect(invoiceOf({ id: 'x' })).toMatchObject({ ok: false, error: expect.stringMatching(/^not an order: /) });
    expect(creditNoteOf({}, '{}')).toMatchObject({ ok: false, error: expect.stringMatching(/^not a refund: /) });
  });
});
