// Exact decimals for the arithmetic rules: strings already matched by a format regex → BigInt in 10⁻⁶ units, or cents.

export const MICRO = 1_000_000n;
export const CENT_MICRO = 10_000n;

/** "12.345" → 12345000n (10⁻⁶ units). Only called on text a format regex accepted. */
export function toMicro(text: string): bigint {
  const [whole = '0', frac = ''] = text.split('.');
  return BigInt(whole) * MICRO + BigInt(frac.padEnd(6, '0').slice(0, 6) || '0');
}

/** A non-negative or negative integer in 10^-scale units as a decimal with at least 2 decimals. */
export function formatScaled(value: bigint, scale: number): string {
  const sign = value < 0n ? '-' : '';
  const digits = abs(value)
    .toString()
    .padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits
    .slice(digits.length - scale)
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${sign}${whole}.${frac}`;
}

export function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** Whole cents of an amount a format regex accepted with 2 decimals ("60.15" → 6015). */
export function toCents(text: string): number {
  return Number(toMicro(text) / CENT_MICRO);
}

/** 6015 → "60.15". */
export function formatCents(cents: number): string {
  return formatScaled(BigInt(cents), 2);
}
