// The accountant's month over HTTP on both databases (docs/reports.md): a month made through the whole product
// (test/support/report-month-world.ts). The JSON figures, the CSV and the XLSX (read back with exceljs) agree with
// each other and with the documents the sandbox gateway authorized, to the cent; the ZIP holds exactly the month's
// PDFs, byte-identical to their links, and the CSV.
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, beforeAll } from 'vitest';
import { parseCents } from '../../../mappers/fiscal/money.ts';
import { documentPdfs } from '../../../src/db/schema.ts';
import { formatFiscalNumber } from '../../../src/documents/store/index.ts';
import type { MonthFigures } from '../../../src/reports/month-figures.ts';
import { SALES_BOOK_COLUMNS } from '../../../src/reports/sales-book.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { LAST_DAY_2330, MONTH, type MonthWorld, makeMonth } from '../../support/report-month-world.ts';
import { unzipEntries } from '../../support/zip-entries.ts';

const SHOP = 'tienda-contador.myshopify.com';
const RATE_OF: Record<string, number> = { '00': 0, '01': 7, '02': 10, '03': 15 };

interface SandboxDoc {
  cufe: string;
  environment: string;
  typeDocument: string;
  document: { listItems: { rateITBMS: string; priceItem: string; valueITBMS: string }[]; totalsSubTotals: { totalInvoice: string } };
}

const c = (text: string) => parseCents(text)!;

describe.each(testDatabases)("the accountant's month over HTTP on $name", (target) => {
  const run = harnessFor(target);
  let world: MonthWorld;

  const get = async (query: string) => {
    const token = await run.h.simulator.sessionToken(SHOP);
    return fetch(`${run.h.app.url}/api/reports/month?${query}`, { headers: { Authorization: `Bearer ${token}` } });
  };
  const json = async (query: string) => (await (await get(query)).json()) as MonthFigures;
  const bytes = async (query: string) => Buffer.from(await (await get(query)).arrayBuffer());

  beforeAll(async () => {
    await run.h.installShop(SHOP, { environment: 'produccion' });
    world = await makeMonth(run.h, run.database, SHOP, 7_700_000_001);
  }, 120_000);

  /** What the sandbox gateway authorized of the month's documents, summed as the accountant would. */
  async function expectedFromSandbox(cufes: Set<string>) {
    const res = await fetch(`${run.h.sandbox.url}/_sandbox/documents`);
    const docs = ((await res.json()) as { documents: SandboxDoc[] }).documents.filter((d) => cufes.has(d.cufe));
    expect(docs).toHaveLength(cufes.size);
    const sums = { invoices: { count: 0, base: 0, itbms: 0, total: 0 }, notes: { count: 0, base: 0, itbms: 0, total: 0 } };
    const byRate = new Map<number, { ib: number; ii: number; nb: number; ni: number }>(
      [0, 7, 10, 15].map((r) => [r, { ib: 0, ii: 0, nb: 0, ni: 0 }]),
    );
    for (const d of docs) {
      expect(d.environment).toBe('1');
      const note = d.typeDocument === '04';
      const into = note ? sums.notes : sums.invoices;
      into.count++;
      into.total += c(d.document.totalsSubTotals.totalInvoice);
      for (const item of d.document.listItems) {
        const r = byRate.get(RATE_OF[item.rateITBMS]!)!;
        if (note) {
          r.nb += c(item.priceItem);
          r.ni += c(item.valueITBMS);
        } else {
          r.ib += c(item.priceItem);
          r.ii += c(item.valueITBMS);
        }
        into.base += c(item.priceItem);
        into.itbms += c(item.valueITBMS);
      }
    }
    return { sums, byRate };
  }

  it('sums the month of production documents by rate, as the gateway authorized them', async () => {
    const figures = await json(`month=${MONTH}`);
    const { sums, byRate } = await expectedFromSandbox(new Set(world.inMonth.map((d) => d.cufe!)));
    expect(figures.environment).toBe('produccion');
    expect(figures.invoices).toEqual({
      count: 5,
      baseCents: sums.invoices.base,
      itbmsCents: sums.invoices.itbms,
      totalCents: sums.invoices.total,
    });
    expect(figures.creditNotes).toEqual({
      count: 2,
      baseCents: sums.notes.base,
      itbmsCents: sums.notes.itbms,
      totalCents: sums.notes.total,
    });
    expect(figures.net.totalCents).toBe(sums.invoices.total - sums.notes.total);
    for (const r of figures.rates) {
      const e = byRate.get(r.rate)!;
      expect(r).toEqual({
        rate: r.rate,
        invoices: { baseCents: e.ib, itbmsCents: e.ii },
        creditNotes: { baseCents: e.nb, itbmsCents: e.ni },
        net: { baseCents: e.ib - e.nb, itbmsCents: e.ii - e.ni },
      });
      // Every rate is in the month.
      expect(e.ib).toBeGreaterThan(0);
    }
    expect(figures.series.map((s) => [s.documentType, s.count])).toEqual([
      ['01', 5],
      ['04', 2],
    ]);
  });

  it('agrees with its CSV and XLSX to the cent, row by row', async () => {
    const figures = await json(`month=${MONTH}`);
    const csvRes = await get(`month=${MONTH}&format=csv`);
    expect(csvRes.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const csv = Buffer.from(await csvRes.arrayBuffer());
    expect(csv.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([...SALES_BOOK_COLUMNS]);
    expect(rows).toHaveLength(7);
    const sum = (col: string, pick: (r: Record<string, string>) => boolean = () => true) =>
      rows.filter(pick).reduce((s, r) => s + c(r[col]!), 0);
    const note = (r: Record<string, string>) => r['tipo'] === '04';
    expect(sum('total')).toBe(figures.net.totalCents);
    expect(-sum('total', note)).toBe(figures.creditNotes.totalCents);
    const rate = (n: number) => figures.rates.find((r) => r.rate === n)!;
    expect(sum('base_exenta')).toBe(rate(0).net.baseCents);
    for (const n of [7, 10, 15]) {
      expect(sum(`base_${n}`)).toBe(rate(n).net.baseCents);
      expect(sum(`itbms_${n}`)).toBe(rate(n).net.itbmsCents);
    }
    // The 23:30 invoice of the last day is dated that day; a note names its invoice.
    const last = rows.find((r) => r['cufe'] === world.lastDayInvoice.cufe)!;
    expect(last['fecha']).toBe('2025-11-30');
    expect(LAST_DAY_2330.startsWith('2025-12-01')).toBe(true);
    for (const r of rows.filter(note)) expect(r['cufe_referenciado']).toMatch(/^FE01/);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await bytes(`month=${MONTH}&format=xlsx`)) as unknown as ExcelJS.Buffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Resumen', 'Libro de ventas']);
    const sheet = book.getWorksheet('Libro de ventas')!;
    const values: string[][] = [];
    sheet.eachRow((row) => {
      const cells = SALES_BOOK_COLUMNS.map((_, i) => row.getCell(i + 1).value);
      values.push(cells.map((v) => (typeof v === 'number' ? (Math.round(v * 100) / 100).toFixed(2) : String(v ?? ''))));
    });
    expect(values[0]).toEqual([...SALES_BOOK_COLUMNS]);
    expect(values.slice(1)).toEqual(rows.map((r) => SALES_BOOK_COLUMNS.map((k) => r[k]!)));
    const summary = book.getWorksheet('Resumen')!;
    const total = summary.getRow(10).values as unknown[];
    expect(total[1]).toBe('Total');
    expect(Math.round((total[2] as number) * 100)).toBe(figures.invoices.baseCents);
    expect(Math.round((total[7] as number) * 100)).toBe(figures.net.itbmsCents);
  });

  it('zips exactly the month’s PDFs, byte-identical to their links, with the CSV', async () => {
    const entries = await unzipEntries(await bytes(`month=${MONTH}&format=zip`));
    const names = [...entries.keys()].sort();
    const expected = world.inMonth.map((d) => `${d.kind === 'credit_note' ? 'nota-de-credito' : 'factura'}-${formatFiscalNumber(d)}.pdf`);
    expect(names).toEqual([`libro-de-ventas-${MONTH}.csv`, ...expected].sort());
    for (const d of world.inMonth) {
      const [pdf] = await run.database.db.select({ token: documentPdfs.token }).from(documentPdfs).where(eq(documentPdfs.documentId, d.id));
      const linked = new Uint8Array(await (await fetch(`${run.h.app.url}/invoices/${pdf!.token}.pdf`)).arrayBuffer());
      const name = `${d.kind === 'credit_note' ? 'nota-de-credito' : 'factura'}-${formatFiscalNumber(d)}.pdf`;
      expect(Buffer.compare(entries.get(name)!, linked)).toBe(0);
    }
    expect(Buffer.compare(entries.get(`libro-de-ventas-${MONTH}.csv`)!, await bytes(`month=${MONTH}&format=csv`))).toBe(0);
  });

  it('keeps the test environment apart and the next month’s note out', async () => {
    const test = await json(`month=${MONTH}&environment=pruebas`);
    expect(test.invoices.count).toBe(1);
    expect(test.invoices.totalCents).toBe(c((world.testInvoice.document as SandboxDoc['document']).totalsSubTotals.totalInvoice));
    expect(test.creditNotes.count).toBe(0);
    const next = await json('month=2025-12');
    expect(next.creditNotes.count).toBe(1);
    expect(next.invoices.count).toBe(0);
    expect(next.series[0]).toMatchObject({ documentType: '04', count: 1, first: formatFiscalNumber(world.nextMonthNote) });
  });

  it('answers bad input clearly and an empty month with an empty book', async () => {
    for (const [query, error] of [
      ['month=2025-13', 'month: the month must be from 01 to 12'],
      ['month=11-2025', 'month: the month must be written YYYY-MM, e.g. 2026-11'],
      ['month=2999-01', 'month: 2999-01 has not begun yet (Panamá time)'],
      ['month=2025-11&environment=real', 'environment: environment must be produccion or pruebas'],
      ['month=2025-11&format=pdf', 'format: format must be one of json, csv, xlsx, zip'],
      ['', 'month: month is required (YYYY-MM)'],
    ]) {
      const res = await get(query!);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
    const before = await json('month=2020-01');
    expect(before.invoices).toEqual({ count: 0, baseCents: 0, itbmsCents: 0, totalCents: 0 });
    expect(before.series).toEqual([]);
    const unauthorized = await fetch(`${run.h.app.url}/api/reports/month?month=${MONTH}`);
    expect(unauthorized.status).toBe(401);
  });
});
