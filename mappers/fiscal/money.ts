// Money as integer cents from the moment it is read. No float ever holds an amount.

declare const centsBrand: unique symbol;
/** An amount in cents (hundredths of a balboa / dollar). Always a safe integer. */
export type Cents = number & { readonly [centsBrand]: true };

export function cents(n: number): Cents {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number of cents: ${n}`);
  return n as Cents;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;
const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const DOT = 46;

/**
 * Parse a decimal string ("12.5", "199.00", "-3.10") into cents. Returns undefined when the text
 * is not a decimal number or carries a fraction of a cent (Shopify's shop money never does).
 * Reads the characters in one pass (the regex form was a fifth of reading an order: bench/RESULTS.md).
 */
export function parseCents(text: string): Cents | undefined {
  const s = text.trim();
  const end = s.length;
  const negative = s.charCodeAt(0) === MINUS;
  let i = negative ? 1 : 0;
  const start = i;
  let whole = 0;
  for (let c = s.charCodeAt(i); c >= ZERO && c <= NINE; c = s.charCodeAt(++i)) whole = whole * 10 + (c - ZERO);
  if (i === start) return undefined;
  let hundredths = 0;
  if (i < end) {
    if (s.charCodeAt(i++) !== DOT || i === end) return undefined;
    // Cents are the first two digits; any further digit must be a zero.
    for (let k = 0; i < end; k++, i++) {
      const c = s.charCodeAt(i);
      if (c < ZERO || c > NINE) return undefined;
      if (k === 0) hundredths = (c - ZERO) * 10;
      else if (k === 1) hundredths += c - ZERO;
      else if (c !== ZERO) return undefined;
    }
  }
  const value = whole * 100 + hundredths;
  if (!Number.isSafeInteger(value)) return undefined;
  return cents(negative ? -value : value);
}

/** "1234" cents → "12.34"; the gateway's two-decimal format. */
export function formatCents(value: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const whole = Math.trunc(abs / 100);
  const frac = abs % 100;
  return `${sign}${whole}.${frac.toString().padStart(2, '0')}`;
}

/** An exact rational number, e.g. a tax rate 7/100. Denominator always positive. */
export interface Fraction {
  readonly num: number;
  readonly den: number;
}

/**
 * Exact fraction from a JSON number or decimal string as Shopify writes rates (0.07, 0.025).
 * Reads the decimal digits, never the binary float value.
 */
export function parseFraction(value: number | string): Fraction | undefined {
  if (typeof value === 'string') return decimalFraction(value.trim());
  // Orders repeat a handful of rates (0.07 on every line): their fractions are kept, a few dozen at most.
  if (numberFractions.has(value)) return numberFractions.get(value);
  const f = decimalFraction(numberToPlainString(value));
  if (numberFractions.size >= 64) numberFractions.clear();
  numberFractions.set(value, f);
  return f;
}

const numberFractions = new Map<number, Fraction | undefined>();

function decimalFraction(text: string): Fraction | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const [, sign, whole, frac = ''] = m;
  const den = 10 ** frac.length;
  const num = Number(whole) * den + (frac === '' ? 0 : Number(frac));
  if (!Number.isSafeInteger(num) || !Number.isSafeInteger(den)) return undefined;
  return reduce(sign ? -num : num, den);
}

function numberToPlainString(n: number): string {
  // Number#toString gives the shortest round-tripping decimal (0.07 → "0.07"); expand exponents.
  const s = n.toString();
  if (!s.includes('e')) return s;
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a || 1;
}

export function reduce(num: number, den: number): Fraction {
  if (den === 0) throw new RangeError('zero denominator');
  const g = gcd(num, den);
  const s = den < 0 ? -1 : 1;
  return { num: (s * num) / g, den: (s * den) / g };
}

export function addFractions(a: Fraction, b: Fraction): Fraction {
  return reduce(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function fractionEquals(a: Fraction, b: Fraction): boolean {
  return a.num * b.den === b.num * a.den;
}

/** round(num / den) with halves away from zero, in integers only. */
export function divRoundHalfUp(num: number, den: number): number {
  if (den <= 0) throw new RangeError('denominator must be positive');
  const q = Math.trunc(num / den);
  const r = num - q * den;
  if (2 * Math.abs(r) >= den) return q + Math.sign(num);
  return q;
}

/** amount × fraction, rounded half away from zero to whole cents. */
export function multiplyCents(amount: Cents, f: Fraction): Cents {
  const product = amount * f.num;
  if (!Number.isSafeInteger(product)) throw new RangeError('amount too large to multiply exactly');
  return cents(divRoundHalfUp(product, f.den));
}

export function sumCents(values: Iterable<number>): Cents {
  let total = 0;
  for (const v of values) total += v;
  return cents(total);
}

/**
 * A fraction as plain decimal text ("0.085", "0.07", "0"), for fractions whose denominator divides
 * a power of ten (every rate Shopify writes). Undefined otherwise (e.g. 1/3).
 */
export function formatFraction(f: Fraction): string | undefined {
  let scale = 1;
  let digits = 0;
  while (scale % f.den !== 0) {
    scale *= 10;
    digits++;
    if (digits > 15) return undefined;
  }
  const scaled = Math.abs(f.num) * (scale / f.den);
  if (!Number.isSafeInteger(scaled)) return undefined;
  const text = scaled.toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const frac = text.slice(text.length - digits).replace(/0+$/, '');
  return `${f.num < 0 ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Largest integer ≤ num / den (den > 0), in integers only. */
export function divFloor(num: number, den: number): number {
  if (den <= 0) throw new RangeError('denominator must be positive');
  const q = Math.trunc(num / den);
  return num - q * den < 0 ? q - 1 : q;
}
