// `npm run cli -- backfill` in process, beside the harness's running app, on both databases: bad input exits 2 and
// starts nothing; the dry run's JSON is the documented shape; the run reads the orders itself and follows until the
// app's worker has settled every document; --cancel with nothing running exits 1.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '../../../mappers/fiscal/money.ts';
import { runBackfill } from '../../../src/cli/backfill-command.ts';
import type { Database } from '../../../src/db/database.ts';
import { backfills, documents } from '../../../src/db/schema.ts';
import { panamaDate } from '../../../src/reports/report-month.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { backfillOrders } from '../../support/backfill-orders.ts';
import { harnessContext } from '../../support/harness-cli.ts';

const SHOP = 'tienda-cli-retro.myshopify.com';
const DAY = 86_400_000;

describe.each(testDatabases)('backfill command on $name', (target) => {
  let database: Database;
  let h: Harness;
  const now = Date.now();
  const orders = backfillOrders(now, 20);
  const from = panamaDate(new Date(now - 40 * DAY));
  const to = panamaDate(new Date(now));

  async function cli(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const open = harnessContext(h);
    const io = {
      out: (l: string) => void out.push(l),
      err: (l: string) => void err.push(l),
      stdin: async () => '',
      admin: () => h.app.admin,
      pollMs: 100,
    };
    return { code: await runBackfill(args, io, open), out, err };
  }

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0' } });
    await h.installShop(SHOP);
    for (const o of orders) h.simulator.setOrder(SHOP, o.body);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('bad input: exit 2 naming what is wrong, nothing started', async () => {
    expect(await cli('--shop', SHOP, '--from', to, '--to', from)).toEqual({
      code: 2,
      out: [],
      err: [`backfill: The range is reversed: "from" (${to}) is after "to" (${from}).`],
    });
    expect(await cli('--shop', SHOP, '--from', '2026-02-30', '--to', to)).toMatchObject({
      code: 2,
      err: ['backfill: --from: "from" must be a day written YYYY-MM-DD, e.g. 2026-11-03.'],
    });
    expect(await cli('--shop', 'otra.myshopify.com', '--from', from, '--to', to)).toMatchObject({
      code: 2,
      err: ['backfill: --shop: The shop otra.myshopify.com has not installed the app.'],
    });
    expect(await cli('--shop', SHOP, '--from', from)).toMatchObject({ code: 2 });
    expect(await cli('--shop', SHOP, '--cancel')).toEqual({ code: 1, out: [], err: ['backfill: No backfill is running for this shop.'] });
    expect(await database.db.select().from(backfills)).toEqual([]);
  });

  it('--dry-run --json prints the documented shape', async () => {
    const run = await cli('--shop', SHOP, '--from', from, '--to', to, '--dry-run', '--json');
    expect(run.code).toBe(0);
    const usd = orders.filter((o) => o.kind !== 'refunded' && o.kind !== 'currency');
    // 20 orders: 2 refunded, 2 "invoiced" (no webhook here: to invoice), 1 in EUR, 1 at 8 %.
    expect(JSON.parse(run.out[0]!)).toEqual({
      orders: 18,
      alreadyInvoiced: 0,
      toInvoice: 16,
      cannotInvoice: [
        { order: '#12', reason: expect.stringContaining('tax rate of 8 %') as string },
        { order: '#2', reason: expect.stringContaining("The shop's currency is EUR.") as string },
      ],
      total: formatCents(usd.reduce((a, o) => a + o.totalCents, 0)),
    });
  });

  it('runs: reads, follows until settled, and prints the final JSON', async () => {
    const run = await cli('--shop', SHOP, '--from', from, '--to', to, '--json');
    expect(run.code).toBe(0);
    const final = JSON.parse(run.out[0]!) as { backfill: { status: string } };
    if (target.name === 'pglite') {
      // The embedded database serves one process: the command stops once the orders are read; the app issues them.
      expect(final).toMatchObject({ orders: 18, toInvoice: 16, backfill: { status: 'running', total: 18, read: true, ordersRead: 18 } });
      await waitFor(
        async () => (await database.db.select().from(backfills))[0]?.status === 'done' || undefined,
        20_000,
        'the app to end it',
      );
    } else {
      expect(final).toMatchObject({
        orders: 18,
        toInvoice: 16,
        backfill: { status: 'done', total: 18, done: 18, read: true, secondsLeft: 0 },
      });
      // --json: one JSON document on standard output, no progress lines.
      expect(run.err).toEqual([]);
    }
    const rows = await database.db.select().from(documents).where(eq(documents.shop, SHOP));
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(16);
    expect(rows.filter((r) => r.status === 'needs_attention')).toHaveLength(2);
  }, 30_000);
});
