// refundToCreditNote beyond the five fixtures: when there is no note (yet), the problems that stop a wrong note, and
// the shapes Shopify's refunds take (tax included, part of the shipping, gift cards and tips, goodwill then a return).
// Refund bodies are the fixtures' or the store simulator's (refund-payload.ts); amounts are worked out in comments.
import { describe, expect, it } from 'vitest';
import type { DocumentDraft } from '../../../mappers/invoice/document-numbering.ts';
import { type MappingSettings, defaultMappingSettings, mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { type CreditNoteResult, type CreditedInvoice, refundToCreditNote } from '../../../mappers/credit-note/refund-to-credit-note.ts';
import { type RefundRequest, buildRefundPayload } from '../../../sim/store-simulator/refund-payload.ts';
import {
  type Item,
  type RefundFixture,
  issueInvoice,
  itemOf,
  parseOrder,
  parseRefund,
  readRefundFixture,
} from '../../support/refund-fixtures.ts';
import { withTexts } from '../../support/documents.ts';
import { buildOrder } from '../../support/shopify-order-builder.ts';

type Json = Record<string, unknown>;
interface Shop {
  order: Json;
  invoice: CreditedInvoice;
  settings: MappingSettings;
  notes: DocumentDraft[];
  bodies: Json[];
}

function shop(order: Json, settings: MappingSettings = defaultMappingSettings): Shop {
  return { order, invoice: issueInvoice(parseOrder(order), settings), settings, notes: [], bodies: [] };
}

const fixtureShop = (name: RefundFixture) => shop(readRefundFixture(name, 'order'));

/** Map a refund body against the shop's invoice and notes so far; a draft joins the notes. */
function credit(s: Shop, body: Json, invoice: CreditedInvoice = s.invoice): CreditNoteResult {
  const result = refundToCreditNote({
    refund: parseRefund(body),
    order: parseOrder(s.order),
    invoice,
    credited: s.notes,
    settings: s.settings,
  });
  s.bodies.push(body);
  if (result.kind === 'draft') s.notes.push(result.draft);
  return result;
}

/** Shopify's body for `request` (the store simulator), then mapped. */
const refund = (s: Shop, request: RefundRequest) => credit(s, buildRefundPayload(s.order, s.bodies, request));

function items(result: CreditNoteResult): Item[] {
  if (result.kind !== 'draft') throw new Error(`expected a draft: ${JSON.stringify(result)}`);
  return result.draft.listItems.map(itemOf);
}

function totals(result: CreditNoteResult): [total: string, itbms: string, payments: string] {
  if (result.kind !== 'draft') throw new Error(`expected a draft: ${JSON.stringify(result)}`);
  const t = result.draft.totalsSubTotals;
  return [t.totalInvoice, t.totalITBMS, t.listFormPayment.map((p) => `${p.formPaymentInvoice} ${p.valueFeePaid}`).join(', ')];
}

/** A result's problems as [code, message, messageEs, path], or the result itself when it has none. */
const codes = (result: CreditNoteResult): unknown[] =>
  result.kind === 'problems' ? withTexts(result.problems).map((p) => [p.code, p.message, p.messageEs, p.path]) : [result];

const EXCEEDS = (what: string, credited: string, invoiced: string, whatEs: string) => [
  'credit_exceeds_invoice',
  `With this refund the credit notes would credit ${credited} ${what}, more than the invoice's ${invoiced}. Check the order's refunds in Shopify; this credit note must be issued by hand.`,
  `Con este reembolso las notas de crédito acreditarían ${credited} ${whatEs}, más que los ${invoiced} de la factura. Revise los reembolsos del pedido en Shopify; esta nota de crédito debe emitirse manualmente.`,
  undefined,
];

// An order with a gift card and a tip: the notebook 15.00 + 1.05 is all the invoice covers (unless the shop says so).
const giftOrder = () =>
  buildOrder({
    id: 5900000003001,
    taxesIncluded: false,
    lines: [
      { title: 'Libreta', sku: 'LIB', price: 1500, quantity: 1, taxRates: ['0.07'] },
      { title: 'Tarjeta de regalo', sku: 'GIFT-25', price: 2500, quantity: 1, taxRates: [], giftCard: true },
    ],
    tip: 300,
    gateways: ['shopify_payments'],
  });
const NOTEBOOK = 5900000003001001;
const GIFT_CARD = 5900000003001002;

// A tax-inclusive shop: 3 cups at 9.99 (7 % included: 29.97 → 28.01 + 1.96), shipping 5.35 (5.00 + 0.35).
const inclusiveOrder = () =>
  buildOrder({
    id: 5900000002001,
    taxesIncluded: true,
    lines: [{ title: 'Taza de café', sku: 'TAZA', price: 999, quantity: 3, taxRates: ['0.07'] }],
    shipping: [{ title: 'Envío estándar', price: 535, taxRates: ['0.07'] }],
    gateways: ['shopify_payments'],
  });
const CUPS = 5900000002001001;

describe('no note, or not yet', () => {
  it('waits while a refund transaction is pending, even when another part succeeded', () => {
    const s = fixtureShop('partial-line');
    expect(refund(s, { lines: [{ lineItemId: 14900000011021, quantity: 2 }], status: 'pending' })).toEqual({
      kind: 'wait',
      reason: 'refund_pending',
    });
    const body = readRefundFixture('partial-line', 'refund');
    const card = (body['transactions'] as Json[])[0]!;
    body['transactions'] = [
      { ...card, amount: '40.00' },
      { ...card, gateway: 'gift_card', amount: '7.35', status: 'pending' },
    ];
    expect(credit(s, body)).toEqual({ kind: 'wait', reason: 'refund_pending' });
  });

  it('issues nothing for a restock without money, or a refund whose transaction failed', () => {
    const s = fixtureShop('partial-line');
    expect(refund(s, { lines: [{ lineItemId: 14900000011021, quantity: 1, restockType: 'return' }], noMoney: true })).toEqual({
      kind: 'nothing',
      reason: 'no_money_refunded',
    });
    const failed = readRefundFixture('partial-line', 'refund');
    (failed['transactions'] as Json[])[0]!['status'] = 'failure';
    expect(credit(s, failed)).toEqual({ kind: 'nothing', reason: 'no_money_refunded' });
  });

  it('issues nothing when only a gift card or the tip the invoice left out is refunded', () => {
    const s = shop(giftOrder());
    expect(refund(s, { lines: [{ lineItemId: GIFT_CARD, quantity: 1 }] })).toEqual({
      kind: 'nothing',
      reason: 'nothing_invoiced_refunded',
    });
    expect(refund(s, { tip: true })).toEqual({ kind: 'nothing', reason: 'nothing_invoiced_refunded' });
  });
});

describe('gift cards and tips', () => {
  it('leaves them out of the note as the invoice did: 44.05 refunded, 16.05 credited and paid back by card', () => {
    const s = shop(giftOrder());
    const result = refund(s, {
      lines: [
        { lineItemId: NOTEBOOK, quantity: 1 },
        { lineItemId: GIFT_CARD, quantity: 1 },
      ],
      tip: true,
    });
    expect(items(result)).toEqual([['Libreta', 'LIB', '1.00', '15.00', '0.00', '15.00', '01', '1.05', '16.05']]);
    expect(totals(result)).toEqual(['16.05', '1.05', '03 16.05']);
  });

  it('credits them as their own exempt lines when the shop invoices them', () => {
    const s = shop(giftOrder(), mappingSettingsSchema.parse({ includeGiftCards: true, includeTips: true }));
    expect(items(refund(s, { lines: [{ lineItemId: GIFT_CARD, quantity: 1 }] }))).toEqual([
      ['Tarjeta de regalo', 'GIFT-25', '1.00', '25.00', '0.00', '25.00', '00', '0.00', '25.00'],
    ]);
    expect(items(refund(s, { tip: true }))).toEqual([['Propina', 'PROPINA', '1.00', '3.00', '0.00', '3.00', '00', '0.00', '3.00']]);
  });
});

describe('tax included in prices', () => {
  it('credits one cup at 9.99 (9.34 + 0.65), then the rest, and the notes add up to the invoice', () => {
    const s = shop(inclusiveOrder());
    // Invoice: 2 × 9.34 (1.31) + 1 × 9.33 (0.65) + shipping 5.00 (0.35) = 33.01 + 2.31 = 35.32.
    const first = refund(s, { lines: [{ lineItemId: CUPS, quantity: 1 }] });
    // Shopify: subtotal 9.99 = 29.97 / 3 (tax included), tax 0.65; 1.96 − ideal(19.98) 1.31 = 0.65 → 9.34.
    expect(items(first)).toEqual([['Taza de café', 'TAZA', '1.00', '9.34', '0.00', '9.34', '01', '0.65', '9.99']]);
    expect(totals(first)).toEqual(['9.99', '0.65', '03 9.99']);
    const rest = refund(s, { lines: [{ lineItemId: CUPS, quantity: 2 }], shipping: 'full' });
    // The last two cups take what is left: 18.67 over 2 units (9.34 + 9.33) and ITBMS 1.31 (0.66 + 0.65).
    expect(items(rest)).toEqual([
      ['Taza de café', 'TAZA', '1.00', '9.34', '0.00', '9.34', '01', '0.66', '10.00'],
      ['Taza de café', 'TAZA', '1.00', '9.34', '0.01', '9.33', '01', '0.65', '9.98'],
      ['Envío estándar', 'ENVIO', '1.00', '5.00', '0.00', '5.00', '01', '0.35', '5.35'],
    ]);
    expect(totals(rest)).toEqual(['25.33', '1.66', '03 25.33']);
  });

  it('lets the money say whether the subtotals include tax (unverified for Shopify, §1.4)', () => {
    const s = shop(inclusiveOrder());
    const body = buildRefundPayload(s.order, [], { lines: [{ lineItemId: CUPS, quantity: 1 }] });
    const line = (body['refund_line_items'] as { subtotal_set: { shop_money: { amount: string } } }[])[0]!;
    line.subtotal_set.shop_money.amount = '9.34';
    expect(items(credit(s, body))).toEqual([['Taza de café', 'TAZA', '1.00', '9.34', '0.00', '9.34', '01', '0.65', '9.99']]);
  });

  it('works out the tax of part of the shipping from its rate: 2.00 → 1.87 + 0.13', () => {
    const s = shop(inclusiveOrder());
    expect(items(refund(s, { shipping: { amount: 200 } }))).toEqual([
      ['Envío estándar', 'ENVIO', '1.00', '1.87', '0.00', '1.87', '01', '0.13', '2.00'],
    ]);
  });
});

describe('shipping', () => {
  it('works out the tax of part of the shipping from the money: 2.00 of 6.00, 2.14 refunded → 2.00 + 0.14', () => {
    const s = fixtureShop('shipping-only');
    const result = refund(s, { shipping: { amount: 200 } });
    expect(items(result)).toEqual([['Envío express', 'ENVIO', '1.00', '2.00', '0.00', '2.00', '01', '0.14', '2.14']]);
    expect(totals(result)).toEqual(['2.14', '0.14', '03 2.14']);
  });

  it('ignores the shipping_refund adjustment older bodies repeat beside refund_shipping_lines', () => {
    const s = fixtureShop('shipping-only');
    const body = readRefundFixture('shipping-only', 'refund');
    body['order_adjustments'] = [{ kind: 'shipping_refund', amount: '-6.00', tax_amount: '-0.42', reason: 'Shipping refund' }];
    expect(items(credit(s, body))).toEqual([['Envío express', 'ENVIO', '1.00', '6.00', '0.00', '6.00', '01', '0.42', '6.42']]);
  });
});

describe('goodwill, then a return', () => {
  it('credits the wine up to what the goodwill left of it and moves the rest of the goodwill to the chair', () => {
    const s = fixtureShop('amount-only');
    credit(s, readRefundFixture('amount-only', 'refund'));
    // The wine comes back at its full 24.20, but 3.61 of it was credited as goodwill: 20.59 is left (18.72 + 1.87).
    // The 3.61 belonged to the chair, which stays: 36.41 left, 3.61 of it with ITBMS 2.38 − ideal(32.80) 2.15 = 0.23.
    const result = refund(s, { lines: [{ lineItemId: 14900000011042, quantity: 1 }] });
    expect(items(result)).toEqual([
      ['Vino tinto reserva 750 ml', 'VINO-RES-750', '1.00', '22.00', '3.28', '18.72', '02', '1.87', '20.59'],
      ['Bonificación sobre Silla plegable de teca', 'SILLA-TECA', '1.00', '3.38', '0.00', '3.38', '01', '0.23', '3.61'],
    ]);
    expect(totals(result)).toEqual(['24.20', '2.10', '08 24.20']);
  });
});

describe('problems, never a wrong note', () => {
  it('refuses a note that would credit more than the invoice: units, base and ITBMS per rate', () => {
    const s = fixtureShop('second-partial');
    credit(s, readRefundFixture('second-partial', 'refund'));
    expect(
      codes(credit(s, { ...readRefundFixture('second-partial', 'refund'), id: 1, admin_graphql_api_id: 'gid://shopify/Refund/1' })),
    ).toEqual([
      EXCEEDS('units of "Cerveza artesanal (6 unidades)"', '2', '1', 'unidades de "Cerveza artesanal (6 unidades)"'),
      EXCEEDS('of the base taxed at 10 %', '21.24', '10.62', 'de la base gravada al 10 %'),
      EXCEEDS('of ITBMS at 10 %', '2.12', '1.06', 'de ITBMS al 10 %'),
    ]);
  });

  it('refuses an amount-only refund beyond what the invoice covers (Shopify allows it: the gift card was paid too)', () => {
    const s = shop(giftOrder());
    expect(codes(refund(s, { amountOnly: { amount: 2000 } }))).toEqual([EXCEEDS('in total', '20.00', '16.05', 'en total')]);
  });

  it('refuses a currency other than US dollars or balboas, in the shop or in the refund', () => {
    const s = fixtureShop('partial-line');
    expect(codes(credit({ ...s, order: { ...s.order, currency: 'EUR' } }, readRefundFixture('partial-line', 'refund')))).toEqual([
      [
        'unsupported_currency',
        "The shop's currency is EUR. Panamanian invoices are issued in US dollars (or balboas): set the store currency to USD in Shopify to invoice its orders.",
        'La moneda de la tienda es EUR. Las facturas panameñas se emiten en dólares (o balboas): configure la moneda de la tienda en USD en Shopify para facturar sus pedidos.',
        'currency',
      ],
    ]);
    const body = readRefundFixture('partial-line', 'refund');
    (body['transactions'] as Json[])[0]!['currency'] = 'EUR';
    expect(codes(credit(s, body))).toEqual([
      [
        'refund_currency_unsupported',
        'Money was refunded in EUR. Credit notes are issued in US dollars (or balboas), so this one cannot be made automatically; issue it by hand.',
        'El dinero se reembolsó en EUR. Las notas de crédito se emiten en dólares (o balboas), así que esta no se puede emitir automáticamente; emítala manualmente.',
        'transactions[0].currency',
      ],
    ]);
  });

  it('refuses a refunded line or shipping the invoice does not have', () => {
    const s = fixtureShop('partial-line');
    const body = readRefundFixture('partial-line', 'refund');
    const line = (body['refund_line_items'] as Json[])[0]!;
    line['line_item_id'] = 1;
    (line['line_item'] as Json)['admin_graphql_api_id'] = 'gid://shopify/LineItem/1';
    expect(codes(credit(s, body))).toEqual([
      [
        'refund_line_not_invoiced',
        `The refund includes "Camisa Polo - L / Blanca", which is not on the order's invoice (the order may have been edited after it was invoiced). Issue the credit note by hand.`,
        `El reembolso incluye "Camisa Polo - L / Blanca", que no está en la factura del pedido (es posible que el pedido se editara después de facturarlo). Emita la nota de crédito manualmente.`,
        'refund_line_items[0]',
      ],
    ]);
    // The amount-only order's free shipping is not on its invoice.
    const free = fixtureShop('amount-only');
    expect(codes(credit(free, readRefundFixture('shipping-only', 'refund')))[0]).toEqual([
      'refund_line_not_invoiced',
      `The refund includes "Envío express", which is not on the order's invoice (the order may have been edited after it was invoiced). Issue the credit note by hand.`,
      `El reembolso incluye "Envío express", que no está en la factura del pedido (es posible que el pedido se editara después de facturarlo). Emita la nota de crédito manualmente.`,
      'refund_shipping_lines[0]',
    ]);
  });

  it('refuses a refund whose money does not add up, or that returned less than the items (a restocking fee)', () => {
    const s = fixtureShop('partial-line');
    const more = readRefundFixture('partial-line', 'refund');
    (more['transactions'] as Json[])[0]!['amount'] = '47.36';
    expect(codes(credit(s, more))).toEqual([
      [
        'refund_money_mismatch',
        'Shopify refunded 47.36, but the refunded items, shipping and adjustments add up to 47.35. Check the refund in Shopify; the credit note must be issued by hand.',
        'Shopify reembolsó 47.36, pero los artículos, el envío y los ajustes reembolsados suman 47.35. Revise el reembolso en Shopify; la nota de crédito debe emitirse manualmente.',
        'transactions',
      ],
    ]);
    const less = readRefundFixture('partial-line', 'refund');
    (less['transactions'] as Json[])[0]!['amount'] = '42.35';
    less['order_adjustments'] = [{ amount: '5.00', tax_amount: '0.00', reason: 'Restocking fee' }];
    expect(codes(credit(s, less))).toEqual([
      [
        'refund_less_than_items',
        'Shopify refunded 42.35 for items and shipping worth 47.35 (a restocking fee or a reduced refund). The app does not decide how to split the difference; issue the credit note by hand.',
        'Shopify reembolsó 42.35 por artículos y envío que valen 47.35 (un cargo por reposición o un reembolso reducido). La app no decide cómo repartir la diferencia; emita la nota de crédito manualmente.',
        'order_adjustments',
      ],
    ]);
  });

  it('refuses two parts of the shipping whose tax Shopify does not give', () => {
    const s = fixtureShop('shipping-only');
    const body = buildRefundPayload(s.order, [], { shipping: { amount: 200 } });
    const part = (body['refund_shipping_lines'] as Json[])[0]!;
    body['refund_shipping_lines'] = [part, part];
    expect(codes(credit(s, body))).toEqual([
      [
        'refund_shipping_tax_unknown',
        'Part of the shipping was refunded and Shopify did not say how much of it was tax. Issue the credit note by hand.',
        'Se reembolsó parte del envío y Shopify no indicó cuánto de ello era impuesto. Emita la nota de crédito manualmente.',
        'refund_shipping_lines[0]',
      ],
    ]);
  });

  it('refuses a tax no split of the line can carry within the DGI’s tolerance', () => {
    // The invoice as sent says 9.99 of ITBMS on 45.00 of shirts, and so does the refund: no item can carry it.
    const s = fixtureShop('full-refund');
    const invoice = structuredClone(s.invoice);
    Object.assign(invoice.document.listItems[0]!, { valueITBMS: '9.99', totalValue: '54.99' });
    const body = readRefundFixture('full-refund', 'refund');
    const shirts = (body['refund_line_items'] as { total_tax_set: { shop_money: { amount: string } } }[])[0]!;
    shirts.total_tax_set.shop_money.amount = '9.99';
    (body['transactions'] as Json[])[0]!['amount'] = '78.16';
    expect(codes(credit(s, body, invoice))).toEqual([
      [
        'credit_tax_not_distributable',
        "Shopify refunded 11.96 of tax, which cannot be spread over the credit note's lines within the DGI's rounding tolerance of 0.01 per line. Issue the credit note by hand.",
        'Shopify reembolsó 11.96 de impuesto, que no se puede repartir entre las líneas de la nota de crédito dentro de la tolerancia de redondeo de la DGI (0.01 por línea). Emita la nota de crédito manualmente.',
        undefined,
      ],
    ]);
  });

  it('refuses an invoice that is not the order’s, or notes that are not the invoice’s', () => {
    const s = fixtureShop('partial-line');
    const other = fixtureShop('full-refund').invoice;
    expect(codes(credit(s, readRefundFixture('partial-line', 'refund'), other))).toEqual([
      [
        'invoice_not_readable',
        'The invoice this refund belongs to cannot be matched with its order (no invoice item for line 1 (Camisa Polo - L / Blanca)), so the app cannot tell which invoice lines were refunded. Issue the credit note by hand.',
        'La factura de este reembolso no se puede relacionar con su pedido (no invoice item for line 1 (Camisa Polo - L / Blanca)), así que la app no puede saber qué líneas de la factura se reembolsaron. Emita la nota de crédito manualmente.',
        undefined,
      ],
    ]);
    s.notes.push({ ...s.invoice.document, listItems: other.document.listItems });
    expect(codes(credit(s, readRefundFixture('partial-line', 'refund')))).toEqual([
      [
        'invoice_not_readable',
        'The invoice this refund belongs to cannot be matched with its order (credit note 1 has an item "Camisa Polo - M / Azul" that is not on the invoice), so the app cannot tell which invoice lines were refunded. Issue the credit note by hand.',
        'La factura de este reembolso no se puede relacionar con su pedido (credit note 1 has an item "Camisa Polo - M / Azul" that is not on the invoice), así que la app no puede saber qué líneas de la factura se reembolsaron. Emita la nota de crédito manualmente.',
        undefined,
      ],
    ]);
  });
});

describe('settings', () => {
  it('takes the nature of operation of notes from creditNoteNatureOperation (default 11, devolución)', () => {
    const s = fixtureShop('shipping-only');
    const result = credit(
      { ...s, settings: mappingSettingsSchema.parse({ creditNoteNatureOperation: '01' }) },
      readRefundFixture('shipping-only', 'refund'),
    );
    expect(result.kind === 'draft' && result.draft.dataTransaction.natureOperation).toBe('01');
    const bad = mappingSettingsSchema.safeParse({ creditNoteNatureOperation: '99' });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message)).toEqual([
      'creditNoteNatureOperation must be one of: 01 (sale), 02 (export), 03 (re-export), 04 (sale from a foreign source), 10 (transfer), 11 (return), 12 (consignment), 13 (remittance), 14 (free delivery), 20 (purchase), 21 (import)',
    ]);
  });
});
