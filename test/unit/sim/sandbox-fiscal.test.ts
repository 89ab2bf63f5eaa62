// The sandbox's own fiscal arithmetic, against the exact values of docs/reference/panama-fe.md: the RUC check digits of
// §4.1 (real CUFEs and library vectors), the CUFE of §4.2 and its check digit, Panama's time of day (§3.11).
import { describe, expect, it } from 'vitest';
import { panamaDateTime } from '../../../sim/sandbox/authorizer.ts';
import { buildCufe, luhnDigit, parseCufe } from '../../../sim/sandbox/fiscal/cufe.ts';
import { rucCheckDigit } from '../../../sim/sandbox/fiscal/ruc-check-digit.ts';
import { formatCents, toCents } from '../../../sim/sandbox/rules/decimal.ts';

describe('RUC check digit (docs/reference/panama-fe.md §4.1)', () => {
  // Every row of the reference's test-vector table, with its origin.
  const vectors: [ruc: string, dv: string, origin: string][] = [
    ['155596713-2-2015', '59', 'real HKA sample CUFE'],
    ['155646463-2-2017', '86', 'real CUFE'],
    ['2679372-1-844914', '73', 'real CUFE'],
    ['45400-2-299934', '09', 'real production CUFE (old RUC)'],
    ['138-289-35920', '04', 'real production CUFE (old RUC)'],
    ['521-136-113133', '02', 'real test CUFE (old RUC)'],
    ['637793-1-457490', '00', 'real CUFE'],
    ['25046169-3-2021', '40', 'real sandbox CUFE'],
    ['155720753-2-2022', '39', 'library vector'],
    ['8-442-445', '08', 'cédula'],
    ['PE-10-442', '50', 'panameño nacido en el extranjero'],
    ['N-45-832', '58', 'naturalizado'],
    ['E-12-342', '10', 'extranjero'],
  ];
  it.each(vectors)('%s → %s (%s)', (ruc, dv) => {
    expect(rucCheckDigit(ruc)).toEqual({ kind: 'stated', dv });
  });

  it("the gateway example's 155596713-2-2016 has DV 30, not the 59 it was sent with", () => {
    expect(rucCheckDigit('155596713-2-2016')).toEqual({ kind: 'stated', dv: '30' });
  });

  it('reads any case and surrounding spaces', () => {
    expect(rucCheckDigit('  pe-10-442 ')).toEqual({ kind: 'stated', dv: '50' });
  });

  it('leaves unjudged the natural forms whose padding the reference does not state', () => {
    for (const ruc of ['E-1234-12770', '2AV-1234-123', '8-123-123456', '8-NT-1-1234567', '11947-1-0229562']) {
      expect(rucCheckDigit(ruc), ruc).toEqual({ kind: 'unstated' });
    }
  });

  it('calls malformed what is no RUC form at all', () => {
    for (const ruc of ['ABC', '', '8-442', '8--442-445', 'X-1-1', '12345678901-1-1']) {
      expect(rucCheckDigit(ruc), ruc).toEqual({ kind: 'malformed' });
    }
  });
});

describe('CUFE (docs/reference/panama-fe.md §4.2)', () => {
  const EXAMPLE = 'FE0120000155596713-2-2015-5900012019052800055000155650121566749040';
  const FIELDS = {
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

  it("parses the reference's example into its fields", () => {
    expect(parseCufe(EXAMPLE)).toEqual(FIELDS);
  });

  it('builds the example, 66 characters, from its fields', () => {
    expect(buildCufe(FIELDS)).toBe(EXAMPLE);
    expect(EXAMPLE).toHaveLength(66);
  });

  it("check digit 0: Luhn over everything after FE with '-' counted as 5; skipping the hyphens gives 3", () => {
    const body = EXAMPLE.slice(2, -1);
    expect(luhnDigit(body)).toBe('0');
    expect(luhnDigit(body.replaceAll('-', ''))).toBe('3');
  });

  it('refuses every other check digit, a wrong length, a missing hyphen and an impossible date', () => {
    for (const digit of '123456789') expect(parseCufe(EXAMPLE.slice(0, -1) + digit), digit).toBeUndefined();
    expect(parseCufe(EXAMPLE.slice(0, -2) + '0')).toBeUndefined();
    expect(parseCufe(`XX${EXAMPLE.slice(2)}`)).toBeUndefined();
    const noHyphen = buildCufe(FIELDS).replace('2015-59', '2015059');
    expect(parseCufe(noHyphen.slice(0, -1) + luhnDigit(noHyphen.slice(2, -1)))).toBeUndefined();
    const feb30 = `FE${buildCufe({ ...FIELDS, date: '20190228' })
      .slice(2, -1)
      .replace('20190228', '20190230')}`;
    expect(parseCufe(feb30 + luhnDigit(feb30.slice(2)))).toBeUndefined();
  });

  it('builds a credit note of a natural-person issuer with its type and zero-padded cédula', () => {
    const cufe = buildCufe({ ...FIELDS, typeDocument: '04', taxpayerType: '1', ruc: '8-442-445', dv: '08', environment: '1' });
    expect(cufe.slice(0, 28)).toBe(`FE041${'0'.repeat(11)}8-442-445-08`);
    expect(parseCufe(cufe)).toEqual({ ...FIELDS, typeDocument: '04', taxpayerType: '1', ruc: '8-442-445', dv: '08', environment: '1' });
  });

  it('refuses to build with a field that does not fit its place', () => {
    expect(() => buildCufe({ ...FIELDS, fiscalNumber: '55000015' })).toThrow(RangeError);
    expect(() => buildCufe({ ...FIELDS, ruc: '123456789012-1234-12345' })).toThrow(RangeError);
  });
});

describe('Panama time and cents', () => {
  it('dates the reception at UTC−05:00, across midnight too', () => {
    expect(panamaDateTime(new Date('2026-04-10T20:00:00.900Z'))).toBe('2026-04-10T15:00:00-05:00');
    expect(panamaDateTime(new Date('2026-01-01T03:00:00Z'))).toBe('2025-12-31T22:00:00-05:00');
  });

  it('reads and writes two-decimal amounts as whole cents', () => {
    expect(toCents('60.15')).toBe(6015);
    expect(toCents('0.05')).toBe(5);
    expect(toCents('99999999999.99')).toBe(9_999_999_999_999);
    expect(formatCents(6015)).toBe('60.15');
    expect(formatCents(10)).toBe('0.10');
    expect(formatCents(-250)).toBe('-2.50');
  });
});
