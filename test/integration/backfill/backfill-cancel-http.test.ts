// Cancelling a backfill over HTTP on both databases: 120 past paid orders, the gateway slowed so the backfill is
// mid-run. The cancel removes exactly the backfill's documents that held no fiscal number and never reached the
// gateway (what is left is numbered or sent, and left + removed is every order), the backfill ends `cancelled`, the
// numbered ones go on to completion, and a new backfill of the same range enqueues exactly the removed orders again.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { backfills, documents } from '../../../src/db/schema.ts';
import { panamaDate } from '../../../src/reports/report-month.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { backfillOrders, gidOf } from '../../support/backfill-orders.ts';

const SHOP = 'tienda-cancela.myshopify.com';
const DAY = 86_400_000;

interface Progress {
  id: string;
  status: string;
  read: boolean;
  ordersRead: number;
  alreadyInvoiced: number;
  total: number;
  done: number;
}

describe.each(testDatabases)('cancelling a backfill over HTTP on $name', (target) => {
  let database: Database;
  let h: Harness;
  const now = Date.now();
  // Only orders that can be invoiced, none invoiced yet: every one of them is the backfill's.
  const orders = backfillOrders(now, 150).filter((o) => o.kind === 'invoice' || o.kind === 'invoiced');
  const all = orders.map((o) => gidOf(o.id)).sort();
  const from = panamaDate(new Date(now - 40 * DAY));
  const to = panamaDate(new Date(now));

  async function call(method: string, path: string, body?: unknown) {
    const token = await h.simulator.sessionToken(SHOP);
    const response = await fetch(`${h.app.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const progress = async () => (await call('GET', '/api/backfill')).body['backfill'] as Progress;
  const shopDocuments = () => database.db.select().from(documents).where(eq(documents.shop, SHOP));

  beforeAll(async () => {
    database = await target.open();
    // Two at a time against a gateway that takes 600 ms: about three documents a second.
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0', WORKER_CONCURRENCY: '2', GATEWAY_CONCURRENCY: '2' } });
    await h.installShop(SHOP);
    for (const o of orders) h.simulator.setOrder(SHOP, o.body);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('removes exactly the unnumbered, unsent documents; the rest go on; a new backfill enqueues the removed again', async () => {
    expect(orders).toHaveLength(120);
    h.sandbox.gateway.setFaults({ latencyMs: 600 });
    const started = await call('POST', '/api/backfill', { from, to, expected: 120 });
    expect(started).toMatchObject({ status: 202, body: { backfill: { status: 'running', total: 120 } } });
    const id = (started.body['backfill'] as Progress).id;
    // Mid-run: every order read, a few settled, most still waiting their turn.
    const mid = await waitFor(
      async () => {
        const p = await progress();
        await new Promise((r) => setTimeout(r, 100));
        return p.read && p.done >= 3 ? p : undefined;
      },
      60_000,
      'the backfill to be mid-run',
    );
    expect(mid).toMatchObject({ status: 'running', ordersRead: 120, total: 120 });
    expect(mid.done).toBeLessThan(60);

    const cancelled = await call('POST', '/api/backfill/cancel', {});
    expect(cancelled.status).toBe(200);
    const removed = cancelled.body['removed'] as number;
    expect(cancelled.body['backfill']).toMatchObject({ id, status: 'cancelled' });

    // What is left is exactly what held a number or may have reached the gateway; left + removed = every order.
    const left = await shopDocuments();
    expect(left.every((d) => d.backfillId === id)).toBe(true);
    expect(left.every((d) => d.fiscalNumber !== null || d.sendMayHaveReached)).toBe(true);
    expect(left.length).toBeGreaterThanOrEqual(mid.done);
    expect(removed).toBe(120 - left.length);
    expect(removed).toBeGreaterThan(0);
    const removedOrders = all.filter((gid) => !left.some((d) => d.orderGid === gid));
    expect(removedOrders).toHaveLength(removed);
    expect(await progress()).toMatchObject({ id, status: 'cancelled' });
    expect(await call('POST', '/api/backfill/cancel', {})).toMatchObject({ status: 409, body: { code: 'no_backfill' } });

    // The numbered ones go on to completion, numbers 1…n with no gap; nothing else reached the gateway.
    h.sandbox.gateway.setFaults({});
    const settled = await waitFor(
      async () => {
        const rows = await shopDocuments();
        await new Promise((r) => setTimeout(r, 200));
        return rows.every((d) => d.status === 'completed') ? rows : undefined;
      },
      60_000,
      'the numbered documents to complete',
    );
    expect(settled.map((d) => d.orderGid).sort()).toEqual(left.map((d) => d.orderGid).sort());
    expect(settled.map((d) => d.fiscalNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: left.length }, (_, i) => i + 1));
    expect(h.sandbox.gateway.documents()).toHaveLength(left.length);
    expect(await progress()).toMatchObject({ id, status: 'cancelled', total: left.length, done: left.length });

    // The same range again: exactly the removed orders are enqueued, each issued once.
    const again = await call('POST', '/api/backfill', { from, to, expected: removed });
    expect(again).toMatchObject({ status: 202, body: { attached: false, backfill: { status: 'running' } } });
    const second = (again.body['backfill'] as Progress).id;
    expect(second).not.toBe(id);
    const finished = await waitFor(
      async () => {
        const p = await progress();
        await new Promise((r) => setTimeout(r, 250));
        return p.status === 'done' ? p : undefined;
      },
      90_000,
      'the second backfill to end',
    );
    expect(finished).toMatchObject({ id: second, ordersRead: 120, alreadyInvoiced: left.length, total: removed, done: removed });
    const rows = await shopDocuments();
    expect(rows).toHaveLength(120);
    expect(
      rows
        .filter((d) => d.backfillId === second)
        .map((d) => d.orderGid)
        .sort(),
    ).toEqual(removedOrders);
    expect(rows.every((d) => d.status === 'completed')).toBe(true);
    expect(rows.map((d) => d.fiscalNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(h.sandbox.gateway.documents()).toHaveLength(120);
    const states = await database.db.select({ id: backfills.id, status: backfills.status }).from(backfills);
    expect(states.sort((a, b) => (a.id === id ? -1 : b.id === id ? 1 : 0))).toEqual([
      { id, status: 'cancelled' },
      { id: second, status: 'done' },
    ]);
  }, 240_000);
});
