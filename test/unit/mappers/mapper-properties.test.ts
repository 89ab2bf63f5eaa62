// docs/design.md §6 invariants 1–5 on orders generated the way Shopify computes them (both tax modes, line and
// order discounts, shipping and its discounts, several rates, tips, gift cards, quantities to 1 000,
// prices to 100 000.00). At least 10 000 cases run; a counter proves it.
import { documentFor } from '../../support/order-fixtures.ts';
import { withTexts } from '../../support/documents.ts';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mappingSettingsSchema, type MappingSettings } from '../../../mappers/invoice/mapping-settings.ts';
import type { OrderTransaction } from '../../../mappers/invoice/order-to-document.ts';
import { cents } from '../../../mappers/fiscal/money.ts';
import { parseShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../../sim/sandbox/sandbox-gateway.ts';
import { validateSendDocument } from '../../../sim/sandbox/document-rules.ts';
import { brokenInvariants, centsOf } from '../../support/document-invariants.ts';
import { type Discount, type LineSpec, type OrderSpec, buildOrder } from '../../support/shopify-order-builder.ts';
import { type Body, type Breakage, EXPECTED_CODE, breakOrder, breakage } from '../../support/broken-orders.ts';

const NUMBERING = { branchCode: '0000', billingPoint: '001', fiscalNumber: 42 };
const NOW = new Date('2026-11-20T15:30:00Z');
const VALID_CASES = 8_000;
const BROKEN_CASES = 2_000;
let casesRun = 0;
/** How often each shape was met, so the property cannot pass on trivial orders only. */
const seen = {
  taxIncluded: 0,
  orderRounding: 0,
  splitLine: 0,
  taxMovedFromShopifyLine: 0,
  zeroValueItem: 0,
  giftCardLeftOut: 0,
  tipLeftOut: 0,
  mappedRate: 0,
  twoGateways: 0,
  quantityOver100: 0,
  priceOver10000: 0,
  nothingToInvoice: 0,
};

// ---------------------------------------------------------------------------------------------
// Generators

const smallOrLarge = (small: number, large: number) =>
  fc.oneof({ arbitrary: fc.integer({ min: 1, max: small }), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: large }), weight: 1 });

/** Unit prices in cents up to 100 000.00, mostly shop-like. */
const price = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 20_000 }), weight: 5 },
  { arbitrary: fc.integer({ min: 1, max: 10_000_000 }), weight: 1 },
);

const rates = fc.constantFrom<string[]>(['0.07'], ['0.07'], ['0.07'], ['0.1'], ['0.15'], [], ['0']);

const percent = fc.constantFrom('5', '10', '12.5', '15', '33', '50', '99', '100');

const discountFor = (unitPrice: number): fc.Arbitrary<Discount> =>
  fc.oneof(
    fc.record({ kind: fc.constant('fixed' as const), amount: fc.integer({ min: 1, max: unitPrice }) }),
    fc.record({ kind: fc.constant('percent' as const), percent }),
  );

const line = (index: number): fc.Arbitrary<LineSpec> =>
  fc
    .record({
      price,
      quantity: smallOrLarge(5, 1000),
      taxRates: rates,
      hasDiscount: fc.boolean(),
      giftCard: fc.integer({ min: 0, max: 19 }),
    })
    .chain((l) =>
      fc.record({
        title: fc.constant(`Producto ${index + 1}`),
        sku: fc.constant(`SKU-${index + 1}`),
        price: fc.constant(l.price),
        quantity: fc.constant(l.quantity),
        taxRates: fc.constant(l.giftCard === 0 ? [] : l.taxRates),
        giftCard: fc.constant(l.giftCard === 0),
        discount: l.hasDiscount && l.giftCard !== 0 ? discountFor(l.price) : fc.constant(undefined),
      }),
    )
    .map((l) => (l.discount === undefined ? omitKey(l, 'discount') : l) as LineSpec);

const orderDiscount: fc.Arbitrary<Discount | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('fixed' as const), amount: fc.integer({ min: 1, max: 500_000 }), code: fc.constant('PROMO') }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('percent' as const), percent, code: fc.constant('PROMO') }), weight: 1 },
);

const shipping = fc.option(
  fc.integer({ min: 1, max: 50_000 }).chain((p) =>
    fc
      .record({
        title: fc.constantFrom('Envío estándar', 'Entrega express', 'Retiro en tienda'),
        price: fc.constant(p),
        taxRates: fc.constantFrom<string[]>(['0.07'], []),
        discount: fc.option(discountFor(p), { nil: undefined }),
      })
      .map((s) => (s.discount === undefined ? omitKey(s, 'discount') : s)),
  ),
  { nil: undefined },
);

interface Case {
  spec: OrderSpec;
  /** Split of the total between a gift card and a card when two gateways paid. */
  giftCardShare?: number;
  includeGiftCards: boolean;
  includeTips: boolean;
  /** A line taxed 6 % + 2.5 % that the shop maps to ITBMS 7 %. */
  mappedRateLine: boolean;
}

const orderCase: fc.Arbitrary<Case> = fc
  .record({
    id: fc.integer({ min: 1, max: 9_000_000_000_000 }),
    taxesIncluded: fc.boolean(),
    taxRounding: fc.constantFrom<'line' | 'order'>('line', 'order'),
    lineCount: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 4 },
      { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 1 },
    ),
    orderDiscount,
    shipping,
    tip: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: 5_000 }), weight: 1 }),
    giftCardPayment: fc.integer({ min: 0, max: 4 }),
    includeGiftCards: fc.boolean(),
    includeTips: fc.boolean(),
    mappedRateLine: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  })
  .chain((c) =>
    fc.tuple(...Array.from({ length: c.lineCount }, (_, i) => line(i))).chain((lines) => {
      const extra: LineSpec[] = c.mappedRateLine
        ? [
            {
              title: 'Producto combinado',
              sku: 'SKU-MAPPED',
              price: 1999,
              quantity: 3,
              taxRates: ['0.06', '0.025'],
              taxTitles: ['Estatal', 'Municipal'],
            },
          ]
        : [];
      const spec: OrderSpec = {
        id: c.id,
        taxesIncluded: c.taxesIncluded,
        taxRounding: c.taxRounding,
        lines: [...lines, ...extra],
        ...(c.shipping === undefined ? {} : { shipping: [c.shipping] }),
        ...(c.orderDiscount === undefined ? {} : { orderDiscount: c.orderDiscount }),
        tip: c.tip,
        gateways: c.giftCardPayment === 0 ? ['gift_card', 'shopify_payments'] : ['shopify_payments'],
      };
      const base = { spec, includeGiftCards: c.includeGiftCards, includeTips: c.includeTips, mappedRateLine: c.mappedRateLine };
      return c.giftCardPayment === 0
        ? fc.integer({ min: 0, max: 1_000_000 }).map((share) => ({ ...base, giftCardShare: share }))
        : fc.constant(base);
    }),
  );

// ---------------------------------------------------------------------------------------------
// Running one case

function settingsFor(c: Case): MappingSettings {
  return mappingSettingsSchema.parse({
    includeGiftCards: c.includeGiftCards,
    includeTips: c.includeTips,
    taxRateCodes: c.mappedRateLine ? { '0.085': '01' } : {},
  });
}

/** Gift-card share of the total, paid by gift card; never more than the paid-for goods allow. */
function transactionsFor(c: Case, body: Body): OrderTransaction[] | undefined {
  if (c.giftCardShare === undefined) return undefined;
  const total = centsOf(body.current_total_price as string);
  const giftCard = Math.min(c.giftCardShare, total);
  return [
    { gateway: 'gift_card', kind: 'SALE', status: 'SUCCESS', amount: cents(giftCard) },
    { gateway: 'shopify_payments', kind: 'AUTHORIZATION', status: 'SUCCESS', amount: cents(total - giftCard) },
    { gateway: 'shopify_payments', kind: 'CAPTURE', status: 'SUCCESS', amount: cents(total - giftCard) },
  ];
}

function mapCase(c: Case, body: Body) {
  const parsed = parseShopifyOrder(JSON.parse(JSON.stringify(body)));
  if (!parsed.ok) throw new Error(`fixture did not parse: ${JSON.stringify(parsed.problems)}`);
  const transactions = transactionsFor(c, body);
  return documentFor({
    order: parsed.order,
    settings: settingsFor(c),
    ...(transactions === undefined ? {} : { transactions }),
    numbering: NUMBERING,
    now: NOW,
  });
}

/** What a line charged on Shopify: net (p×q − discounts) and its tax. */
function shopifyLine(l: { price: string; quantity?: number; tax_lines: { price: string }[]; discount_allocations: { amount: string }[] }) {
  const gross = centsOf(l.price) * (l.quantity ?? 1) - l.discount_allocations.reduce((a, d) => a + centsOf(d.amount), 0);
  const tax = l.tax_lines.reduce((a, t) => a + centsOf(t.price), 0);
  return { base: gross, tax };
}

function checkValidCase(c: Case): void {
  casesRun++;
  const body = buildOrder(c.spec) as Body;
  const result = mapCase(c, body);
  if (!invoicesSomething(c, body)) {
    seen.nothingToInvoice++;
    expect(result).toEqual({ ok: false, problems: [expect.objectContaining({ code: 'nothing_to_invoice' })] });
    return;
  }
  if (!result.ok) throw new Error(`valid order not mapped: ${JSON.stringify(result.problems)}`);
  const doc = result.document;

  // Invariants 1 and 2: line arithmetic and exact totals.
  const broken = brokenInvariants(doc);
  if (broken.length > 0) throw new Error(broken.join('\n'));
  // And what the sandbox gateway (the DGI's rules) would say.
  const request = { ...DEFAULT_SANDBOX_CREDENTIALS, identifierControlShipping: '1', environment: '2', document: doc };
  expect(validateSendDocument(request, NOW)).toBeUndefined();

  // Invariant 3: totalInvoice equals what the customer paid for what is invoiced.
  const included = body.taxes_included as boolean;
  const leftOutGiftCards = c.includeGiftCards
    ? 0
    : body.line_items
        .filter((l) => l.gift_card)
        .reduce((a, l) => {
          const s = shopifyLine(l);
          return a + s.base + (included ? 0 : s.tax);
        }, 0);
  const leftOutTip = c.includeTips ? 0 : centsOf(body.total_tip_received as string);
  const paidForInvoiced = centsOf(body.current_total_price as string) - leftOutGiftCards - leftOutTip;
  expect(centsOf(doc.totalsSubTotals.totalInvoice)).toBe(paidForInvoiced);
  // The tax is what Shopify charged (lines at a mapped rate are recomputed at the DGI rate).
  if (!c.mappedRateLine) expect(centsOf(doc.totalsSubTotals.totalITBMS)).toBe(centsOf(body.current_total_tax as string));

  // Invariant 4: each Shopify line is at most two items that add up to exactly that line, never fudged.
  for (const l of body.line_items) {
    const items = doc.listItems.filter((i) => i.code === l.sku);
    if (l.gift_card && !c.includeGiftCards) {
      expect(items).toEqual([]);
      continue;
    }
    expect(items.length).toBeGreaterThanOrEqual(1);
    expect(items.length).toBeLessThanOrEqual(2);
    expect(items.reduce((a, i) => a + centsOf(i.amount), 0)).toBe(l.quantity * 100);
    const s = shopifyLine(l);
    const net = items.reduce((a, i) => a + centsOf(i.priceItem), 0);
    const gross = items.reduce((a, i) => a + centsOf(i.totalValue), 0);
    if (l.sku === 'SKU-MAPPED') {
      expect(gross).toBe(s.base + (included ? 0 : s.tax));
    } else if (included) {
      expect(gross).toBe(s.base);
    } else {
      expect(net).toBe(s.base);
      for (const i of items) if (i.priceItem !== '0.00') expect(i.priceUnit).toBe(l.price);
    }
    if (items.length === 2) expect(unitValue(items[0]!) - unitValue(items[1]!)).toBe(1);
  }
  countShapes(c, body, doc);
  // Payments: one per form, adding up to the invoice.
  const forms = doc.totalsSubTotals.listFormPayment.map((p) => p.formPaymentInvoice);
  expect(new Set(forms).size).toBe(forms.length);
}

function countShapes(c: Case, body: Body, doc: GatewayDocument): void {
  if (c.spec.taxesIncluded) seen.taxIncluded++;
  if (c.spec.taxRounding === 'order') seen.orderRounding++;
  if (c.mappedRateLine) seen.mappedRate++;
  if (c.giftCardShare !== undefined) seen.twoGateways++;
  if (!c.includeGiftCards && body.line_items.some((l) => l.gift_card)) seen.giftCardLeftOut++;
  if (!c.includeTips && body.total_tip_received !== '0.00') seen.tipLeftOut++;
  if (body.line_items.some((l) => l.quantity > 100)) seen.quantityOver100++;
  if (body.line_items.some((l) => centsOf(l.price) > 1_000_000)) seen.priceOver10000++;
  if (doc.listItems.some((i) => i.priceItem === '0.00')) seen.zeroValueItem++;
  const codes = doc.listItems.map((i) => i.code);
  if (new Set(codes).size < codes.length) seen.splitLine++;
  const moved = body.line_items.some((l) => {
    const items = doc.listItems.filter((i) => i.code === l.sku);
    return items.length > 0 && items.reduce((a, i) => a + centsOf(i.valueITBMS), 0) !== shopifyLine(l).tax;
  });
  if (moved) seen.taxMovedFromShopifyLine++;
}

/** False when every line is left out by the settings (only gift cards and tips). */
function invoicesSomething(c: Case, body: Body): boolean {
  return (
    body.line_items.some((l) => !l.gift_card || c.includeGiftCards) ||
    body.shipping_lines.some((s) => shopifyLine(s).base > 0) ||
    (c.includeTips && centsOf(body.total_tip_received as string) > 0)
  );
}

/** Net value of one unit of an item, in cents. */
function unitValue(item: { priceItem: string; amount: string }): number {
  return (centsOf(item.priceItem) * 100) / centsOf(item.amount);
}

// ---------------------------------------------------------------------------------------------
// Invariant 5: an order that cannot be mapped correctly yields problems, never a document.

function checkBrokenCase(c: Case, how: Breakage, delta: number): void {
  casesRun++;
  const body = buildOrder(c.spec) as Body;
  breakOrder(body, how, delta);
  const result = mapCase({ ...c, includeGiftCards: true, includeTips: true }, body);
  if (result.ok) throw new Error(`a broken order (${how}) was mapped to a document`);
  const codes = result.problems.map((p) => p.code);
  expect(codes.some((code) => EXPECTED_CODE[how].includes(code))).toBe(true);
  for (const p of withTexts(result.problems)) {
    expect(p.message.length).toBeGreaterThan(20);
    expect(p.messageEs.length).toBeGreaterThan(20);
  }
}

// ---------------------------------------------------------------------------------------------

describe('mapper properties (docs/design.md §6)', () => {
  it(`maps ${VALID_CASES} Shopify-computed orders keeping invariants 1–4`, () => {
    fc.assert(
      fc.property(orderCase, (c) => checkValidCase(c)),
      { numRuns: VALID_CASES, seed: 20261120 },
    );
  }, 120_000);

  it(`answers ${BROKEN_CASES} broken orders with problems, never a document (invariant 5)`, () => {
    fc.assert(
      fc.property(
        orderCase,
        breakage,
        fc.integer({ min: -500, max: 500 }).filter((d) => d !== 0),
        (c, how, delta) => checkBrokenCase(c, how, delta),
      ),
      { numRuns: BROKEN_CASES, seed: 20261121 },
    );
  }, 120_000);

  afterAll(() => {
    expect(casesRun).toBeGreaterThanOrEqual(VALID_CASES + BROKEN_CASES);
    const rare = Object.entries(seen).filter(([, count]) => count < 10);
    expect(rare).toEqual([]);
  });
});

function omitKey<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}
