import { describe, expect, it } from 'vitest';
import { digitRoutine, isValidRucCheckDigit, normalizeRuc, parseRuc, rucCheckDigit } from '../../../mappers/fiscal/ruc-check-digit.ts';

// Every vector of panama-fe.md §4.1 (real CUFEs and library vectors).
const REFERENCE_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ['155596713-2-2015', '59'],
  ['155646463-2-2017', '86'],
  ['2679372-1-844914', '73'],
  ['45400-2-299934', '09'],
  ['138-289-35920', '04'],
  ['521-136-113133', '02'],
  ['637793-1-457490', '00'],
  ['25046169-3-2021', '40'],
  ['155720753-2-2022', '39'],
  ['8-442-445', '08'],
  ['PE-10-442', '50'],
  ['N-45-832', '58'],
  ['E-12-342', '10'],
];

// Asserted vectors of luiscberrocal/verification-digit-pty tests/unit/calculators/test_natural.py.
const LIBRARY_VECTORS: ReadonlyArray<readonly [string, string]> = [
  // juridical, including "old" RUCs (cross-reference + doubled weight 11)
  ['61302-14-123411', '22'],
  ['1102-85-117211', '95'],
  ['11947-1027-0229562', '71'],
  ['11947-1-0229562', '42'],
  ['64296-75-357434', '00'],
  ['203141-1-17214', '60'],
  ['2588017-1-831938', '20'],
  ['1956569-1-732877', '00'],
  ['797609-1-493865', '12'],
  ['15565624-2-2017', '63'],
  // E: six-digit asiento kept whole, four-digit folio layout, long asiento truncated to five
  ['E-8-127702', '16'],
  ['E-8-127703', '05'],
  ['E-8-12770', '72'],
  ['E-1234-12770', '98'],
  ['E-123-1277012', '65'],
  ['E-1234-123456789', '26'],
  // AV / PI with province
  ['1AV-432-658', '31'],
  ['8AV-1-196', '90'],
  ['2AV-1234-12345', '26'],
  ['2AV-123-123456', '28'],
  ['4PI-234-123', '31'],
  ['13PI-1-196', '58'],
  ['8PI-23-65', '91'],
  ['2PI-123-123456', '65'],
];

// juancorradine/Panama-RUC-DV-Calculator test data (NT layouts and N/PE/cédula extras).
const NT_NATURAL_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ['8-NT-1-24', '33'],
  ['3-NT-465-45624', '03'],
  ['9-NT-2-421578', '50'],
  ['12-NT-45-2154', '17'],
];
const NT_JURIDICA_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ['8-NT-1-13656', '43'],
  ['1-NT-45-56544', '03'],
  ['11-NT-958-218210', '73'],
  ['8-NT-1-123456', '52'],
];
const OTHER_NATURAL_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ['N-19-1821', '11'],
  ['N-1234-12345', '00'],
  ['PE-123-12345', '42'],
  ['PE-842-3681', '51'],
  ['8-769-1080', '56'],
  ['5-257-218', '09'],
  ['2-7-89', '20'],
];

describe('rucCheckDigit', () => {
  it.each(REFERENCE_VECTORS)('§4.1 vector %s → %s', (ruc, dv) => {
    expect(rucCheckDigit(ruc)).toBe(dv);
    expect(isValidRucCheckDigit(ruc, dv)).toBe(true);
  });

  it('gives 30 for the gateway example 155596713-2-2016, so its documented DV 59 is wrong', () => {
    expect(rucCheckDigit('155596713-2-2016')).toBe('30');
    expect(isValidRucCheckDigit('155596713-2-2016', '59')).toBe(false);
    expect(isValidRucCheckDigit('155596713-2-2016', '30')).toBe(true);
  });

  it.each(LIBRARY_VECTORS)('library vector %s → %s', (ruc, dv) => {
    expect(rucCheckDigit(ruc)).toBe(dv);
  });

  it.each(OTHER_NATURAL_VECTORS)('natural vector %s → %s', (ruc, dv) => {
    expect(rucCheckDigit(ruc)).toBe(dv);
  });

  it.each(NT_NATURAL_VECTORS)('NT natural-person vector %s → %s', (ruc, dv) => {
    expect(rucCheckDigit(ruc)).toBe(dv);
    expect(isValidRucCheckDigit(ruc, dv)).toBe(true);
  });

  it.each(NT_JURIDICA_VECTORS)('NT juridical vector %s → %s is accepted by the validator', (ruc, dv) => {
    expect(rucCheckDigit(ruc)).not.toBe(dv); // the natural layout is the default reading
    expect(isValidRucCheckDigit(ruc, dv)).toBe(true);
  });

  it('uses the juridical NT layout for a seven-digit asiento', () => {
    expect(rucCheckDigit('11-NT-958-2182101')).toBe('82');
    expect(rucCheckDigit('8-NT-1-1234567')).toBe('49');
  });

  it('applies the old-RUC cross reference and doubled weight 11 (45400-2-299934)', () => {
    // Padded 00000454000002299934: positions 4–5 are 0 and position 6 is 4 < 5, so "45" → "03".
    expect(digitRoutine('00000034000002299934', true)).toBe(0);
    expect(digitRoutine('000000340000022999340', true)).toBe(9);
    // Read as a new RUC the same digits would give 87, not the real 09.
    expect(digitRoutine('00000454000002299934', false)).toBe(8);
    expect(digitRoutine('000004540000022999348', false)).toBe(7);
  });

  it('accepts spacing and lower case', () => {
    expect(rucCheckDigit('  pe - 10 - 442 ')).toBe('50');
    expect(rucCheckDigit('8 - 442 - 445')).toBe('08');
    expect(rucCheckDigit('8av-1-196')).toBe('90');
  });

  it.each([
    '',
    '   ',
    '155596713',
    '155596713-2',
    '155596713-2-2015-59',
    '1555967130-2-2015-1',
    '155596713--2015',
    '155596713-2-',
    '-2-2015',
    '12345678901-2-2015', // tomo longer than 10 digits
    '155596713-12345-2015', // folio longer than 4 digits
    '155596713-2-12345678', // asiento longer than 7 digits
    '14-442-445', // no province 14
    'X-12-342',
    'EE-12-342',
    'E-12345-342',
    '8XX-1-196',
    '8AV-1-123456789',
    '8-NT-1234-1',
    '8-NT-1-12345678',
    '14-NT-1-24',
    '8-442-445a',
    '8.442.445',
    '８-442-445', // full-width digit
  ])('rejects malformed %j', (text) => {
    expect(rucCheckDigit(text)).toBeUndefined();
    expect(normalizeRuc(text)).toBeUndefined();
    expect(isValidRucCheckDigit(text, '00')).toBe(false);
  });
});

describe('isValidRucCheckDigit', () => {
  it('rejects a wrong, short, long or non-numeric DV', () => {
    expect(isValidRucCheckDigit('155596713-2-2015', '58')).toBe(false);
    expect(isValidRucCheckDigit('155596713-2-2015', '95')).toBe(false);
    expect(isValidRucCheckDigit('155596713-2-2015', '5')).toBe(false);
    expect(isValidRucCheckDigit('155596713-2-2015', '590')).toBe(false);
    expect(isValidRucCheckDigit('155596713-2-2015', 'ab')).toBe(false);
    expect(isValidRucCheckDigit('155596713-2-2015', '')).toBe(false);
    expect(isValidRucCheckDigit('8-442-445', '8')).toBe(false);
  });

  it('tolerates spaces around the DV and in the RUC', () => {
    expect(isValidRucCheckDigit(' 155596713 - 2 - 2015 ', ' 59 ')).toBe(true);
  });
});

describe('normalizeRuc', () => {
  it('trims, upper-cases and removes spaces', () => {
    expect(normalizeRuc('  155596713-2-2015 ')).toBe('155596713-2-2015');
    expect(normalizeRuc('pe - 10 - 442')).toBe('PE-10-442');
    expect(normalizeRuc('8 - nt - 1 - 24')).toBe('8-NT-1-24');
    expect(normalizeRuc('4pi-234-123')).toBe('4PI-234-123');
  });

  it('keeps segment digits as written (no padding or stripping)', () => {
    expect(normalizeRuc('08-0442-00445')).toBe('08-0442-00445');
  });
});

describe('parseRuc', () => {
  it('classifies each form', () => {
    expect(parseRuc('8-442-445')).toEqual({ kind: 'natural', letter: '', province: '8', folio: '442', asiento: '445' });
    expect(parseRuc('E-12-342')).toEqual({ kind: 'natural', letter: 'E', province: '', folio: '12', asiento: '342' });
    expect(parseRuc('13PI-1-196')).toEqual({ kind: 'natural', letter: 'PI', province: '13', folio: '1', asiento: '196' });
    expect(parseRuc('8-NT-1-24')).toEqual({ kind: 'nt', province: '8', folio: '1', asiento: '24' });
    expect(parseRuc('45400-2-299934')).toEqual({ kind: 'juridica', tomo: '45400', folio: '2', asiento: '299934' });
  });
});
