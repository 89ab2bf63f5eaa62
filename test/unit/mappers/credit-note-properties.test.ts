// Credit notes on orders generated the way Shopify computes them (both tax modes, line and order discounts, order- or
// line-rounded tax, several rates, shipping, gift cards, tips), each refunded by a random sequence of refunds that
// the store simulator computes as Shopify would (sim/store-simulator/refund-payload.ts). Every note keeps the
// DGI arithmetic and the sandbox's rules, totals what Shopify refunded for invoiced goods, and the notes never exceed
// the invoice; a sequence that refunds everything adds up to the invoice exactly, in total and per rate.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { type MappingSettings, mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { type CreditNoteResult, refundToCreditNote } from '../../../mappers/credit-note/refund-to-credit-note.ts';
import { fullCreditNote } from '../../../mappers/credit-note/full-credit-note.ts';
import { type RefundRequest, buildRefundPayload } from '../../../sim/store-simulator/refund-payload.ts';
import { centsOf } from '../../support/document-invariants.ts';
import { issueInvoice, parseOrder, parseRefund } from '../../support/refund-fixtures.ts';
import { type LineSpec, buildOrder } from '../../support/shopify-order-builder.ts';
import { type Case, checkDocument, moveTaxCent, perRate, refundedMoney, sameRateTotals } from '../../support/credit-note-oracles.ts';

const CASES = 2_000;
let casesRun = 0;
/** How often each shape was met, so the properties cannot pass on easy refunds only. */
const seen: Record<string, number> = {};
const count = (what: string) => (seen[what] = (seen[what] ?? 0) + 1);
/** Shapes every run must meet at least 10 times. */
const REQUIRED = [
  'note',
  'note: tax included',
  'note: a refunded line split',
  'note: amount-only share',
  'note: part of the shipping',
  'note: tip',
  'note: gift card left out',
  'note: mapped rate',
  'note: ITBMS moved off Shopify’s by a cent',
  'refunded everything',
  'full credit note after partial refunds',
  'wait',
  'nothing: no_money_refunded',
  'nothing: nothing_invoiced_refunded',
  'tax cent moved by Shopify',
];

// ---------------------------------------------------------------------------------------------
// Generators

const price = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 20_000 }), weight: 5 },
  { arbitrary: fc.integer({ min: 1, max: 2_000_000 }), weight: 1 },
);
const quantity = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 5 },
  { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 1 },
);

const line = (i: number): fc.Arbitrary<LineSpec> =>
  fc
    .record({
      price,
      quantity,
      taxRates: fc.constantFrom<string[]>(['0.07'], ['0.07'], ['0.1'], ['0.15'], [], ['0.06', '0.025']),
      giftCard: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      discount: fc.option(fc.constantFrom('5', '10', '12.5', '33'), { nil: undefined }),
    })
    .map((l): LineSpec => ({
      title: `Producto ${i + 1}`,
      sku: `SKU-${i + 1}`,
      price: l.price,
      quantity: l.quantity,
      taxRates: l.giftCard ? [] : l.taxRates,
      giftCard: l.giftCard,
      ...(l.discount === undefined || l.giftCard ? {} : { discount: { kind: 'percent' as const, percent: l.discount } }),
    }));

const orderCase: fc.Arbitrary<Case> = fc
  .record({
    id: fc.integer({ min: 1, max: 9_000_000_000 }),
    taxesIncluded: fc.boolean(),
    taxRounding: fc.constantFrom<'line' | 'order'>('line', 'order'),
    lineCount: fc.integer({ min: 1, max: 4 }),
    orderDiscount: fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: undefined }),
    shipping: fc.option(fc.record({ price: fc.integer({ min: 1, max: 3_000 }), taxRates: fc.constantFrom<string[]>(['0.07'], []) }), {
      nil: undefined,
    }),
    tip: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 2_000 }), weight: 1 }),
    includeGiftCards: fc.boolean(),
    includeTips: fc.boolean(),
    finishAll: fc.boolean(),
    moveTaxCent: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    steps: fc.array(
      fc.record({
        lineShares: fc.array(
          fc.oneof(
            fc.constant(0),
            fc.constant(1),
            fc.integer({ min: 1, max: 99 }).map((n) => n / 100),
          ),
          {
            minLength: 4,
            maxLength: 4,
          },
        ),
        shipping: fc.constantFrom<'none' | 'full' | 'part'>('none', 'none', 'full', 'part'),
        amountShare: fc.oneof(
          { arbitrary: fc.constant(0), weight: 3 },
          { arbitrary: fc.integer({ min: 1, max: 30 }).map((n) => n / 100), weight: 1 },
        ),
        tip: fc.boolean(),
        pending: fc.integer({ min: 0, max: 14 }).map((n) => n === 0),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .chain((c) =>
    fc.tuple(...Array.from({ length: c.lineCount }, (_, i) => line(i))).map((lines): Case => ({
      spec: {
        id: c.id,
        taxesIncluded: c.taxesIncluded,
        taxRounding: c.taxRounding,
        lines,
        ...(c.shipping === undefined ? {} : { shipping: [{ title: 'Envío estándar', ...c.shipping }] }),
        ...(c.orderDiscount === undefined ? {} : { orderDiscount: { kind: 'fixed' as const, amount: c.orderDiscount, code: 'PROMO' } }),
        tip: c.tip,
        gateways: ['shopify_payments'],
      },
      settings: { includeGiftCards: c.includeGiftCards, includeTips: c.includeTips },
      steps: c.steps,
      finishAll: c.finishAll,
      moveTaxCent: c.moveTaxCent,
    })),
  );

// ---------------------------------------------------------------------------------------------
// Running one case

type Json = Record<string, unknown>;
type RestLine = { id: number; quantity: number; gift_card: boolean };

function checkCase(c: Case): void {
  casesRun++;
  const orderJson = buildOrder(c.spec);
  const taxCentMoved = c.moveTaxCent && moveTaxCent(orderJson);
  if (taxCentMoved) count('tax cent moved by Shopify');
  const order = parseOrder(orderJson);
  const settings: MappingSettings = mappingSettingsSchema.parse({ ...c.settings, taxRateCodes: { '0.085': '01' } });
  let invoice: ReturnType<typeof issueInvoice>;
  try {
    invoice = issueInvoice(order, settings);
  } catch {
    count('not invoiced');
    return;
  }
  count('invoiced');
  const restLines = orderJson['line_items'] as RestLine[];
  const unitsLeft = restLines.map((l) => l.quantity);
  const previous: Json[] = [];
  const requests: RefundRequest[] = [];
  const notes: GatewayDocument[] = [];
  let tipLeft = centsOf(orderJson['total_tip_received'] as string) > 0;
  const creditedCents = () => notes.reduce((a, n) => a + centsOf(n.totalsSubTotals.totalInvoice), 0);
  /** What is left to credit of the invoice (what a goodwill refund can still be). */
  const invoiceLeft = () =>
    centsOf(invoice.document.totalsSubTotals.totalInvoice) - notes.reduce((a, n) => a + centsOf(n.totalsSubTotals.totalInvoice), 0);
  let amountRefunded = false;
  let broken = false;

  const steps = c.finishAll ? [...c.steps, undefined] : c.steps;
  for (const step of steps) {
    const request = step === undefined ? finalRequest() : stepRequest(step);
    if (request === undefined) continue;
    let body: Json;
    try {
      body = buildRefundPayload(orderJson, previous, request);
    } catch {
      continue;
    }
    const refund = parseRefund(JSON.parse(JSON.stringify(body)));
    const result = refundToCreditNote({ refund, order, invoice, credited: notes, settings });
    if ((body['transactions'] as { status: string }[]).some((t) => t.status === 'pending')) {
      expect(result).toEqual({ kind: 'wait', reason: 'refund_pending' });
      count('wait');
      continue;
    }
    previous.push(body);
    requests.push(request);
    for (const l of request.lines ?? []) unitsLeft[restLines.findIndex((r) => r.id === l.lineItemId)]! -= l.quantity;
    if (request.tip) tipLeft = false;
    if (broken) continue;
    checkResult(result, body, request, amountRefunded || request.amountOnly !== undefined);
    if (request.amountOnly) amountRefunded = true;
  }

  // Σ notes ≤ invoice, in total and per rate; equal when everything was refunded and each refund became a note.
  const invoiced = perRate([invoice.document]);
  const credited = perRate(notes);
  for (const [rate, sum] of credited) {
    expect(sum.net).toBeLessThanOrEqual(invoiced.get(rate)!.net);
    expect(sum.tax).toBeLessThanOrEqual(invoiced.get(rate)!.tax);
  }
  if (c.finishAll && !broken) {
    count('refunded everything');
    expect(credited).toEqual(invoiced);
    expect(fullCreditNote({ invoice, credited: notes, settings })).toEqual({ kind: 'nothing', reason: 'everything_credited' });
  } else if (!broken) {
    // What is left is one full credit note away.
    const full = fullCreditNote({ invoice, credited: notes, settings });
    if (full.kind === 'draft') {
      checkDocument(full.draft, invoice, creditedCents());
      expect(perRate([...notes, full.draft])).toEqual(invoiced);
      count('full credit note after partial refunds');
    }
  }

  function stepRequest(step: Case['steps'][number]): RefundRequest | undefined {
    const lines = restLines
      .map((l, i) => ({ lineItemId: l.id, quantity: Math.floor(unitsLeft[i]! * (step.lineShares[i] ?? 0)) }))
      .filter((l) => l.quantity > 0);
    const shippingLeft = shippingToRefund() > 0;
    const request: RefundRequest = { createdAt: '2026-11-24T10:00:00-05:00' };
    if (lines.length > 0) request.lines = lines;
    if (step.shipping !== 'none' && shippingLeft)
      request.shipping = step.shipping === 'full' ? 'full' : { amount: Math.max(1, Math.floor(c.spec.shipping![0]!.price / 3)) };
    if (step.tip && tipLeft) request.tip = true;
    // Money beyond the goods: a share of what the invoice has left once this refund's goods are credited.
    const amount = Math.floor((invoiceLeft() - invoicedValue(request)) * step.amountShare);
    if (amount > 0) request.amountOnly = { amount };
    if (step.pending) request.status = 'pending';
    return request.lines || request.shipping || request.tip || request.amountOnly ? request : undefined;
  }

  function finalRequest(): RefundRequest | undefined {
    if (amountRefunded) return invoiceLeft() > 0 ? { amountOnly: { amount: invoiceLeft() } } : undefined;
    const lines = restLines.map((l, i) => ({ lineItemId: l.id, quantity: unitsLeft[i]! })).filter((l) => l.quantity > 0);
    const request: RefundRequest = {};
    if (lines.length > 0) request.lines = lines;
    if (shippingToRefund() > 0) request.shipping = 'full';
    if (tipLeft) request.tip = true;
    return request;
  }

  /** About what the invoice has for the request's goods and shipping (its items' totals, prorated). */
  function invoicedValue(request: RefundRequest): number {
    const itemsOf = (code: string) => invoice.document.listItems.filter((i) => i.code === code);
    const gross = (items: GatewayDocument['listItems']) => items.reduce((a, i) => a + centsOf(i.totalValue), 0);
    let value = 0;
    for (const l of request.lines ?? []) {
      const k = restLines.findIndex((r) => r.id === l.lineItemId);
      value += (gross(itemsOf(`SKU-${k + 1}`)) * l.quantity) / restLines[k]!.quantity;
    }
    if (request.shipping !== undefined) value += gross(itemsOf('ENVIO'));
    return Math.ceil(value);
  }

  function shippingToRefund(): number {
    const refunded = previous.flatMap((p) => p['refund_shipping_lines'] as { subtotal_amount_set: { shop_money: { amount: string } } }[]);
    return (c.spec.shipping?.[0]?.price ?? 0) - refunded.reduce((a, s) => a + centsOf(s.subtotal_amount_set.shop_money.amount), 0);
  }

  function checkResult(result: CreditNoteResult, body: Json, request: RefundRequest, amountRefunded: boolean): void {
    const leftOut = leftOutMoney(body);
    const expected = refundedMoney(body) - leftOut;
    if (result.kind === 'draft') {
      checkDocument(result.draft, invoice, creditedCents());
      // Each note totals what Shopify refunded for what the invoice covers.
      expect(result.totalCents).toBe(expected);
      expect(centsOf(result.draft.totalsSubTotals.totalInvoice)).toBe(expected);
      notes.push(result.draft as unknown as GatewayDocument);
      countNote(result.draft.listItems, body, request, leftOut);
      return;
    }
    if (result.kind === 'nothing') {
      count(`nothing: ${result.reason}`);
      expect(expected).toBe(0);
      return;
    }
    // The conflicts the mapper leaves to a person, each a rate or the total credited beyond the invoice:
    // - an amount-only refund put money on lines whose rate goods now take entirely, or asked more than the invoice
    //   has left (Shopify allows both: its refundable amount is the order's, gift cards and tips included);
    // - the invoice moved a tax cent from one rate to another, so Shopify's refunds at those rates cannot add up to it;
    // - Shopify's tax on a line is a cent off its exact value (docs/reference/shopify-refunds.md §6.3, fixture 02), so a
    //   refunded unit cannot match both Shopify and the invoice's pieces.
    const why = JSON.stringify({ result, requests });
    const cause = amountRefunded
      ? 'an amount-only refund'
      : !sameRateTotals(orderJson, c, invoice.document)
        ? 'the invoice moved tax across rates'
        : taxCentMoved
          ? 'Shopify’s tax a cent off'
          : undefined;
    expect(cause, why).toBeDefined();
    expect(result.kind === 'problems' && result.problems.every((p) => p.code === 'credit_exceeds_invoice'), why).toBe(true);
    count(`problems: ${cause}`);
    broken = true;
  }

  function countNote(items: GatewayDocument['listItems'], body: Json, request: RefundRequest, leftOut: number): void {
    count('note');
    if (c.spec.taxesIncluded) count('note: tax included');
    if ((request.lines ?? []).some((l) => items.filter((i) => i.code === `SKU-${Number(l.lineItemId) % 1000}`).length === 2)) {
      count('note: a refunded line split');
    }
    if (items.some((i) => i.description.startsWith('Bonificación sobre '))) count('note: amount-only share');
    if (request.shipping !== undefined && request.shipping !== 'full') count('note: part of the shipping');
    if (request.tip && c.settings.includeTips) count('note: tip');
    if (leftOut > 0) count('note: gift card left out');
    if (items.some((i) => c.spec.lines.some((l, k) => l.taxRates.length === 2 && i.code === `SKU-${k + 1}`))) {
      count('note: mapped rate');
    }
    const shopifyTax = (body['refund_line_items'] as { total_tax_set: { shop_money: { amount: string } } }[]).reduce(
      (a, l) => a + centsOf(l.total_tax_set.shop_money.amount),
      0,
    );
    const noteTax = items
      .filter((i) => !i.description.startsWith('Bonificación') && i.code !== 'ENVIO')
      .reduce((a, i) => a + centsOf(i.valueITBMS), 0);
    if (request.shipping === undefined && request.amountOnly === undefined && leftOut === 0 && Math.abs(noteTax - shopifyTax) === 1) {
      count('note: ITBMS moved off Shopify’s by a cent');
    }
  }

  function leftOutMoney(body: Json): number {
    let out = 0;
    for (const l of body['refund_line_items'] as Json[]) {
      const snapshot = l['line_item'] as Json;
      const leftOut =
        (snapshot['gift_card'] === true && !c.settings.includeGiftCards) || ('tip_payment_gateway' in snapshot && !c.settings.includeTips);
      if (leftOut)
        out +=
          centsOf((l['subtotal_set'] as { shop_money: { amount: string } }).shop_money.amount) +
          (c.spec.taxesIncluded ? 0 : centsOf((l['total_tax_set'] as { shop_money: { amount: string } }).shop_money.amount));
    }
    return out;
  }
}

describe('credit-note properties (docs/design.md §9)', () => {
  it(`maps ${CASES} orders × random refund sequences into notes that add up to the invoice`, () => {
    fc.assert(
      fc.property(orderCase, (c) => checkCase(c)),
      { numRuns: CASES, seed: 20261125 },
    );
  }, 300_000);

  afterAll(() => {
    expect(casesRun).toBeGreaterThanOrEqual(CASES);
    expect(REQUIRED.filter((shape) => (seen[shape] ?? 0) < 10)).toEqual([]);
    // The conflicts left to a person stay rare: at most 1 % of the orders (about 0.3 % over 32 000 orders and 8 seeds).
    const problems = Object.entries(seen)
      .filter(([shape]) => shape.startsWith('problems:'))
      .reduce((a, [, n]) => a + n, 0);
    expect(problems).toBeLessThanOrEqual(CASES / 100);
  });
});
