import { describe, expect, it } from 'vitest';
import { documentAmounts, zeroByRate } from '../../../src/reports/document-amounts.ts';
import { MonthTally, gapReason, gapRuns } from '../../../src/reports/month-figures.ts';
import { monthBounds } from '../../../src/reports/report-month.ts';

const item = (rateITBMS: string, priceItem: string, valueITBMS: string) => ({ rateITBMS, priceItem, valueITBMS });

function stored(items: ReturnType<typeof item>[], totalInvoice: string, extra: Record<string, unknown> = {}) {
  return {
    dataTransaction: {
      typeDocument: '01',
      client: { typeClientEB: '01', numberRUC: '155596713-2-2015', digitCheckRUC: '59', businessName: 'Distribuidora' },
      ...extra,
    },
    listItems: items,
    totalsSubTotals: { totalInvoice },
  };
}

describe('what a stored document adds', () => {
  it('sums its items by ITBMS rate code and takes totalInvoice as stated', () => {
    const a = documentAmounts(
      stored(
        [
          item('01', '10.00', '0.70'),
          item('01', '5.05', '0.35'),
          item('00', '3.00', '0.00'),
          item('02', '20.00', '2.00'),
          item('03', '1.99', '0.30'),
        ],
        '43.39',
      ),
    );
    expect(a.byRate).toEqual({
      0: { baseCents: 300, itbmsCents: 0 },
      7: { baseCents: 1505, itbmsCents: 105 },
      10: { baseCents: 2000, itbmsCents: 200 },
      15: { baseCents: 199, itbmsCents: 30 },
    });
    expect(a.totalCents).toBe(4339);
    expect(a.client).toEqual({ type: '01', ruc: '155596713-2-2015', dv: '59', name: 'Distribuidora' });
    expect(a.referencedCufe).toBe('');
  });

  it("reads a credit note's referenced invoice CUFE", () => {
    const a = documentAmounts(
      stored([item('01', '1.00', '0.07')], '1.07', { listDocsFiscalReferenced: [{ cufeFEReferenced: 'FE0120000155596713' }] }),
    );
    expect(a.referencedCufe).toBe('FE0120000155596713');
  });

  it('refuses a document it cannot read rather than guess', () => {
    expect(() => documentAmounts(stored([item('07', '1.00', '0.07')], '1.07'))).toThrow('item 1 has an unknown ITBMS rate code');
    expect(() => documentAmounts(stored([item('01', '1.001', '0.07')], '1.07'))).toThrow('item 1 priceItem is not an amount');
    expect(() => documentAmounts(null)).toThrow('the stored document is missing');
  });
});

describe('the month tally', () => {
  it('nets credit notes against invoices per rate, exact to the cent', () => {
    const tally = new MonthTally();
    const inv = zeroByRate();
    inv[0] = { baseCents: 300, itbmsCents: 0 };
    inv[7] = { baseCents: 10_001, itbmsCents: 700 };
    inv[15] = { baseCents: 199, itbmsCents: 30 };
    tally.add('01', inv, 11_230);
    tally.add('01', inv, 11_230);
    const note = zeroByRate();
    note[7] = { baseCents: 1121, itbmsCents: 79 };
    tally.add('04', note, 1200);
    const f = tally.figures({ shop: 's.myshopify.com', month: monthBounds(2026, 11), environment: 'produccion' }, []);
    expect(f.invoices).toEqual({ count: 2, baseCents: 21_000, itbmsCents: 1460, totalCents: 22_460 });
    expect(f.creditNotes).toEqual({ count: 1, baseCents: 1121, itbmsCents: 79, totalCents: 1200 });
    expect(f.net).toEqual({ baseCents: 19_879, itbmsCents: 1381, totalCents: 21_260 });
    expect(f.rates.map((r) => [r.rate, r.net.baseCents, r.net.itbmsCents])).toEqual([
      [0, 600, 0],
      [7, 18_881, 1321],
      [10, 0, 0],
      [15, 398, 60],
    ]);
    expect(f.from).toBe('2026-11-01T05:00:00.000Z');
    expect(f.before).toBe('2026-12-01T05:00:00.000Z');
  });
});

describe('gaps in a series', () => {
  it('gives each missing number its most telling reason', () => {
    const facts = (o: Partial<Parameters<typeof gapReason>[0] & object>) => ({ number: 1, skipReasons: [], holders: [], ...o });
    expect(gapReason(undefined, 'produccion')).toEqual({ kind: 'unrecorded' });
    expect(gapReason(facts({ skipReasons: ['used outside the app'] }), 'produccion')).toEqual({
      kind: 'skipped',
      detail: 'used outside the app',
    });
    expect(
      gapReason(facts({ holders: [{ status: 'completed', environment: 'produccion', authorizedMonth: '2026-12' }] }), 'produccion'),
    ).toEqual({
      kind: 'other_month',
      month: '2026-12',
    });
    expect(
      gapReason(facts({ holders: [{ status: 'completed', environment: 'pruebas', authorizedMonth: '2026-11' }] }), 'produccion'),
    ).toEqual({
      kind: 'other_environment',
      environment: 'pruebas',
    });
    expect(
      gapReason(facts({ holders: [{ status: 'needs_attention', environment: 'produccion', authorizedMonth: null }] }), 'produccion'),
    ).toEqual({
      kind: 'not_authorized',
      status: 'needs_attention',
    });
  });

  it('joins consecutive numbers with one reason into a run', () => {
    const skip = { number: 0, skipReasons: ['used outside the app'], holders: [] };
    const facts = new Map([4, 5, 9].map((n) => [n, { ...skip, number: n }]));
    expect(gapRuns([9, 4, 5, 6], facts, 'produccion')).toEqual([
      { from: 4, to: 5, reason: { kind: 'skipped', detail: 'used outside the app' } },
      { from: 6, to: 6, reason: { kind: 'unrecorded' } },
      { from: 9, to: 9, reason: { kind: 'skipped', detail: 'used outside the app' } },
    ]);
  });
});
