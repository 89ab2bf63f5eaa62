// The five refund fixtures (test/fixtures/refunds/) → whole credit-note drafts, to the cent, as
// docs/reference/shopify-refunds.md §6.4–§6.5 works them out; and the full credit note that replaces an invoice.
// Each invoice is issued from the fixture's order by the real invoice mapper (test/support/refund-fixtures.ts).
import { describe, expect, it } from 'vitest';
import type { DocumentDraft } from '../../../mappers/invoice/document-numbering.ts';
import { type GatewayItem, REFERENCE_FIELDS } from '../../../mappers/gateway/gateway-document.ts';
import { defaultMappingSettings } from '../../../mappers/invoice/mapping-settings.ts';
import { fullCreditNote } from '../../../mappers/credit-note/full-credit-note.ts';
import { type CreditNoteResult, type CreditedInvoice, refundToCreditNote } from '../../../mappers/credit-note/refund-to-credit-note.ts';
import { centsOf } from '../../support/document-invariants.ts';
import { DEFAULT_CODES, totalsOf } from '../../support/expected-documents.ts';
import {
  type Item,
  type RefundFixture,
  fixtureOrder,
  fixtureRefund,
  gatewayItem,
  issueInvoice,
  noteRejection,
} from '../../support/refund-fixtures.ts';

/** §6.5: the last shirt, the beer and the shipping (the second refund, or what a full note credits after the first). */
const SECTION_6_5: Item[] = [
  ['Camisa Polo - L / Blanca', 'POLO-L-BL', '1.00', '25.00', '2.87', '22.13', '01', '1.55', '23.68'],
  ['Cerveza artesanal (6 unidades)', 'CERV-6PK', '1.00', '12.00', '1.38', '10.62', '02', '1.06', '11.68'],
  ['Envío estándar', 'ENVIO', '1.00', '4.50', '0.00', '4.50', '01', '0.32', '4.82'],
];

/** The draft a note must be: the invoice's client and codes, type 04, nature 11, the reference to the invoice. */
function note(
  invoice: CreditedInvoice,
  items: Item[] | GatewayItem[],
  net: string,
  itbms: string,
  total: string,
  payments: [string, string][],
): DocumentDraft {
  const source = invoice.document.dataTransaction;
  const listItems = items.map((i) => (Array.isArray(i) ? gatewayItem(i) : i));
  return {
    dataTransaction: {
      typeEmission: '01',
      typeDocument: '04',
      natureOperation: '11',
      ...DEFAULT_CODES,
      client: source.client,
      [REFERENCE_FIELDS.list]: [
        {
          [REFERENCE_FIELDS.date]: '2026-11-03T10:30:00-05:00',
          [REFERENCE_FIELDS.cufe]: invoice.cufe,
          [REFERENCE_FIELDS.paperNumber]: '',
          [REFERENCE_FIELDS.fiscalPrinterNumber]: '',
        },
      ],
    },
    listItems,
    totalsSubTotals: totalsOf(listItems, { net, itbms, total, payments }),
  };
}

function refund(name: RefundFixture, invoice: CreditedInvoice, credited: DocumentDraft[] = []): CreditNoteResult {
  return refundToCreditNote({
    refund: fixtureRefund(name),
    order: fixtureOrder(name),
    invoice,
    credited,
    settings: defaultMappingSettings,
  });
}

function draftOf(result: CreditNoteResult): DocumentDraft {
  if (result.kind !== 'draft') throw new Error(`expected a draft: ${JSON.stringify(result)}`);
  return result.draft;
}

/** The sandbox accepts the note as type 04 against its invoice, given the notes before it. */
function expectValid(draft: DocumentDraft, invoice: CreditedInvoice, before: DocumentDraft[] = []): void {
  expect(
    noteRejection(
      draft,
      invoice,
      before.reduce((a, n) => a + centsOf(n.totalsSubTotals.totalInvoice), 0),
    ),
  ).toBeUndefined();
}

/**
 * The fixture's refund of the invoice of its order is this one note, whole (`totals`: net, ITBMS, total, all of it
 * paid back in one form of payment), and the sandbox accepts it.
 */
function expectOneDraft(
  name: RefundFixture,
  o: { items: Item[]; totalCents: number; totals: [string, string, string]; paidBack: string },
): void {
  const invoice = issueInvoice(fixtureOrder(name));
  const [net, itbms, total] = o.totals;
  const result = refund(name, invoice);
  expect(result).toEqual({
    kind: 'draft',
    totalCents: o.totalCents,
    draft: note(invoice, o.items, net, itbms, total, [[o.paidBack, total]]),
  });
  expectValid(draftOf(result), invoice);
}

describe('refund fixtures → credit notes (docs/reference/shopify-refunds.md §6)', () => {
  it('full refund #1101: the mirror of the invoice, 71.32', () => {
    const invoice = issueInvoice(fixtureOrder('full-refund'));
    const result = refund('full-refund', invoice);
    // Shirts 2 × (25.00 − 2.50) = 45.00 + 3.15; rum 18.00 − 1.80 = 16.20 + 1.62 (10 %); shipping 5.00 + 0.35.
    const items: Item[] = [
      ['Camisa Polo - M / Azul', 'POLO-M-AZ', '2.00', '25.00', '2.50', '45.00', '01', '3.15', '48.15'],
      ['Ron añejo 12 años 750 ml', 'RON-12-750', '1.00', '18.00', '1.80', '16.20', '02', '1.62', '17.82'],
      ['Envío estándar', 'ENVIO', '1.00', '5.00', '0.00', '5.00', '01', '0.35', '5.35'],
    ];
    expect(result).toEqual({ kind: 'draft', totalCents: 7132, draft: note(invoice, items, '66.20', '5.12', '71.32', [['03', '71.32']]) });
    expect(draftOf(result).listItems).toEqual(invoice.document.listItems);
    expect(draftOf(result).dataTransaction.client).toEqual({
      typeClientEB: '02',
      businessName: 'Ana Pérez',
      codeLocation: '8-8-7',
      province: 'PANAMA',
      district: 'PANAMA',
      correction: 'BELLA VISTA',
      telephone1: '6000-0001',
      email1: 'ana.perez@example.com',
      country: 'PA',
    });
    expectValid(draftOf(result), invoice);
  });

  it('partial line #1102: 2 of 3 discounted shirts, 47.35, split 1 @ 2.87 + 1 @ 2.88 (§6.4)', () => {
    // Shopify: subtotal 44.25 = round(66.38 × 2/3), tax 3.10. D = 50.00 − 44.25 = 5.75 over 2 units = 2.875.
    const items: Item[] = [
      ['Camisa Polo - L / Blanca', 'POLO-L-BL', '1.00', '25.00', '2.87', '22.13', '01', '1.55', '23.68'],
      ['Camisa Polo - L / Blanca', 'POLO-L-BL', '1.00', '25.00', '2.88', '22.12', '01', '1.55', '23.67'],
    ];
    expectOneDraft('partial-line', { items, totalCents: 4735, totals: ['44.25', '3.10', '47.35'], paidBack: '03' });
  });

  it('second partial #1102: 40.18, and the two notes add up to the invoice, 87.53, ITBMS 4.97 at 7 % and 1.06 at 10 % (§6.5)', () => {
    const invoice = issueInvoice(fixtureOrder('second-partial'));
    const first = draftOf(refund('partial-line', invoice));
    const result = refund('second-partial', invoice, [first]);
    // Last shirt 22.13 + 1.55; beer 10.62 + 1.06; shipping 4.50 + 0.32 (its tax only in the shipping line's tax lines).
    const items = SECTION_6_5;
    expect(result).toEqual({ kind: 'draft', totalCents: 4018, draft: note(invoice, items, '37.25', '2.93', '40.18', [['03', '40.18']]) });
    const second = draftOf(result);
    expectValid(second, invoice, [first]);

    const both = [...first.listItems, ...second.listItems];
    const sum = (rate: string, field: 'valueITBMS' | 'totalValue') =>
      both.filter((i) => i.rateITBMS === rate).reduce((a, i) => a + centsOf(i[field]), 0);
    expect(centsOf(first.totalsSubTotals.totalInvoice) + centsOf(second.totalsSubTotals.totalInvoice)).toBe(8753);
    expect(centsOf(invoice.document.totalsSubTotals.totalInvoice)).toBe(8753);
    expect([sum('01', 'valueITBMS'), sum('02', 'valueITBMS')]).toEqual([497, 106]);
    // Nothing is left to credit: a full credit note has nothing to do.
    expect(fullCreditNote({ invoice, credited: [first, second], settings: defaultMappingSettings })).toEqual({
      kind: 'nothing',
      reason: 'everything_credited',
    });
  });

  it('shipping only #1103: one line, 6.00 + 0.42 = 6.42', () => {
    const items: Item[] = [['Envío express', 'ENVIO', '1.00', '6.00', '0.00', '6.00', '01', '0.42', '6.42']];
    expectOneDraft('shipping-only', { items, totalCents: 642, totals: ['6.00', '0.42', '6.42'], paidBack: '03' });
  });

  it('amount only #1104: 10.00 over lines grossing 42.80 and 24.20 → 5.97 + 0.42 and 3.28 + 0.33, paid back through manual (08)', () => {
    // 10.00 × 42.80 / 67.00 = 6.388 → 6.39, 7 %: 6.39 / 1.07 = 5.972 → 5.97 + 0.42; the rest 3.61, 10 %: 3.28 + 0.33.
    const items: Item[] = [
      ['Bonificación sobre Silla plegable de teca', 'SILLA-TECA', '1.00', '5.97', '0.00', '5.97', '01', '0.42', '6.39'],
      ['Bonificación sobre Vino tinto reserva 750 ml', 'VINO-RES-750', '1.00', '3.28', '0.00', '3.28', '02', '0.33', '3.61'],
    ];
    expectOneDraft('amount-only', { items, totalCents: 1000, totals: ['9.25', '0.75', '10.00'], paidBack: '08' });
  });
});

describe('full credit note (an invoice replaced, docs/design.md §9)', () => {
  it('with no note before it, mirrors the invoice item for item, with its payments', () => {
    const invoice = issueInvoice(fixtureOrder('partial-line'));
    const result = fullCreditNote({ invoice, credited: [], settings: defaultMappingSettings });
    expect(result).toEqual({
      kind: 'draft',
      totalCents: 8753,
      draft: note(invoice, invoice.document.listItems, '81.50', '6.03', '87.53', [['03', '87.53']]),
    });
    expectValid(draftOf(result), invoice);
  });

  it('after a partial refund, credits exactly what is left: the refund of §6.5 without Shopify', () => {
    const invoice = issueInvoice(fixtureOrder('partial-line'));
    const first = draftOf(refund('partial-line', invoice));
    const result = fullCreditNote({ invoice, credited: [first], settings: defaultMappingSettings });
    const items = SECTION_6_5;
    expect(result).toEqual({ kind: 'draft', totalCents: 4018, draft: note(invoice, items, '37.25', '2.93', '40.18', [['03', '40.18']]) });
    expectValid(draftOf(result), invoice, [first]);
  });

  it('after an amount-only refund, credits the goods at what is left of their value: 40.00 − 5.97 and 22.00 − 3.28', () => {
    const invoice = issueInvoice(fixtureOrder('amount-only'));
    const goodwill = draftOf(refund('amount-only', invoice));
    const result = fullCreditNote({ invoice, credited: [goodwill], settings: defaultMappingSettings });
    // Silla: 40.00 − 5.97 = 34.03, ITBMS 2.80 − 0.42 = 2.38 (34.03 × 7 % = 2.3821). Vino: 18.72, 2.20 − 0.33 = 1.87.
    const items: Item[] = [
      ['Silla plegable de teca', 'SILLA-TECA', '1.00', '40.00', '5.97', '34.03', '01', '2.38', '36.41'],
      ['Vino tinto reserva 750 ml', 'VINO-RES-750', '1.00', '22.00', '3.28', '18.72', '02', '1.87', '20.59'],
    ];
    expect(result).toEqual({ kind: 'draft', totalCents: 5700, draft: note(invoice, items, '52.75', '4.25', '57.00', [['08', '57.00']]) });
    expectValid(draftOf(result), invoice, [goodwill]);
  });
});
