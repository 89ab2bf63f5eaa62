// The reconciliation sweep: a paid order whose orders/paid never arrived is found through Admin GraphQL,
// read through Admin GraphQL and invoiced — once, whatever comes after (another sweep, the late webhook).
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { gatewayCalls, documents, reconcileSweeps, shops, webhookDeliveries } from '../../../src/db/schema.ts';
import { IntakeBatcher } from '../../../src/documents/intake-batcher.ts';
import { runSweepOnce, type SweepDeps, sweepSearchQuery } from '../../../src/documents/reconcile-sweep.ts';
import { silentLogger } from '../../../src/logger.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-barrido.myshopify.com';
const HOUR = 3_600_000;

/** A paid order (2 × 24.50 at 7 % + 18.00 exempt = 70.43) created and last updated at the given ages. */
function paidOrder(id: number, ages: { createdHoursAgo: number; updatedHoursAgo?: number }): Record<string, unknown> {
  const created = new Date(Date.now() - ages.createdHoursAgo * HOUR).toISOString();
  const updated = new Date(Date.now() - (ages.updatedHoursAgo ?? ages.createdHoursAgo) * HOUR).toISOString();
  return { ...makePaidOrder({ id }), created_at: created, processed_at: created, updated_at: updated };
}

const gidOf = (id: number) => `gid://shopify/Order/${id}`;

describe('sweep helpers', () => {
  it('asks Shopify for paid orders updated since the window start, quoted, without milliseconds', () => {
    expect(sweepSearchQuery(new Date('2026-11-19T21:52:38.123Z'))).toBe("financial_status:paid updated_at:>='2026-11-19T21:52:38Z'");
  });
});

describe.each(testDatabases)('reconciliation sweep on $name', (target) => {
  let database: Database;
  let h: Harness;

  const invoicesOf = (id: number) =>
    database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, gidOf(id))));
  /** The order read through Admin GraphQL for invoicing (the confirmation asks with withCompany; the read does not). */
  const isOrderRead = (c: { operation: string; variables: Record<string, unknown> }) =>
    c.operation === 'order' && !('withCompany' in c.variables);
  const restReads = (id: number) => h.simulator.calls().filter((c) => isOrderRead(c) && c.variables['id'] === gidOf(id));
  const completed = (id: number) =>
    waitFor(
      async () => {
        const [row] = await invoicesOf(id);
        return row?.status === 'completed' ? row : undefined;
      },
      20_000,
      `order ${id} to be invoiced`,
    );

  beforeAll(async () => {
    database = await target.open();
    // No timer: the test runs each sweep itself.
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0' } });
    await h.installShop(SHOP);
    // The app has been installed for a month: orders of the last days are its business.
    await database.db
      .update(shops)
      .set({ installedAt: sql`now() - interval '30 days'` })
      .where(eq(shops.shop, SHOP));
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('invoices a paid order whose webhook was dropped, and writes the invoice back to Shopify', async () => {
    const id = 6_100_000_000_001;
    h.simulator.setOrder(SHOP, paidOrder(id, { createdHoursAgo: 1 })); // registered, no webhook sent
    h.simulator.resetLogs();

    const summary = await h.app.sweep.runOnce();
    expect(summary.shops).toEqual([{ shop: SHOP, outcome: 'swept', listed: 1, missing: 1, enqueued: 1, duplicates: 0, skipped: 0 }]);
    expect(summary.enqueued).toBe(1);
    expect(summary.failedShops).toBe(0);

    const invoice = await completed(id);
    expect(invoice).toMatchObject({ step: 'done', totalCents: 7043, currency: 'USD', fiscalNumber: 1, orderName: '#1' });
    const issued = h.sandbox.gateway.documents();
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ cufe: invoice.cufe, numberDocumentFiscal: '0000000001', totalInvoice: '70.43' });
    const fields = Object.fromEntries(h.simulator.metafields(gidOf(id), SHOP).map((m) => [m.key, m.value]));
    expect(fields['cufe']).toBe(invoice.cufe);
    expect(fields['fiscal_number']).toBe('0000-001-0000000001');

    // Through Shopify: one listing, one REST read of the order, over the Admin API version of the app.
    const calls = h.simulator.calls();
    expect(calls.filter((c) => c.operation === 'orders').map((c) => c.status)).toEqual([200]);
    expect(restReads(id).map((c) => [c.shop, c.status])).toEqual([[SHOP, 200]]);
    const listing = calls.find((c) => c.operation === 'orders')!;
    expect(listing.variables['first']).toBe(100);
    expect(String(listing.variables['query'])).toMatch(/^financial_status:paid updated_at:>='\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'$/);

    // On record like a delivery, marked as the sweep's.
    const deliveries = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.orderGid, gidOf(id)));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ topic: 'orders/paid', outcome: 'stored', shop: SHOP, eventId: null });
    expect(deliveries[0]!.webhookId).toMatch(/^sweep-[0-9a-f-]{36}$/);

    // The snapshot is the REST order as Shopify sent it.
    expect((invoice.snapshot as { id: number }).id).toBe(id);

    const [lease] = await database.db.select().from(reconcileSweeps).where(eq(reconcileSweeps.shop, SHOP));
    expect(lease).toMatchObject({ leaseOwner: null, leaseUntil: null, lastEnqueued: 1, lastError: null });
    expect(lease!.lastFinishedAt).toBeInstanceOf(Date);
  });

  it('a second sweep and the late webhook leave one invoice and one SendDocument', async () => {
    const id = 6_100_000_000_001;
    h.simulator.resetLogs();
    const again = await h.app.sweep.runOnce();
    expect(again.shops[0]).toMatchObject({ outcome: 'swept', listed: 1, missing: 0, enqueued: 0 });
    expect(restReads(id)).toEqual([]);

    // Shopify finally delivers the webhook it had dropped.
    const late = await h.simulator.sendWebhook({
      address: h.webhookAddress,
      topic: 'orders/paid',
      shop: SHOP,
      payload: paidOrder(id, { createdHoursAgo: 1 }),
    });
    expect(late.status).toBe(200);
    expect(JSON.parse(late.body)).toEqual({ outcome: 'duplicate' });

    await new Promise((r) => setTimeout(r, 300)); // give a wrongly enqueued job time to be sent
    const rows = await invoicesOf(id);
    expect(rows).toHaveLength(1);
    const sends = (await database.db.select().from(gatewayCalls).where(eq(gatewayCalls.documentId, rows[0]!.id))).filter(
      (c) => c.operation === 'SendDocument',
    );
    expect(sends).toHaveLength(1);
    expect(h.sandbox.gateway.stats().requests.SendDocument).toBe(1);
    const deliveries = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.orderGid, gidOf(id)));
    expect(deliveries.map((d) => d.outcome).sort()).toEqual(['duplicate', 'stored']);
  });

  it('leaves alone orders outside the window and orders created before the app was installed; takes late payments', async () => {
    const old = 6_100_000_000_002; // paid three days ago: outside the 48 h window
    const beforeInstall = 6_100_000_000_003; // created 40 days ago, edited an hour ago
    const paidLate = 6_100_000_000_004; // created 3 days ago, paid (updated) 2 hours ago
    h.simulator.setOrder(SHOP, paidOrder(old, { createdHoursAgo: 72 }));
    h.simulator.setOrder(SHOP, paidOrder(beforeInstall, { createdHoursAgo: 40 * 24, updatedHoursAgo: 1 }));
    h.simulator.setOrder(SHOP, paidOrder(paidLate, { createdHoursAgo: 72, updatedHoursAgo: 2 }));
    h.simulator.resetLogs();

    const summary = await h.app.sweep.runOnce();
    // Listed: the first test's order, the one created before install and the late payment; not the old one.
    expect(summary.shops[0]).toMatchObject({ outcome: 'swept', listed: 3, missing: 1, enqueued: 1 });
    expect(restReads(old)).toEqual([]);
    expect(restReads(beforeInstall)).toEqual([]);
    expect(restReads(paidLate)).toHaveLength(1);
    expect(await invoicesOf(old)).toEqual([]);
    expect(await invoicesOf(beforeInstall)).toEqual([]);
    expect((await completed(paidLate)).totalCents).toBe(7043);
  });

  it('does not refetch an order that already has an invoice (webhook delivered)', async () => {
    const id = 6_100_000_000_005;
    const delivered = await h.simulator.orderPaid(SHOP, paidOrder(id, { createdHoursAgo: 0.5 }), h.webhookAddress);
    expect(JSON.parse(delivered.body)).toEqual({ outcome: 'stored' });
    h.simulator.resetLogs();

    const summary = await h.app.sweep.runOnce();
    expect(summary.shops[0]).toMatchObject({ outcome: 'swept', listed: 4, missing: 0, enqueued: 0 });
    expect(h.simulator.calls().filter(isOrderRead)).toEqual([]);
    expect(await invoicesOf(id)).toHaveLength(1);
    await completed(id);
  });

  it('respects the intake: an order refused while invoicing was off is not invoiced by the sweep', async () => {
    const id = 6_100_000_000_006;
    expect(await h.app.shops.setEnabled(SHOP, false)).toEqual({ ok: true });
    const refused = await h.simulator.orderPaid(SHOP, paidOrder(id, { createdHoursAgo: 0.2 }), h.webhookAddress);
    expect(JSON.parse(refused.body)).toEqual({ outcome: 'shop_not_enabled' });
    expect(await h.app.shops.setEnabled(SHOP, true)).toEqual({ ok: true });
    h.simulator.resetLogs();

    const summary = await h.app.sweep.runOnce();
    expect(summary.shops[0]).toMatchObject({ outcome: 'swept', listed: 5, missing: 0, enqueued: 0 });
    expect(restReads(id)).toEqual([]);
    expect(await invoicesOf(id)).toEqual([]);
  });

  it('one sweep per shop at a time across processes, and not again within the interval', async () => {
    const id = 6_100_000_000_007;
    h.simulator.setOrder(SHOP, paidOrder(id, { createdHoursAgo: 0.1 }));
    // Two "processes": own lease owners, own intake, the same database and Shopify.
    const deps = (owner: string): SweepDeps => ({
      db: database.db,
      admin: h.app.admin,
      intake: new IntakeBatcher(database.db),
      windowHours: 48,
      logger: silentLogger,
      owner,
    });
    const [a, b] = await Promise.all([runSweepOnce(deps(`a-${randomBytes(2).toString('hex')}`)), runSweepOnce(deps('b'))]);
    const outcomes = [a.shops[0]!.outcome, b.shops[0]!.outcome].sort();
    expect(outcomes).toEqual(['busy', 'swept']);
    expect(a.enqueued + b.enqueued).toBe(1);
    expect(await invoicesOf(id)).toHaveLength(1);

    // Right after a sweep, a timer-driven run (minimum interval) skips the shop.
    const gated = await runSweepOnce(deps('c'), { minIntervalMs: 60_000 });
    expect(gated.shops).toEqual([{ shop: SHOP, outcome: 'busy', listed: 0, missing: 0, enqueued: 0, duplicates: 0, skipped: 0 }]);

    // In one process, a sweep asked for while one runs is that same sweep.
    const first = h.app.sweep.runOnce();
    expect(h.app.sweep.runOnce()).toBe(first);
    await first;
    await completed(id);
  });

  it('counts its runs and enqueues in /metrics', async () => {
    const text = await (await fetch(`${h.app.url}/metrics`)).text();
    // Runs through the app's sweeper: five tests above, the concurrent pair ran outside it.
    expect(text).toContain('\nfe_sweep_runs_total 6\n');
    expect(text).toContain('\nfe_sweep_enqueued_total 2\n');
  });
});
