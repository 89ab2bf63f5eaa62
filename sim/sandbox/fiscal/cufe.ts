// The sandbox's own CUFE (Código Único de Factura Electrónica), written from docs/reference/panama-fe.md §4.2, not from the
// app's code: the gateway makes the CUFE of what it authorizes, and reads the one a credit note references.
//
// 66 characters: "FE" + iDoc(2) + dTipoRuc(1) + the issuer's RUC left-padded with 0 to 20 + "-" + DV(2) + branch(4)
// + date YYYYMMDD(8) + number(10) + billing point(3) + emission type(2) + environment(1) + security code(9)
// + a check digit: Luhn mod 10 over everything after "FE", each non-digit counted as the last digit of its ASCII
// code ("-" is 45 → 5).

export interface CufeFields {
  typeDocument: string;
  /** dTipoRuc of the issuer: 1 natural person, 2 juridical person. */
  taxpayerType: string;
  /** The issuer's RUC as written, e.g. "155596713-2-2015". */
  ruc: string;
  dv: string;
  branch: string;
  /** YYYYMMDD. */
  date: string;
  fiscalNumber: string;
  billingPoint: string;
  emissionType: string;
  environment: string;
  securityCode: string;
}

/** Each field's place in CUFE order: its width and what it may hold. */
const LAYOUT: readonly (readonly [keyof CufeFields, number, RegExp])[] = [
  ['typeDocument', 2, /^\d{2}$/],
  ['taxpayerType', 1, /^[12]$/],
  ['ruc', 20, /^[0-9A-Z-]{20}$/],
  ['dv', 2, /^\d{2}$/],
  ['branch', 4, /^[0-9A-Za-z]{4}$/],
  ['date', 8, /^\d{8}$/],
  ['fiscalNumber', 10, /^\d{10}$/],
  ['billingPoint', 3, /^\d{3}$/],
  ['emissionType', 2, /^\d{2}$/],
  ['environment', 1, /^[12]$/],
  ['securityCode', 9, /^\d{9}$/],
];
const RUC_WIDTH = 20;

/** The CUFE of these fields. Throws on a field that does not fit its place (a sandbox bug, not a client's). */
export function buildCufe(fields: CufeFields): string {
  const padded: CufeFields = { ...fields, ruc: fields.ruc.padStart(RUC_WIDTH, '0') };
  const parts = LAYOUT.map(([name, , pattern]) => {
    if (!pattern.test(padded[name])) throw new RangeError(`CUFE field ${name} "${fields[name]}" does not fit`);
    return name === 'ruc' ? `${padded.ruc}-` : padded[name];
  });
  const body = parts.join('');
  return `FE${body}${luhnDigit(body)}`;
}

/**
 * The fields of a CUFE (the RUC without its padding), or undefined unless it is "FE" and 64 characters whose
 * places hold what they should, the "-" after the RUC, a real calendar date and the right check digit.
 */
export function parseCufe(cufe: string): CufeFields | undefined {
  if (cufe.length !== 66 || !cufe.startsWith('FE')) return undefined;
  const body = cufe.slice(2, -1);
  if (luhnDigit(body) !== cufe.slice(-1)) return undefined;
  const fields: Partial<CufeFields> = {};
  let at = 0;
  for (const [name, width, pattern] of LAYOUT) {
    const value = body.slice(at, at + width);
    if (!pattern.test(value)) return undefined;
    fields[name] = value;
    at += width;
    if (name === 'ruc') {
      if (body[at] !== '-') return undefined;
      at++;
    }
  }
  const ruc = fields.ruc!.replace(/^0+/, '');
  if (!/^[0-9A-Z]+(-[0-9A-Z]+)*$/.test(ruc) || !isCalendarDate(fields.date!)) return undefined;
  return { ...(fields as CufeFields), ruc };
}

/** Luhn mod 10: from the right, every other digit doubled starting with the last (it sits next to the check digit). */
export function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(body.length - 1 - i);
    const digit = code >= 48 && code <= 57 ? code - 48 : code % 10;
    const value = i % 2 === 0 ? digit * 2 : digit;
    sum += value > 9 ? value - 9 : value;
  }
  return String((10 - (sum % 10)) % 10);
}

function isCalendarDate(yyyymmdd: string): boolean {
  const [y, m, d] = [yyyymmdd.slice(0, 4), yyyymmdd.slice(4, 6), yyyymmdd.slice(6)].map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
