import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCufe, cufeCheckDigit, parseCufe, qrUrl } from '../../../mappers/fiscal/cufe.ts';
import type { CufeParts } from '../../../mappers/fiscal/cufe.ts';
import { rucCheckDigit } from '../../../mappers/fiscal/ruc-check-digit.ts';

// HKA's sample CUFE, panama-fe.md §4.2.
const SAMPLE = 'FE0120000155596713-2-2015-5900012019052800055000155650121566749040';
const SAMPLE_PARTS: CufeParts = {
  typeDocument: '01',
  taxpayerType: '2',
  ruc: '155596713-2-2015',
  dv: '59',
  branch: '0001',
  date: '20190528',
  fiscalNumber: '0005500015',
  billingPoint: '565',
  emissionType: '01',
  environment: '2',
  securityCode: '156674904',
};

// Real CUFEs found in public DGI QR / lookup addresses (production and test).
const REAL_CUFES = [
  'FE0120000000138-289-35920-0489172020090301000861280010117979798825',
  'FE01200000045400-2-299934-0900002022050500000000389990117686690628',
  'FE012000000521-136-113133-0270062022051590000008910080125781091727',
  'FE0120000155627992-2-2016-7200252025102100000045710010319246005912',
  'FE0120000000894-57-103790-6739032022101100000001540030125728909403',
  'FE0120000155732387-2-2023-1400002024052400000000015050128219609273',
  'FE0120000155631118-2-2016-5800002025100100001813560010310796964284',
  'FE01200002679372-1-844914-7300002025051500311570140020317481978892',
  'FE0120000155646463-2-2017-8600012024032052095049600010128158741019',
];

describe('parseCufe / buildCufe on the §4.2 example', () => {
  it('parses every field', () => {
    expect(parseCufe(SAMPLE)).toEqual(SAMPLE_PARTS);
  });

  it('rebuilds the identical 66-character string with check digit 0', () => {
    const rebuilt = buildCufe(SAMPLE_PARTS);
    expect(rebuilt).toBe(SAMPLE);
    expect(rebuilt).toHaveLength(66);
    expect(cufeCheckDigit(SAMPLE.slice(2, -1))).toBe('0');
  });

  it('detects every single-character change', () => {
    for (let i = 2; i < SAMPLE.length; i++) {
      const original = SAMPLE[i]!;
      // Another digit for a digit position, a digit for a hyphen.
      const replacement = /\d/.test(original) ? String((Number(original) + 1) % 10) : '7';
      const changed = SAMPLE.slice(0, i) + replacement + SAMPLE.slice(i + 1);
      expect(parseCufe(changed), `position ${i}`).toBeUndefined();
    }
  });

  it('detects a transposition of two adjacent different digits', () => {
    // "...0012019..." → swap the "01" of the branch: 0001 → 0010
    const swapped = SAMPLE.replace('-5900012019', '-5900102019');
    expect(swapped).not.toBe(SAMPLE);
    expect(parseCufe(swapped)).toBeUndefined();
  });
});

describe('real CUFEs', () => {
  it.each(REAL_CUFES)('%s parses, rebuilds and carries a DV valid for its RUC', (cufe) => {
    const parts = parseCufe(cufe);
    expect(parts).toBeDefined();
    expect(buildCufe(parts!)).toBe(cufe);
    expect(rucCheckDigit(parts!.ruc)).toBe(parts!.dv);
  });

  it('reads the fields of a production CUFE', () => {
    expect(parseCufe('FE01200000045400-2-299934-0900002022050500000000389990117686690628')).toEqual({
      typeDocument: '01',
      taxpayerType: '2',
      ruc: '45400-2-299934',
      dv: '09',
      branch: '0000',
      date: '20220505',
      fiscalNumber: '0000000038',
      billingPoint: '999',
      emissionType: '01',
      environment: '1',
      securityCode: '768669062',
    });
  });
});

describe('cufeCheckDigit', () => {
  it('counts a hyphen as 5 (last digit of ASCII 45), not as a skipped character', () => {
    expect(cufeCheckDigit('5')).toBe(cufeCheckDigit('-'));
    expect(cufeCheckDigit('1-2')).toBe(cufeCheckDigit('152'));
    expect(cufeCheckDigit('1-2')).not.toBe(cufeCheckDigit('12'));
  });

  it('is standard Luhn on digits', () => {
    // Classic Luhn example: 7992739871 → check digit 3.
    expect(cufeCheckDigit('7992739871')).toBe('3');
    expect(cufeCheckDigit('0')).toBe('0');
  });

  it('maps letters by their ASCII code as well (E = 69 → 9)', () => {
    expect(cufeCheckDigit('E')).toBe(cufeCheckDigit('9'));
  });
});

describe('buildCufe validation', () => {
  it.each<[keyof CufeParts, string]>([
    ['typeDocument', '1'],
    ['taxpayerType', '3'],
    ['ruc', ''],
    ['ruc', '155596713-2-2015-123456'],
    ['ruc', '-2-2015'],
    ['dv', '5'],
    ['branch', '001'],
    ['date', '2019-05-28'],
    ['date', '20190230'],
    ['fiscalNumber', '5500015'],
    ['billingPoint', '56'],
    ['emissionType', '1'],
    ['environment', '0'],
    ['securityCode', '15667490'],
  ])('throws when %s is %j', (field, value) => {
    expect(() => buildCufe({ ...SAMPLE_PARTS, [field]: value })).toThrow(RangeError);
  });
});

describe('parseCufe rejections', () => {
  it.each([
    '',
    SAMPLE.slice(0, -1),
    `${SAMPLE}0`,
    SAMPLE.replace(/^FE/, 'fe'),
    SAMPLE.replace(/^FE/, 'XX'),
    // right length, but the RUC field is all zeros
    `FE012${'0'.repeat(20)}-590001201905280005500015565012156674904`,
  ])('rejects %j', (text) => {
    expect(parseCufe(text)).toBeUndefined();
  });

  it('rejects an impossible date even with a correct check digit', () => {
    const body = SAMPLE.slice(2, -1).replace('20190528', '20190231');
    const cufe = `FE${body}${cufeCheckDigit(body)}`;
    expect(cufe).toHaveLength(66);
    expect(parseCufe(cufe)).toBeUndefined();
  });
});

describe('build → parse round trip', () => {
  const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
  const rucArb = fc
    .oneof(
      fc
        .tuple(fc.integer({ min: 100, max: 9_999_999_999 }), fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 999_999 }))
        .map(([a, b, c]) => `${a}-${b}-${c}`),
      fc
        .tuple(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 99_999 }))
        .map(([p, f, a]) => `${p}-${f}-${a}`),
      fc
        .tuple(fc.constantFrom('E', 'N', 'PE'), fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 99_999 }))
        .map(([l, f, a]) => `${l}-${f}-${a}`),
    )
    .filter((ruc) => ruc.length <= 20); // the CUFE's RUC field is 20 wide
  const dateArb = fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10).replaceAll('-', ''));
  const partsArb: fc.Arbitrary<CufeParts> = fc.record({
    typeDocument: fc.constantFrom('01', '02', '03', '04', '05', '06', '07', '08', '09'),
    taxpayerType: fc.constantFrom('1' as const, '2' as const),
    ruc: rucArb,
    dv: digits(2),
    branch: digits(4),
    date: dateArb,
    fiscalNumber: digits(10),
    billingPoint: digits(3),
    emissionType: fc.constantFrom('01', '02', '03', '04'),
    environment: fc.constantFrom('1' as const, '2' as const),
    securityCode: digits(9),
  });

  it('parse(build(parts)) returns the same parts and a 66-character CUFE', () => {
    fc.assert(
      fc.property(partsArb, (parts) => {
        const cufe = buildCufe(parts);
        expect(cufe).toHaveLength(66);
        expect(parseCufe(cufe)).toEqual(parts);
      }),
      { numRuns: 500 },
    );
  });
});

describe('qrUrl', () => {
  const cufe = 'FE012000000521-136-113133-0270062022051590000008910080125781091727';
  const digest = '6DAmQE2MHCLS5sCNiivAVTFcSVz4VcVcWkrEFIpT8RY=';
  const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpQW1iIjoiMiJ9.abc_-';

  it('builds the test-environment address with iAmb 2 and percent-encoded values', () => {
    expect(qrUrl('pruebas', cufe, digest, jwt)).toBe(
      'https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR' +
        '?chFE=FE012000000521-136-113133-0270062022051590000008910080125781091727' +
        '&iAmb=2&digestValue=6DAmQE2MHCLS5sCNiivAVTFcSVz4VcVcWkrEFIpT8RY%3D' +
        '&jwt=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpQW1iIjoiMiJ9.abc_-',
    );
  });

  it('builds the production address with iAmb 1 and survives a URL parser', () => {
    const digestWithPlus = 'ZcfcKdZ+Ix9v+Z+WUqmFwb8rk6er5mMUO0F0ivJRPAg=';
    const url = qrUrl('produccion', cufe, digestWithPlus, jwt);
    expect(url.startsWith('https://dgi-fep.mef.gob.pa/Consultas/FacturasPorQR?chFE=')).toBe(true);
    const parsed = new URL(url);
    expect(parsed.host).toBe('dgi-fep.mef.gob.pa');
    expect(parsed.searchParams.get('chFE')).toBe(cufe);
    expect(parsed.searchParams.get('iAmb')).toBe('1');
    expect(parsed.searchParams.get('digestValue')).toBe(digestWithPlus);
    expect(parsed.searchParams.get('jwt')).toBe(jwt);
    expect(url).toContain('digestValue=ZcfcKdZ%2BIx9v%2BZ%2BWUqmFwb8rk6er5mMUO0F0ivJRPAg%3D');
  });
});
