// The simulator's own money arithmetic: Shopify's decimal strings ("199.00", "12.5", "-3.10") as integer cents and
// back, and proration rounded half up to the cent as Shopify rounds refunds (docs/reference/shopify-refunds.md §1.8).
// Written apart from the app's money code on purpose: the simulator is the oracle the app's parsers are checked
// against, so it must not share their mistakes.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Cents of a decimal text; undefined when it is not a decimal or has a non-zero digit beyond the cent. */
export function centsOf(text: string): number | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m) return undefined;
  const [, sign, whole = '', fraction = ''] = m;
  if (/[1-9]/.test(fraction.slice(2))) return undefined;
  const value = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  if (!Number.isSafeInteger(value)) return undefined;
  return sign === '-' ? -value : value;
}

/** Cents of a REST money value: a decimal string, or a JSON number such as a refund line's `subtotal` (22.13). */
export function centsOfValue(value: unknown): number | undefined {
  if (typeof value === 'string') return centsOf(value);
  // A JSON number's shortest decimal text is what Shopify wrote (22.13 → "22.13").
  if (typeof value === 'number' && Number.isFinite(value) && !String(value).includes('e')) return centsOf(String(value));
  return undefined;
}

/** 1234 → "12.34", -5 → "-0.05": the REST body's two-decimal strings. */
export function decimalText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** amount × part / whole in cents, rounded half away from zero; integers only (whole > 0). */
export function prorate(amount: number, part: number, whole: number): number {
  if (!(whole > 0)) throw new RangeError('prorate over a non-positive whole');
  const scaled = Math.abs(amount) * part;
  const rounded = Math.floor((2 * scaled + whole) / (2 * whole));
  return amount < 0 ? -rounded : rounded;
}
