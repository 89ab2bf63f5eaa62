// `reports month` in process on both databases: the figures as JSON, the CSV on standard output, XLSX and ZIP to
// files; series with their gaps and reasons; bad input refused with a message naming what is wrong (exit 2), an
// unknown shop (exit 1), and a month before the shop's first document (an empty book).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/cli-context.ts';
import { runReports } from '../../../src/cli/reports-command.ts';
import type { Database } from '../../../src/db/database.ts';
import { fiscalSkips } from '../../../src/db/schema.ts';
import type { MonthFigures } from '../../../src/reports/month-figures.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { seedDocuments } from '../../support/report-seeds.ts';
import { unzipEntries } from '../../support/zip-entries.ts';
import { cliContextOn } from '../../support/harness-cli.ts';

const SHOP = 'tienda-libro.myshopify.com';
const NOW = new Date('2026-12-02T15:00:00Z');

describe.each(testDatabases)('reports month on $name', (target) => {
  let database: Database;
  let ctx: CliContext;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-cli-'));

  async function cli(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    const code = await runReports(
      args,
      { out: (l) => void out.push(l), err: (l) => void err.push(l), stdin: async () => '', stdout, now: () => NOW },
      async () => ctx,
    );
    return { code, out, err, stdout: Buffer.concat(chunks).toString('utf8') };
  }

  beforeAll(async () => {
    database = await target.open();
    ctx = await cliContextOn(database, SHOP);
    const at = (day: number, hour = 15) => new Date(Date.UTC(2026, 10, day, hour)).toISOString();
    await seedDocuments(database.db, [
      {
        shop: SHOP,
        number: 1,
        authorizedAt: at(2),
        items: [
          ['00', 500, 0],
          ['01', 1000, 70],
        ],
        clientName: '=HYPERLINK("http://x")',
      },
      // 2 was used outside the app (a recorded skip); 3 is stuck; 4 was authorized in October.
      { shop: SHOP, number: 3, authorizedAt: null },
      { shop: SHOP, number: 4, authorizedAt: '2026-10-31T15:00:00Z' },
      {
        shop: SHOP,
        number: 5,
        authorizedAt: at(5),
        items: [
          ['02', 2000, 200],
          ['03', 300, 45],
        ],
        ruc: '155596713-2-2015',
      },
      // 6 is a test-environment invoice (the sequence is shared today); 7 has no record at all.
      { shop: SHOP, number: 6, environment: 'pruebas', authorizedAt: at(6) },
      { shop: SHOP, number: 8, authorizedAt: '2026-12-01T04:30:00Z' },
      { shop: SHOP, number: 1, type: '04', authorizedAt: at(20), items: [['01', 500, 35]], referencedCufe: 'FE01-produccion-01-1-0000' },
      // Another branch's series.
      { shop: SHOP, number: 1, branchCode: '0002', authorizedAt: at(21), items: [['00', 100, 0]] },
    ]);
    await database.db.insert(fiscalSkips).values({
      shop: SHOP,
      // Skipped in the production series (each environment has its own, docs/series.md).
      environment: 'produccion',
      branchCode: '0000',
      billingPoint: '001',
      documentType: '01',
      number: 2,
      reason: 'gateway answered 102 for a number this app had not sent: used outside the app',
    });
  });

  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the figures as JSON, with each series and its gaps and their reasons', async () => {
    const run = await cli('month', '--shop', SHOP, '--month', '2026-11');
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const f = JSON.parse(run.stdout) as MonthFigures;
    expect(f.invoices).toEqual({
      count: 4,
      baseCents: 500 + 1000 + 2000 + 300 + 1000 + 100,
      itbmsCents: 70 + 200 + 45 + 70,
      totalCents: 5285,
    });
    expect(f.creditNotes).toEqual({ count: 1, baseCents: 500, itbmsCents: 35, totalCents: 535 });
    expect(f.net).toEqual({ baseCents: 4400, itbmsCents: 350, totalCents: 4750 });
    expect(f.rates).toEqual([
      {
        rate: 0,
        invoices: { baseCents: 600, itbmsCents: 0 },
        creditNotes: { baseCents: 0, itbmsCents: 0 },
        net: { baseCents: 600, itbmsCents: 0 },
      },
      {
        rate: 7,
        invoices: { baseCents: 2000, itbmsCents: 140 },
        creditNotes: { baseCents: 500, itbmsCents: 35 },
        net: { baseCents: 1500, itbmsCents: 105 },
      },
      {
        rate: 10,
        invoices: { baseCents: 2000, itbmsCents: 200 },
        creditNotes: { baseCents: 0, itbmsCents: 0 },
        net: { baseCents: 2000, itbmsCents: 200 },
      },
      {
        rate: 15,
        invoices: { baseCents: 300, itbmsCents: 45 },
        creditNotes: { baseCents: 0, itbmsCents: 0 },
        net: { baseCents: 300, itbmsCents: 45 },
      },
    ]);
    expect(f.series).toEqual([
      {
        branchCode: '0000',
        billingPoint: '001',
        documentType: '01',
        count: 3,
        first: '0000-001-0000000001',
        last: '0000-001-0000000008',
        firstNumber: 1,
        lastNumber: 8,
        gaps: [
          {
            from: 2,
            to: 2,
            reason: { kind: 'skipped', detail: 'gateway answered 102 for a number this app had not sent: used outside the app' },
          },
          { from: 3, to: 3, reason: { kind: 'not_authorized', status: 'needs_attention' } },
          { from: 4, to: 4, reason: { kind: 'other_month', month: '2026-10' } },
          { from: 6, to: 6, reason: { kind: 'other_environment', environment: 'pruebas' } },
          { from: 7, to: 7, reason: { kind: 'unrecorded' } },
        ],
        moreGaps: false,
      },
      expect.objectContaining({ branchCode: '0000', documentType: '04', count: 1, gaps: [] }),
      expect.objectContaining({ branchCode: '0002', documentType: '01', count: 1, first: '0002-001-0000000001', gaps: [] }),
    ]);
  });

  it('writes the sales book as CSV on standard output, the 23:30 invoice on its Panamá day', async () => {
    const run = await cli('month', '--shop', SHOP, '--month', '2026-11', '--format', 'csv');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFfecha,tipo,numero,cufe,cliente_tipo,ruc,dv,cliente,base_exenta,base_7,itbms_7,base_10,itbms_10,base_15,itbms_15,total,cufe_referenciado',
    );
    expect(lines.slice(1)).toEqual([
      `2026-11-02,01,0000-001-0000000001,FE01-produccion-01-1-0000,02,,,"'=HYPERLINK(""http://x"")",5.00,10.00,0.70,0.00,0.00,0.00,0.00,15.70,`,
      '2026-11-05,01,0000-001-0000000005,FE01-produccion-01-5-0000,01,155596713-2-2015,59,Ana Pérez,0.00,0.00,0.00,20.00,2.00,3.00,0.45,25.45,',
      '2026-11-20,04,0000-001-0000000001,FE04-produccion-04-1-0000,02,,,Ana Pérez,0.00,-5.00,-0.35,0.00,0.00,0.00,0.00,-5.35,FE01-produccion-01-1-0000',
      '2026-11-21,01,0002-001-0000000001,FE01-produccion-01-1-0002,02,,,Ana Pérez,1.00,0.00,0.00,0.00,0.00,0.00,0.00,1.00,',
      '2026-11-30,01,0000-001-0000000008,FE01-produccion-01-8-0000,02,,,Ana Pérez,0.00,10.00,0.70,0.00,0.00,0.00,0.00,10.70,',
      '',
    ]);
  });

  it('writes XLSX and ZIP files with --out', async () => {
    const xlsx = path.join(dir, 'book.xlsx');
    expect((await cli('month', '--shop', SHOP, '--month', '2026-11', '--format', 'xlsx', '--out', xlsx)).code).toBe(0);
    expect(fs.readFileSync(xlsx).subarray(0, 2).toString()).toBe('PK');
    const zip = path.join(dir, 'month.zip');
    const run = await cli('month', '--shop', SHOP, '--month', '2026-11', '--format', 'zip', '--out', zip);
    expect(run.code).toBe(0);
    expect(run.err).toEqual([`wrote ${zip}`]);
    // No PDFs are stored for these rows: the ZIP holds the book alone.
    expect([...(await unzipEntries(fs.readFileSync(zip))).keys()]).toEqual(['libro-de-ventas-2026-11.csv']);
  });

  it('reports the test environment apart', async () => {
    const f = JSON.parse((await cli('month', '--shop', SHOP, '--month', '2026-11', '--environment', 'pruebas')).stdout) as MonthFigures;
    expect(f.invoices.count).toBe(1);
    expect(f.series.map((s) => s.first)).toEqual(['0000-001-0000000006']);
  });

  it('refuses bad input with exit 2, an unknown shop with exit 1, and gives an empty book before the first document', async () => {
    const usage =
      'reports month --shop <shop> --month YYYY-MM [--environment produccion|pruebas] [--format json|csv|xlsx|zip] [--out FILE]';
    for (const [args, error] of [
      [['--month', '2026-11'], `reports month: --shop is required (${usage})`],
      [['--shop', SHOP], `reports month: --month is required (${usage})`],
      [['--shop', SHOP, '--month', '2026-13'], 'reports month: --month: the month must be from 01 to 12'],
      [['--shop', SHOP, '--month', 'nov'], 'reports month: --month: the month must be written YYYY-MM, e.g. 2026-11'],
      [['--shop', SHOP, '--month', '2027-01'], 'reports month: --month: 2027-01 has not begun yet (Panamá time)'],
      [['--shop', SHOP, '--month', '2026-11', '--environment', 'prod'], 'reports month: --environment: must be produccion or pruebas'],
      [['--shop', SHOP, '--month', '2026-11', '--format', 'pdf'], 'reports month: --format: must be one of json, csv, xlsx, zip'],
    ] as const) {
      const run = await cli('month', ...args);
      expect({ code: run.code, err: run.err }).toEqual({ code: 2, err: [error] });
      expect(run.stdout).toBe('');
    }
    const unknown = await cli('month', '--shop', 'otra.myshopify.com', '--month', '2026-11');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual(['reports month: shop otra.myshopify.com is not known here (npm run cli -- shops list shows the shops)']);
    const empty = JSON.parse((await cli('month', '--shop', SHOP, '--month', '2020-01')).stdout) as MonthFigures;
    expect(empty.invoices.count).toBe(0);
    const emptyCsv = await cli('month', '--shop', SHOP, '--month', '2020-01', '--format', 'csv');
    expect(emptyCsv.stdout.split('\r\n')).toHaveLength(2);
  });
});
