// The DGI's line arithmetic in integer cents (docs/reference/panama-fe.md §5, docs/design.md §6):
//   priceItem = amount × (priceUnit − priceUnitDiscount)   exactly, two decimals
//   valueITBMS = priceItem × rate                           within ±0.01 (we keep it strictly below 0.01)
//   totalValue = priceItem + valueITBMS
// A line whose net amount does not divide by its quantity is split into two items (never fudged), and
// the tax Shopify charged is spread over the items so that its total is kept to the cent.
import { type Cents, type Fraction, cents, divFloor, divRoundHalfUp } from './money.ts';

/** What is fixed about a line: its net amount (tax added on top) or its gross amount (tax included). */
export type LinePricing = { kind: 'net'; net: Cents } | { kind: 'gross'; gross: Cents };

export interface ArithmeticLine {
  quantity: number;
  /** Unit price before discount, shown as `priceUnit` when it is not below the unit's net value. */
  listUnit: Cents;
  rate: Fraction;
  pricing: LinePricing;
  /** The tax Shopify charged on the line: kept when the rules allow, to match Shopify line by line. */
  chargedTax: Cents;
  /** Whether the line's tax counts toward the charged total; false when it is recomputed at a DGI rate. */
  pooled: boolean;
}

/** One invoice item: `amount` units of the same net unit value. */
export interface ItemAmounts {
  amount: number;
  priceUnit: Cents;
  priceUnitDiscount: Cents;
  priceItem: Cents;
  valueITBMS: Cents;
  totalValue: Cents;
}

export interface UnitGroup {
  amount: number;
  unitValue: number;
}

/**
 * `net` over `quantity` units in whole cents: every unit gets ⌊net/quantity⌋ and the remainder goes one
 * cent each to the first units. So at most two groups, higher unit value first.
 */
export function splitUnits(net: number, quantity: number): UnitGroup[] {
  const base = divFloor(net, quantity);
  const extra = net - base * quantity;
  if (extra === 0) return [{ amount: quantity, unitValue: base }];
  return [
    { amount: extra, unitValue: base + 1 },
    { amount: quantity - extra, unitValue: base },
  ];
}

/** Exact tax of a net amount as floor and remainder over the rate's denominator. */
function exactTax(net: number, rate: Fraction): { floor: number; remainder: number } {
  const product = net * rate.num;
  if (!Number.isSafeInteger(product)) throw new RangeError('amount too large for exact tax arithmetic');
  const floor = divFloor(product, rate.den);
  return { floor, remainder: product - floor * rate.den };
}

/** Lowest and highest tax the groups can carry with every item strictly within 0.01 of net × rate. */
export function taxRange(groups: UnitGroup[], rate: Fraction): { lo: number; hi: number } {
  let lo = 0;
  let hi = 0;
  for (const g of groups) {
    const t = exactTax(g.amount * g.unitValue, rate);
    lo += t.floor;
    hi += t.floor + (t.remainder > 0 ? 1 : 0);
  }
  return { lo, hi };
}

function netFor(line: ArithmeticLine, tax: number): number {
  return line.pricing.kind === 'net' ? line.pricing.net : line.pricing.gross - tax;
}

/** Every line tax (ascending) for which the line's items can satisfy the DGI rules. */
export function feasibleTaxes(line: ArithmeticLine): number[] {
  const { rate, quantity } = line;
  if (line.pricing.kind === 'net') {
    if (line.pricing.net < 0) return [];
    const { lo, hi } = taxRange(splitUnits(line.pricing.net, quantity), rate);
    return range(lo, hi);
  }
  // Tax included: net = gross − tax, so each candidate tax gives its own split; try around the ideal.
  const gross = line.pricing.gross;
  const ideal = divRoundHalfUp(gross * rate.num, rate.den + rate.num);
  const out: number[] = [];
  for (let tax = ideal - 2; tax <= ideal + 2; tax++) {
    const net = gross - tax;
    if (tax < 0 || net < 0) continue;
    const { lo, hi } = taxRange(splitUnits(net, quantity), rate);
    if (tax >= lo && tax <= hi) out.push(tax);
  }
  return out;
}

function range(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let v = lo; v <= hi; v++) out.push(v);
  return out;
}

/** The exact ideal tax of a line as a fraction: net × rate, or gross × rate / (1 + rate). */
function idealTax(line: ArithmeticLine): Fraction {
  const { num, den } = line.rate;
  return line.pricing.kind === 'net' ? { num: line.pricing.net * num, den } : { num: line.pricing.gross * num, den: den + num };
}

/** (ideal − tax) in millionths of a cent: how much the line is under-taxed at `tax`. */
function shortfall(line: ArithmeticLine, tax: number): number {
  const ideal = idealTax(line);
  return divRoundHalfUp((ideal.num - tax * ideal.den) * 1_000_000, ideal.den);
}

/** `preferred` when the rules allow it, else the allowed tax nearest to the line's ideal. */
function closest(candidates: number[], preferred: number, line: ArithmeticLine): number {
  if (candidates.includes(preferred)) return preferred;
  let best = candidates[0]!;
  for (const c of candidates) if (Math.abs(shortfall(line, c)) < Math.abs(shortfall(line, best))) best = c;
  return best;
}

/**
 * A tax for every line: pooled lines together carry exactly `pooledTarget` (what Shopify charged),
 * each line as close as possible to what Shopify charged on it; other lines get the tax nearest to
 * their ideal. Undefined when no choice satisfies the rules (a line has no feasible tax, or the target
 * is out of reach).
 */
export function planTaxes(lines: ArithmeticLine[], pooledTarget: number): number[] | undefined {
  const candidates = lines.map(feasibleTaxes);
  if (candidates.some((c) => c.length === 0)) return undefined;
  const chosen = lines.map((line, i) => {
    const ideal = idealTax(line);
    return closest(candidates[i]!, line.pooled ? line.chargedTax : divRoundHalfUp(ideal.num, ideal.den), line);
  });

  let delta = pooledTarget;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.pooled) delta -= chosen[i]!;
  if (delta === 0) return chosen;
  let room = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.pooled) continue;
    const own = candidates[i]!;
    room += delta > 0 ? own[own.length - 1]! - chosen[i]! : chosen[i]! - own[0]!;
  }
  if (Math.abs(delta) > room) return undefined;

  const step = delta > 0 ? 1 : -1;
  while (delta !== 0) {
    // Move the line whose tax is furthest from its ideal in the direction we need to go.
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.pooled) continue;
      const next = chosen[i]! + step;
      if (!candidates[i]!.includes(next)) continue;
      const score = step * shortfall(line, chosen[i]!);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best < 0) return undefined;
    chosen[best] = chosen[best]! + step;
    delta -= step;
  }
  return chosen;
}

/**
 * The invoice items of a line carrying `tax`: the units split so each item's priceItem is exact, the
 * tax spread over the items (each gets ⌊net × rate⌋, the cents left go to the items with the largest
 * fractional part). `tax` must be one of `feasibleTaxes(line)`.
 */
export function lineItems(line: ArithmeticLine, tax: number): ItemAmounts[] {
  return groupItems(splitUnits(netFor(line, tax), line.quantity), tax, line.listUnit, line.rate);
}

/** The items of unit groups carrying `tax`, spread as lineItems does; `tax` must be within taxRange(groups). */
export function groupItems(groups: UnitGroup[], tax: number, listUnit: Cents, rate: Fraction): ItemAmounts[] {
  const exact = groups.map((g) => exactTax(g.amount * g.unitValue, rate));
  const taxes = exact.map((e) => e.floor);
  let left = tax - taxes.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, remainder: e.remainder }))
    .filter((e) => e.remainder > 0)
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    taxes[i] = taxes[i]! + 1;
    left--;
  }
  if (left !== 0) throw new RangeError(`tax ${tax} is not feasible for this line`);
  return groups.map((g, i) => {
    // A unit worth nothing is a non-valued item: no price, no discount (a discount must stay below the price).
    const priceUnit = g.unitValue === 0 ? 0 : Math.max(listUnit, g.unitValue);
    const priceItem = g.amount * g.unitValue;
    const valueITBMS = taxes[i]!;
    return {
      amount: g.amount,
      priceUnit: cents(priceUnit),
      priceUnitDiscount: cents(priceUnit - g.unitValue),
      priceItem: cents(priceItem),
      valueITBMS: cents(valueITBMS),
      totalValue: cents(priceItem + valueITBMS),
    };
  });
}
