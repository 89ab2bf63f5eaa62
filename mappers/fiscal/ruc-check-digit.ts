// DGI check digits (DV) of Panamanian RUCs and cédulas.
// Algorithm of the DGI/ANIP document "DV_RUC.pdf" as implemented by apple314159/panama-dv (ruc.py),
// with the letter-prefix layouts of luiscberrocal/verification-digit-pty and
// juancorradine/Panama-RUC-DV-Calculator (they fix ruc.py's AV/PI province padding and add NT).

/** Which layout a RUC text follows; decides the 20-digit string the DV is computed over. */
export type RucForm =
  | { readonly kind: 'juridica'; readonly tomo: string; readonly folio: string; readonly asiento: string }
  | {
      readonly kind: 'natural';
      readonly letter: NaturalLetter;
      readonly province: string;
      readonly folio: string;
      readonly asiento: string;
    }
  | { readonly kind: 'nt'; readonly province: string; readonly folio: string; readonly asiento: string };

/** '' = plain cédula; E extranjero; N naturalizado; PE panameño nacido en el extranjero; AV antes de la vigencia; PI indígena. */
export type NaturalLetter = '' | 'E' | 'N' | 'PE' | 'AV' | 'PI';

// Numeric code that replaces the province for each letter, and the code used when the folio has 4 digits.
const LETTER_CODE: Readonly<Record<Exclude<NaturalLetter, ''>, { code: string; longFolio: string }>> = {
  E: { code: '5', longFolio: '66' },
  N: { code: '4', longFolio: '92' },
  PE: { code: '75', longFolio: '82' },
  AV: { code: '15', longFolio: '9595' },
  PI: { code: '79', longFolio: '9595' },
};

const NT_CODE = '43';

// Old-RUC cross reference for the two digits at positions 6–7 of the padded juridical RUC.
const OLD_RUC_CROSS_REFERENCE: Readonly<Record<string, string>> = {
  '00': '00',
  '10': '01',
  '11': '02',
  '12': '03',
  '13': '04',
  '14': '05',
  '15': '06',
  '16': '07',
  '17': '08',
  '18': '09',
  '19': '01',
  '20': '02',
  '21': '03',
  '22': '04',
  '23': '07',
  '24': '08',
  '25': '09',
  '26': '02',
  '27': '03',
  '28': '04',
  '29': '05',
  '30': '06',
  '31': '07',
  '32': '08',
  '33': '09',
  '34': '01',
  '35': '02',
  '36': '03',
  '37': '04',
  '38': '05',
  '39': '06',
  '40': '07',
  '41': '08',
  '42': '09',
  '43': '01',
  '44': '02',
  '45': '03',
  '46': '04',
  '47': '05',
  '48': '06',
  '49': '07',
};

const JURIDICA = /^(\d{3,10})-(\d{1,4})-(\d{1,7})$/;
const PLAIN_CEDULA = /^(\d{1,2})-(\d{1,4})-(\d{1,9})$/;
const LETTER_ONLY = /^(E|N|PE)-(\d{1,4})-(\d{1,9})$/;
const PROVINCE_LETTER = /^(\d{1,2})(AV|PI)-(\d{1,4})-(\d{1,8})$/;
const NT = /^(\d{1,2})-NT-(\d{1,3})-(\d{1,7})$/;

/**
 * Canonical text of a RUC or cédula: trimmed, upper case, no whitespace. Undefined when the text
 * is not one of the hyphenated forms the DV algorithm covers.
 */
export function normalizeRuc(text: string): string | undefined {
  const compact = text.trim().toUpperCase().replace(/\s+/g, '');
  return parseRuc(compact) === undefined ? undefined : compact;
}

/** Split a RUC (any spacing/case) into its layout and segments, or undefined if not recognised. */
export function parseRuc(text: string): RucForm | undefined {
  const ruc = text.trim().toUpperCase().replace(/\s+/g, '');
  let m = NT.exec(ruc);
  if (m) return isProvince(m[1]!) ? { kind: 'nt', province: m[1]!, folio: m[2]!, asiento: m[3]! } : undefined;
  m = PROVINCE_LETTER.exec(ruc);
  if (m) {
    if (!isProvince(m[1]!)) return undefined;
    return { kind: 'natural', letter: m[2] as 'AV' | 'PI', province: m[1]!, folio: m[3]!, asiento: m[4]! };
  }
  m = LETTER_ONLY.exec(ruc);
  if (m) return { kind: 'natural', letter: m[1] as 'E' | 'N' | 'PE', province: '', folio: m[2]!, asiento: m[3]! };
  m = PLAIN_CEDULA.exec(ruc);
  if (m) {
    if (!isProvince(m[1]!)) return undefined;
    return { kind: 'natural', letter: '', province: m[1]!, folio: m[2]!, asiento: m[3]! };
  }
  m = JURIDICA.exec(ruc);
  if (m) return { kind: 'juridica', tomo: m[1]!, folio: m[2]!, asiento: m[3]! };
  return undefined;
}

// 0 is "no asignada" in the DGI province table; 1–13 are the provinces and comarcas.
function isProvince(text: string): boolean {
  return Number(text) <= 13;
}

/** The two-character DV ("59", "08", "00"), or undefined when the text is not a covered RUC form. */
export function rucCheckDigit(ruc: string): string | undefined {
  const form = parseRuc(ruc);
  if (form === undefined) return undefined;
  if (form.kind === 'juridica') return juridicaDv(form);
  if (form.kind === 'nt') {
    // A seven-digit asiento only exists in the juridical NT layout.
    return twoDigits(form.asiento.length === 7 ? juridicaNtBase(form) : naturalNtBase(form), false);
  }
  return twoDigits(naturalBase(form), false);
}

/**
 * True when `dv` is the check digit of `ruc`. An NT number does not say whether its holder is a
 * natural or a juridical person and the two layouts give different digits, so either is accepted.
 */
export function isValidRucCheckDigit(ruc: string, dv: string): boolean {
  const digits = dv.trim();
  if (!/^\d{2}$/.test(digits)) return false;
  const form = parseRuc(ruc);
  if (form === undefined) return false;
  if (form.kind === 'nt') {
    const natural = form.asiento.length <= 6 && digits === twoDigits(naturalNtBase(form), false);
    return natural || digits === twoDigits(juridicaNtBase(form), false);
  }
  return digits === rucCheckDigit(ruc);
}

function juridicaDv(form: Extract<RucForm, { kind: 'juridica' }>): string {
  let base = form.tomo.padStart(10, '0') + form.folio.padStart(4, '0') + form.asiento.padStart(6, '0');
  // "Old RUC": positions 4 and 5 are 0 and position 6 is below 5 (1-based).
  const old = base[3] === '0' && base[4] === '0' && base[5]! < '5';
  if (old) {
    const pair = base.slice(5, 7);
    base = base.slice(0, 5) + (OLD_RUC_CROSS_REFERENCE[pair] ?? pair) + base.slice(7);
  }
  return twoDigits(base, old);
}

function naturalBase(form: Extract<RucForm, { kind: 'natural' }>): string {
  const { letter, province, folio, asiento } = form;
  const shortFolio = folio.length < 4;
  const asiento5 = asiento.slice(0, 5).padStart(5, '0');
  if (letter === '') return '5' + province.padStart(2, '0') + '00' + folio.padStart(3, '0') + asiento5;
  const { code, longFolio } = LETTER_CODE[letter];
  if (letter === 'AV' || letter === 'PI') {
    return shortFolio
      ? '5' + province.padStart(2, '0') + code + folio.padStart(3, '0') + asiento5
      : '5' + longFolio + folio.padStart(4, '0') + asiento5;
  }
  // E and N keep a six-digit asiento whole; every other layout uses its first five digits.
  const wholeAsiento = asiento.length === 6 && letter !== 'PE';
  const tail = wholeAsiento ? asiento : asiento5;
  if (shortFolio) return '5' + '00' + code.padEnd(2, '0') + folio.padStart(3, '0') + tail;
  // Source quirk kept on purpose: the letter code is padded only in the six-digit-asiento case.
  return '5' + longFolio + (wholeAsiento ? code.padEnd(2, '0') : code) + folio.padStart(4, '0') + tail;
}

function naturalNtBase(form: Extract<RucForm, { kind: 'nt' }>): string {
  const asiento = form.asiento.padStart(5, '0');
  return '5' + form.province.padStart(2, '0') + NT_CODE + form.folio.padStart(3, '0') + asiento;
}

function juridicaNtBase(form: Extract<RucForm, { kind: 'nt' }>): string {
  const asiento = form.asiento.length === 6 ? form.asiento : form.asiento.slice(0, 5).padStart(5, '0');
  return form.province.padStart(2, '0') + NT_CODE + form.folio.padStart(3, '0') + asiento;
}

/** DV1 over the base, DV2 over base + DV1. Leading zeros never change a weighted sum, so no left padding. */
function twoDigits(base: string, old: boolean): string {
  const dv1 = digitRoutine(base, old);
  const dv2 = digitRoutine(base + dv1, old);
  return `${dv1}${dv2}`;
}

/** Weighted mod-11 digit: weights 2, 3, … from the right; an old RUC repeats weight 11. */
export function digitRoutine(digits: string, old: boolean): number {
  let weight = 2;
  let repeatEleven = old;
  let sum = 0;
  for (let i = digits.length - 1; i >= 0; i--) {
    if (repeatEleven && weight === 12) {
      repeatEleven = false;
      weight = 11;
    }
    sum += weight * Number(digits[i]);
    weight++;
  }
  const r = sum % 11;
  return r > 1 ? 11 - r : 0;
}
