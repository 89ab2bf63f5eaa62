// The backfill over HTTP on both databases (issue 30): 500 past orders in the store simulator. The dry run's counts,
// total and reasons are exact; the run issues each invoiceable order once while the same orders' webhooks arrive,
// live orders go first, the documents carry the date of sending; bad input starts nothing.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '../../../mappers/fiscal/money.ts';
import type { Database } from '../../../src/db/database.ts';
import { backfills, documents, gatewayCalls } from '../../../src/db/schema.ts';
import { render } from '../../../src/messages/catalogue.ts';
import { message } from '../../../src/messages/message.ts';
import { panamaDate } from '../../../src/reports/report-month.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { type BackfillOrder, backfillOrders, gidOf } from '../../support/backfill-orders.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-retroactiva.myshopify.com';
/** Shopify's listing order: oldest first. */
const byCreation = (list: BackfillOrder[]) =>
  [...list].sort((a, b) => Date.parse(String(a.body['created_at'])) - Date.parse(String(b.body['created_at'])) || a.id - b.id);
const DAY = 86_400_000;

describe.each(testDatabases)('backfill over HTTP on $name', (target) => {
  let database: Database;
  let h: Harness;
  const now = Date.now();
  const orders = backfillOrders(now);
  const from = panamaDate(new Date(now - 40 * DAY));
  const to = panamaDate(new Date(now));
  const of = (...kinds: BackfillOrder['kind'][]) => orders.filter((o) => kinds.includes(o.kind));

  async function call(method: string, path: string, body?: unknown, language = 'en') {
    const token = await h.simulator.sessionToken(SHOP);
    const response = await fetch(`${h.app.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        'Accept-Language': language,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0', WORKER_CONCURRENCY: '32', GATEWAY_CONCURRENCY: '16' } });
    await h.installShop(SHOP);
    for (const o of orders) h.simulator.setOrder(SHOP, o.body);
    // Outside the range: 50 days ago.
    h.simulator.setOrder(SHOP, { ...makePaidOrder({ id: 7_399_000_000_001 }), created_at: new Date(now - 50 * DAY).toISOString() });
    // The invoiced ones: their webhooks came when they were paid.
    for (const o of of('invoiced')) {
      const sent = await h.simulator.sendWebhook({ address: h.webhookAddress, topic: 'orders/paid', shop: SHOP, payload: o.body });
      expect(sent.status).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('refuses bad input clearly, in the reader language, and starts nothing', async () => {
    const today = panamaDate(new Date());
    const tomorrow = panamaDate(new Date(Date.now() + DAY));
    const cases: [unknown, number, string][] = [
      [{ from: '2026-13-01', to: to }, 400, render(message('backfill_day_format', { field: 'from' }), 'en')],
      [{ from, to: tomorrow }, 400, render(message('backfill_future', { field: 'to', day: tomorrow, today }), 'en')],
      [{ from: to, to: from }, 400, render(message('backfill_reversed', { from: to, to: from }), 'en')],
    ];
    for (const [body, status, error] of cases) {
      expect(await call('POST', '/api/backfill/dry-run', body)).toMatchObject({ status, body: { error } });
      expect(await call('POST', '/api/backfill', body)).toMatchObject({ status, body: { error } });
    }
    // More than a year; and older than 60 days without read_all_orders (Spanish for the page).
    const long = await call('POST', '/api/backfill', { from: panamaDate(new Date(now - 400 * DAY)), to }, 'es');
    expect(long.status).toBe(400);
    expect(long.body['error']).toBe(render(message('backfill_too_long', { days: 401, max: 366 }), 'es'));
    const old = await call('POST', '/api/backfill', { from: panamaDate(new Date(now - 90 * DAY)), to });
    expect(old).toMatchObject({ status: 400, body: { code: 'needs_read_all_orders' } });
    expect(await database.db.select().from(backfills)).toEqual([]);
  });

  it('the dry run counts, sums and explains exactly, and writes nothing', async () => {
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(documents);
    const paid = of('invoice', 'invoiced', 'currency', 'tax_rate');
    const dry = await call('POST', '/api/backfill/dry-run', { from, to });
    expect(dry.status).toBe(200);
    const usd = paid.filter((o) => o.kind !== 'currency');
    expect(dry.body).toEqual({
      from,
      to,
      orders: 450,
      alreadyInvoiced: 50,
      toInvoice: 350,
      cannotInvoice: byCreation(of('currency', 'tax_rate')).map((o) => ({
        order: `#${o.id % 100000}`,
        reason: o.kind === 'currency' ? render(message('unsupported_currency', { currency: 'EUR' }), 'en') : expect.stringContaining('8'),
      })),
      total: formatCents(usd.reduce((a, o) => a + o.totalCents, 0)),
    });
    expect(await database.db.select({ n: sql<number>`count(*)::int` }).from(documents)).toEqual(before);
  });

  it('issues each order once while its webhook also arrives, dated when sent, and ends done', async () => {
    const startedAt = Date.now();
    const started = await call('POST', '/api/backfill', { from, to, expected: 400 });
    expect(started).toMatchObject({ status: 202, body: { attached: false, backfill: { status: 'running', from, to, total: 400 } } });
    // The same range again attaches; another range is refused while it runs.
    expect(await call('POST', '/api/backfill', { from, to })).toMatchObject({ status: 200, body: { attached: true } });
    expect(await call('POST', '/api/backfill', { from: to, to })).toMatchObject({ status: 409, body: { code: 'backfill_running' } });

    // Meanwhile Shopify delivers the webhooks of 100 of the same orders (late deliveries, retries).
    const live = of('invoice').slice(0, 100);
    const deliveries = await Promise.all(
      live.map((o) => h.simulator.sendWebhook({ address: h.webhookAddress, topic: 'orders/paid', shop: SHOP, payload: o.body })),
    );
    expect(deliveries.every((d) => d.status === 200)).toBe(true);

    const finished = await waitFor(
      async () => {
        const p = await call('GET', '/api/backfill');
        const b = p.body['backfill'] as { status: string };
        await new Promise((r) => setTimeout(r, 250));
        return b.status === 'done' ? b : undefined;
      },
      110_000,
      'the backfill to end',
    );
    const invoiceable = of('invoice', 'invoiced');
    const rows = await database.db.select().from(documents).where(eq(documents.shop, SHOP));
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((r) => r.orderGid)).size).toBe(450);
    expect(
      rows
        .filter((r) => r.status === 'completed')
        .map((r) => r.orderGid)
        .sort(),
    ).toEqual(invoiceable.map((o) => gidOf(o.id)).sort());
    expect(
      rows
        .filter((r) => r.status === 'needs_attention')
        .map((r) => r.orderGid)
        .sort(),
    ).toEqual(
      of('currency', 'tax_rate')
        .map((o) => gidOf(o.id))
        .sort(),
    );
    const backfilled = rows.filter((r) => r.backfillId !== null);
    expect(finished).toMatchObject({ read: true, ordersRead: 450, total: backfilled.length, done: backfilled.length, secondsLeft: 0 });
    expect(backfilled.length).toBeGreaterThanOrEqual(350 - 100 + 50);
    // One SendDocument per invoice, numbers 1…400 with no gap.
    const sends = await database.db
      .select()
      .from(gatewayCalls)
      .where(and(eq(gatewayCalls.shop, SHOP), eq(gatewayCalls.operation, 'SendDocument')));
    expect(sends).toHaveLength(400);
    expect(h.sandbox.gateway.documents()).toHaveLength(400);
    expect(
      rows
        .map((r) => r.fiscalNumber)
        .filter((n) => n !== null)
        .sort((a, b) => a! - b!),
    ).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // Dated when sent: today in Panama, never the order's day.
    for (const r of backfilled.filter((d) => d.status === 'completed')) {
      const broadcast = Date.parse((r.document as { dataTransaction: { dateBroadcast: string } }).dataTransaction.dateBroadcast);
      expect(broadcast).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) * 1000);
      expect(broadcast).toBeLessThanOrEqual(Date.now());
    }
    const [row] = await database.db.select().from(backfills).where(isNotNull(backfills.finishedAt));
    expect(row).toMatchObject({ status: 'done', leaseOwner: null, readDone: true, ordersRead: 450 });
  }, 120_000);
});
