// The sandbox's own RUC check digit (DV), written from the DGI rule as docs/reference/panama-fe.md §4.1 states it (the
// DGI/ANIP "DV_RUC" recipe), not from the app's code: the sandbox is the oracle the app is checked against.
//
// One digit string per RUC form, then a weighted mod-11 digit twice (DV1 over the string, DV2 over string + DV1):
// - juridical `A-B-C`: A padded to 10, B to 4, C to 6; an "old RUC" re-codes two digits and repeats weight 11;
// - natural `P-F-A` (cédula): "5" + P padded to 2 + "00" + F padded to 3 + A padded to 5;
//   prefixes replace P + "00": E → "00"+"50", N → "00"+"40", PE → "00"+"75"; `P`AV, `P`PI and `P`-NT keep
//   the province and use 15, 79 and 43 instead of "00".
// The reference states no rule for the longer natural forms (a prefixed folio of 4 digits, an asiento of 6 or more,
// "see S9 adapters [S]") nor for a juridical C of 7 digits: those are `unstated`, their DV not judged here.

export type RucDigit =
  /** The DV of a form the reference states. */
  | { kind: 'stated'; dv: string }
  /** A RUC form whose DV rule the reference leaves to a secondary source. */
  | { kind: 'unstated' }
  /** Not a RUC or cédula in any hyphenated form. */
  | { kind: 'malformed' };

const JURIDICAL = /^(\d{3,10})-(\d{1,4})-(\d{1,7})$/;
const CEDULA = /^(\d{1,2})-(\d{1,4})-(\d{1,9})$/;
const PREFIXED = /^(E|N|PE)-(\d{1,4})-(\d{1,9})$/;
const PROVINCE_CODED = /^(\d{1,2})(AV|PI)-(\d{1,4})-(\d{1,9})$/;
const NT = /^(\d{1,2})-NT-(\d{1,4})-(\d{1,9})$/;

/** What stands for the province and its "00" in a natural person's string, by prefix. */
const PREFIX_CODE: Readonly<Record<string, string>> = { E: '0050', N: '0040', PE: '0075' };
const PROVINCE_CODE: Readonly<Record<string, string>> = { AV: '15', PI: '79', NT: '43' };

/**
 * "Old RUC" cross-reference of the two digits at positions 6–7, as the ranges of the reference's table:
 * [first, last, value of first], the value growing by one along the range. Pairs outside every range stay as they are.
 */
const OLD_RUC_RANGES: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [10, 18, 1],
  [19, 22, 1],
  [23, 25, 7],
  [26, 33, 2],
  [34, 42, 1],
  [43, 49, 1],
];

/** The DV of a RUC or cédula (any case, spaces around it ignored). */
export function rucCheckDigit(ruc: string): RucDigit {
  const text = ruc.trim().toUpperCase();
  const natural = naturalString(text);
  if (natural === null) return { kind: 'unstated' };
  if (natural !== undefined) return stated(natural, false);
  const m = JURIDICAL.exec(text);
  if (!m) return { kind: 'malformed' };
  const [tomo, folio, asiento] = [m[1]!, m[2]!, m[3]!];
  if (asiento.length > 6) return { kind: 'unstated' };
  const base = tomo.padStart(10, '0') + folio.padStart(4, '0') + asiento.padStart(6, '0');
  // Positions 4 and 5 (1-based) are 0 and position 6 is below 5.
  const old = base[3] === '0' && base[4] === '0' && Number(base[5]) < 5;
  return stated(old ? base.slice(0, 5) + oldRucPair(base.slice(5, 7)) + base.slice(7) : base, old);
}

/** The natural person's string; null for a natural form the reference does not state; undefined if not natural. */
function naturalString(ruc: string): string | null | undefined {
  const tail = (folio: string, entry: string, maxFolio: number): string | null =>
    folio.length > maxFolio || entry.length > 5 ? null : folio.padStart(3, '0') + entry.padStart(5, '0');
  const join = (head: string, rest: string | null): string | null => (rest === null ? null : head + rest);
  let m = CEDULA.exec(ruc);
  // The reference's own padding, '0'·(4 − len F), shows a plain cédula's folio may have 4 digits.
  if (m) return join('5' + m[1]!.padStart(2, '0') + '00', tail(m[2]!, m[3]!, 4));
  m = PREFIXED.exec(ruc);
  if (m) return join('5' + PREFIX_CODE[m[1]!]!, tail(m[2]!, m[3]!, 3));
  m = PROVINCE_CODED.exec(ruc);
  if (m) return join('5' + m[1]!.padStart(2, '0') + PROVINCE_CODE[m[2]!]!, tail(m[3]!, m[4]!, 3));
  m = NT.exec(ruc);
  if (m) return join('5' + m[1]!.padStart(2, '0') + PROVINCE_CODE.NT!, tail(m[2]!, m[3]!, 3));
  return undefined;
}

function stated(base: string, old: boolean): RucDigit {
  const dv1 = weightedDigit(base, old);
  const dv2 = weightedDigit(base + String(dv1), old);
  return { kind: 'stated', dv: `${dv1}${dv2}` };
}

function oldRucPair(pair: string): string {
  const n = Number(pair);
  const range = OLD_RUC_RANGES.find(([first, last]) => n >= first && n <= last);
  return range === undefined ? pair : String(range[2] + n - range[0]).padStart(2, '0');
}

/** Weights 2, 3, 4, … from the right (an old RUC uses 11 twice); r = Σ mod 11; the digit is 11 − r, or 0 when r ≤ 1. */
function weightedDigit(digits: string, old: boolean): number {
  let sum = 0;
  let weight = 2;
  let elevenAgain = old;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += weight * Number(digits[i]);
    if (weight === 11 && elevenAgain) elevenAgain = false;
    else weight++;
  }
  const r = sum % 11;
  return r > 1 ? 11 - r : 0;
}
