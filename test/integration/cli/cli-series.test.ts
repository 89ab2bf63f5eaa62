// `series list|set-next` in process, on both databases (docs/series.md): a series moves only forward, a refusal says
// why and changes nothing (exit 2), every move is recorded (who, when, from, to), and the list names each gap's reason.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext, CliIo } from '../../../src/cli/cli-context.ts';
import { runSeries } from '../../../src/cli/series-command.ts';
import { runShops } from '../../../src/cli/shops-command.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents, fiscalSequences, fiscalSeriesChanges, fiscalSkips } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { invoiceRow } from '../../support/documents.ts';
import { cliContextOn } from '../../support/harness-cli.ts';

const SHOP = 'tienda-series.myshopify.com';
const ROW = { shop: SHOP, currency: 'USD', totalCents: 100, snapshot: {} };
const PROD = ['--shop', SHOP, '--environment', 'produccion', '--branch', '0000', '--point', '001', '--type', '01'];

describe.each(testDatabases)('series commands on $name', (target) => {
  let database: Database;
  let ctx: CliContext;

  async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => void out.push(...l.split('\n')), err: (l) => void err.push(...l.split('\n')), stdin: async () => '' };
    // As `npm run cli -- series …` hands them on: without the group's name.
    return { code: await runSeries(args.slice(1), io, async () => ctx), out, err };
  }
  const sequences = () => database.db.select().from(fiscalSequences);
  const changes = () => database.db.select().from(fiscalSeriesChanges);

  beforeAll(async () => {
    database = await target.open();
    ctx = await cliContextOn(database, SHOP);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('a new series starts where set-next puts it; the move is recorded; the list shows where it stands', async () => {
    expect(await cli('series', 'list', '--shop', SHOP, '--json').then((r) => JSON.parse(r.out.join('\n')))).toEqual([]);
    const set = await cli('series', 'set-next', ...PROD, '--next', '1001');
    expect(set).toMatchObject({ code: 0, err: [] });
    expect(set.out[0]).toMatch(/^Series produccion 0000-001 type 01: the next number is 1001 \(it was 1\)\. Recorded as moved by cli:/);
    expect((await sequences()).map((s) => [s.environment, s.branchCode, s.billingPoint, s.documentType, s.nextNumber])).toEqual([
      ['produccion', '0000', '001', '01', 1001],
    ]);
    const [change] = await changes();
    expect(change).toMatchObject({ shop: SHOP, environment: 'produccion', kind: 'set_next', fromNext: 1, toNext: 1001 });
    expect(change!.changedBy).toMatch(/^cli(:.+)?$/);
    expect(Date.now() - change!.createdAt.getTime()).toBeLessThan(60_000);

    const listed = JSON.parse((await cli('series', 'list', '--shop', SHOP, '--json')).out.join('\n'));
    expect(listed).toEqual([
      {
        environment: 'produccion',
        branch: '0000',
        point: '001',
        type: '01',
        lastUsed: null,
        next: 1001,
        branchCode: '0000',
        billingPoint: '001',
        documentType: '01',
        nextNumber: 1001,
        gaps: [
          {
            from: 1,
            to: 1000,
            kind: 'set_next',
            by: change!.changedBy,
            at: change!.createdAt.toISOString(),
            fromNext: 1,
            toNext: 1001,
            reason: `next number moved from 1 to 1001 by ${change!.changedBy} at ${change!.createdAt.toISOString()}`,
          },
        ],
      },
    ]);
  });

  it('at or below a number used or reserved: refused with the reason, exit 2, nothing changed', async () => {
    // Documents 1001 and 1002 issued in production; a test document holds 5 in the test series.
    await database.db.insert(documents).values([
      ...[1001, 1002].map((n) =>
        invoiceRow({
          ...ROW,
          orderGid: `gid://shopify/Order/${n}`,
          orderName: `#${n}`,
          environment: 'produccion',
          branchCode: '0000',
          billingPoint: '001',
          fiscalNumber: n,
        }),
      ),
      invoiceRow({
        ...ROW,
        orderGid: 'gid://shopify/Order/5',
        orderName: '#5',
        environment: 'pruebas',
        branchCode: '0000',
        billingPoint: '001',
        fiscalNumber: 5,
      }),
    ]);
    await database.db.update(fiscalSequences).set({ nextNumber: 1003 }).where(eq(fiscalSequences.environment, 'produccion'));
    const before = { sequences: await sequences(), changes: await changes() };

    const used = await cli('series', 'set-next', ...PROD, '--next', '1002');
    expect(used).toEqual({
      code: 2,
      out: [],
      err: [
        'series set-next: refused, nothing changed: 1002 is at or below 1002, a number already used (the series continues at 1003) in series produccion 0000-001 type 01',
      ],
    });
    const below = await cli('series', 'set-next', ...PROD, '--next', '3');
    expect(below.code).toBe(2);
    expect(below.err[0]).toContain('3 is at or below 1002, a number already used');
    expect({ sequences: await sequences(), changes: await changes() }).toEqual(before);

    // Reserved but held by no document (a skip): refused too.
    await database.db.insert(fiscalSkips).values({
      shop: SHOP,
      environment: 'produccion',
      branchCode: '0000',
      billingPoint: '001',
      documentType: '01',
      number: 1003,
      reason: 'used outside the app',
    });
    await database.db.update(fiscalSequences).set({ nextNumber: 1004 }).where(eq(fiscalSequences.environment, 'produccion'));
    expect((await cli('series', 'set-next', ...PROD, '--next', '1003')).err[0]).toContain('1003 is at or below 1003');
    // The same number again: nothing to do.
    expect(await cli('series', 'set-next', ...PROD, '--next', '1004')).toMatchObject({
      code: 0,
      out: ['Series produccion 0000-001 type 01 already continues at 1004: nothing changed.'],
    });
    // The test environment's series is apart: 6 is forward there.
    expect((await cli('series', 'set-next', ...PROD.map((a) => (a === 'produccion' ? 'pruebas' : a)), '--next', '6')).code).toBe(0);

    const table = await cli('series', 'list', '--shop', SHOP);
    expect(table.code).toBe(0);
    expect(table.out.slice(0, 3)).toEqual([
      'ENVIRONMENT  BRANCH  POINT  TYPE  LAST USED  NEXT  GAPS',
      'produccion   0000    001    01    1003       1004  1001',
      'pruebas      0000    001    01    5          6     4',
    ]);
    expect(table.out.slice(3)).toEqual([
      expect.stringMatching(/^ {2}produccion 0000-001 type 01: 1–1000 next number moved from 1 to 1001 by cli/),
      '  produccion 0000-001 type 01: 1003 skipped: used outside the app',
      expect.stringMatching(/^ {2}pruebas 0000-001 type 01: 1–4 next number moved from 1 to 6 by cli/),
    ]);
  });

  it('shops configure takes locations with the other settings: printed when saved, refused naming the key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'series-settings-'));
    const file = (settings: unknown) => {
      const name = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
      fs.writeFileSync(name, JSON.stringify(settings));
      return name;
    };
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => void out.push(...l.split('\n')), err: (l) => void err.push(...l.split('\n')), stdin: async () => '' };
    const configure = (settings: unknown) => runShops(['configure', '--shop', SHOP, '--file', file(settings)], io, async () => ctx);
    expect(await configure({ locations: { '71000000001': { branchCode: '0002', billingPoint: '001' } } })).toBe(0);
    expect(out).toContain('  locations:     71000000001 → 0002, 001');
    expect(await configure({ locations: { '71000000001': { branchCode: '0002', billingPoint: '001', till: 1 } } })).toBe(2);
    expect(await configure({ locations: { 'Tienda Colón': { branchCode: '0002', billingPoint: '001' } } })).toBe(2);
    expect(err.join('\n')).toContain('locations.71000000001');
    expect((await ctx.shops.get(SHOP))!.settings.locations).toEqual({ '71000000001': { branchCode: '0002', billingPoint: '001' } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('bad arguments: exit 2 naming the option; an unknown shop: exit 1', async () => {
    const bad = async (...args: string[]) => (await cli('series', 'set-next', ...args)).err[0];
    expect(await bad(...PROD)).toContain('--next is required');
    expect(await bad(...PROD, '--next', '0')).toContain('--next must be a whole number from 1 to 9999999999');
    expect(await bad(...PROD, '--next', '12345678901')).toContain('--next must be a whole number');
    expect(await bad(...PROD.map((a) => (a === 'produccion' ? 'prod' : a)), '--next', '5')).toContain('--environment must be');
    expect(await bad(...PROD.map((a) => (a === '001' ? '000' : a)), '--next', '5')).toContain('--point must be 3 digits, not 000');
    expect(await bad(...PROD.map((a) => (a === '01' ? '99' : a)), '--next', '5')).toContain('--type must be a DGI document type');
    const unknown = await cli('series', 'list', '--shop', 'otra.myshopify.com');
    expect(unknown).toMatchObject({ code: 1, err: ['series list: shop otra.myshopify.com is not known here'] });
  });
});
