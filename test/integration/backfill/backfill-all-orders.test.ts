// Orders older than 60 days and read_all_orders (docs/backfill.md), on both databases: the store simulator lists them
// only to a token holding the scope, like Shopify; with the scope granted (and the app's session holding it) a range
// 90 days back is listed and invoiced, without it the range is refused with needs_read_all_orders and nothing starts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { backfills, documents } from '../../../src/db/schema.ts';
import { render } from '../../../src/messages/catalogue.ts';
import { message } from '../../../src/messages/message.ts';
import { panamaDate } from '../../../src/reports/report-month.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_SCOPES, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const WITH_SCOPE = 'tienda-historia.myshopify.com';
const WITHOUT_SCOPE = 'tienda-reciente.myshopify.com';
const DAY = 86_400_000;
const BASE = 7_500_000_000_000;

/** 20 paid orders created 62 to 88 days ago, then 5 created 10 days ago. */
function pastOrders(now: number): Record<string, unknown>[] {
  return Array.from({ length: 25 }, (_, i) => {
    const created = new Date(now - (i < 20 ? 62 + Math.floor((i * 26) / 19) : 10) * DAY).toISOString();
    return { ...makePaidOrder({ id: BASE + i }), created_at: created, processed_at: created, updated_at: created };
  });
}

describe.each(testDatabases)('backfill older than 60 days on $name', (target) => {
  let database: Database;
  let h: Harness;
  const now = Date.now();
  const from = panamaDate(new Date(now - 90 * DAY));
  const to = panamaDate(new Date(now));

  async function call(shop: string, method: string, path: string, body?: unknown) {
    const token = await h.simulator.sessionToken(shop);
    const response = await fetch(`${h.app.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        'Accept-Language': 'en',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The simulator's orders(query:) as a token of `scope` sees it: the listed orders (index in pastOrders). */
  async function listAs(shop: string, scope: string): Promise<number[]> {
    const { accessToken } = h.simulator.addShop(shop, { scope });
    const response = await fetch(`${h.simulator.origin}/admin/api/2026-10/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': accessToken, 'X-Shopify-Shop-Domain': shop },
      body: JSON.stringify({ query: '{ orders(first: 100, query: "financial_status:paid") { edges { node { legacyResourceId } } } }' }),
    });
    const answer = (await response.json()) as { data: { orders: { edges: { node: { legacyResourceId: string } }[] } } };
    return answer.data.orders.edges.map((e) => Number(e.node.legacyResourceId) - BASE).sort((a, b) => a - b);
  }

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { RECONCILE_INTERVAL_MINUTES: '0' } });
    await h.installShop(WITH_SCOPE, {}, { scope: `${TEST_SCOPES},read_all_orders` });
    await h.installShop(WITHOUT_SCOPE);
    for (const shop of [WITH_SCOPE, WITHOUT_SCOPE]) for (const o of pastOrders(now)) h.simulator.setOrder(shop, o);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('the simulator lists orders older than 60 days only to a token with read_all_orders', async () => {
    const all = Array.from({ length: 25 }, (_, i) => i);
    expect(await listAs('tienda-lista-a.myshopify.com', 'read_orders')).toEqual([]);
    for (const o of pastOrders(now)) {
      h.simulator.setOrder('tienda-lista-a.myshopify.com', o);
      h.simulator.setOrder('tienda-lista-b.myshopify.com', o);
    }
    expect(await listAs('tienda-lista-a.myshopify.com', 'read_orders')).toEqual(all.slice(20));
    expect(await listAs('tienda-lista-b.myshopify.com', 'read_orders,read_all_orders')).toEqual(all);
  });

  it('without the scope a range 90 days back is refused, naming the earliest day, and nothing starts', async () => {
    const earliest = panamaDate(new Date(Date.now() - 59 * DAY));
    const error = render(message('backfill_needs_all_orders', { earliest }), 'en');
    for (const path of ['/api/backfill/dry-run', '/api/backfill'])
      expect(await call(WITHOUT_SCOPE, 'POST', path, { from, to })).toEqual({
        status: 400,
        body: { error, code: 'needs_read_all_orders', problems: expect.anything() },
      });
    expect(await database.db.select().from(backfills).where(eq(backfills.shop, WITHOUT_SCOPE))).toEqual([]);
  });

  it('with the scope granted a range 90 days back is listed and every order invoiced once', async () => {
    const dry = await call(WITH_SCOPE, 'POST', '/api/backfill/dry-run', { from, to });
    expect(dry).toMatchObject({ status: 200, body: { from, to, orders: 25, alreadyInvoiced: 0, toInvoice: 25, cannotInvoice: [] } });
    const started = await call(WITH_SCOPE, 'POST', '/api/backfill', { from, to, expected: 25 });
    expect(started).toMatchObject({ status: 202, body: { attached: false, backfill: { status: 'running', from, to } } });
    const finished = await waitFor(
      async () => {
        const b = (await call(WITH_SCOPE, 'GET', '/api/backfill')).body['backfill'] as { status: string };
        if (b.status !== 'done') await new Promise((r) => setTimeout(r, 200));
        return b.status === 'done' ? b : undefined;
      },
      60_000,
      'the backfill to end',
    );
    expect(finished).toMatchObject({ read: true, ordersRead: 25, alreadyInvoiced: 0, total: 25, done: 25, byStatus: { completed: 25 } });
    const rows = await database.db.select().from(documents).where(eq(documents.shop, WITH_SCOPE));
    expect(rows.map((r) => r.orderGid).sort()).toEqual(
      pastOrders(now)
        .map((o) => `gid://shopify/Order/${String(o['id'])}`)
        .sort(),
    );
    expect(rows.map((r) => r.fiscalNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(h.sandbox.gateway.documents().filter((d) => d.company === WITH_SCOPE)).toHaveLength(25);
  }, 90_000);
});
