// The admin API's world: two configured shops with real and seeded invoices and a third installed, never configured,
// served by one app over HTTP with the worker stopped. Each test file that uses it gets its own app and database.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { documents, shops } from '../../src/db/schema.ts';
import type { DocumentStatus, ErrorKind } from '../../src/db/document-state.ts';
import { invoiceRow, legacyMessage } from './documents.ts';
import { type Harness, startHarness, waitFor } from '../../sim/harness/harness.ts';
import { makePaidOrder } from './order-factory.ts';
import type { TestDatabaseTarget } from '../../sim/harness/databases.ts';

export const A = 'tienda-admin-a.myshopify.com';
export const B = 'tienda-admin-b.myshopify.com';
export const C = 'tienda-admin-c.myshopify.com'; // installed, never configured

/** Fixed ids so rows with the same created_at have a known order (id desc). */
export const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const REJECTED_MESSAGE =
  'The gateway rejected the invoice (code 109): field "numberRUC" is required. Complete it in Settings or on the order, then retry.';

/** Shop A's invoices besides the real one; created_at in UTC (Panama is UTC−5). */
export const A_ROWS = [
  { id: id(1), orderName: '#2001', status: 'completed', createdAt: '2026-03-01T10:00:00.000001Z', fiscalNumber: 101, cufe: 'FE-A-2001' },
  {
    id: id(2),
    orderName: '#2002',
    status: 'needs_attention',
    createdAt: '2026-03-01T10:00:00.000002Z',
    fiscalNumber: 102,
    lastErrorKind: 'rejected',
    lastErrorCode: '109',
    lastErrorMessage: REJECTED_MESSAGE,
  },
  {
    id: id(3),
    orderName: '#2003',
    status: 'failed',
    createdAt: '2026-03-01T10:00:00.000002Z',
    lastErrorKind: 'unavailable',
    lastErrorMessage: 'Gave up after repeated failures.',
  },
  {
    id: id(4),
    orderName: '#2004',
    status: 'failed',
    createdAt: '2026-03-02T04:59:59Z',
    lastErrorKind: 'unavailable',
    lastErrorMessage: 'Gave up after repeated failures.',
  },
  {
    id: id(5),
    orderName: '#2005',
    status: 'skipped',
    createdAt: '2026-03-02T05:00:00Z',
    test: true,
    lastErrorMessage: 'Test order: not invoiced, because the shop sends invoices to the production environment.',
  },
  { id: id(6), orderName: '#2006', status: 'completed', createdAt: '2026-02-28T12:00:00Z', fiscalNumber: 7, cufe: 'FE-A-2006' },
  {
    id: id(7),
    orderName: '#2007',
    status: 'pending',
    createdAt: '2026-02-27T12:00:00Z',
    lastErrorKind: 'unavailable',
    lastErrorMessage: 'The gateway could not be reached (network error); the app retries automatically.',
    nextAttemptAt: '2030-01-01T00:00:00Z',
  },
] as const;

export const B_ROWS = [
  {
    id: id(101),
    orderName: '#3001',
    status: 'failed',
    createdAt: '2026-03-01T12:00:00Z',
    lastErrorKind: 'unavailable',
    lastErrorMessage: 'Gave up.',
  },
  {
    id: id(102),
    orderName: '#3002',
    status: 'needs_attention',
    createdAt: '2026-03-01T13:00:00Z',
    lastErrorKind: 'mapping',
    lastErrorMessage: 'Mapping problem.',
  },
] as const;

type Row = {
  id: string;
  orderName: string;
  status: string;
  createdAt: string;
  fiscalNumber?: number;
  cufe?: string;
  test?: boolean;
  lastErrorKind?: string;
  lastErrorCode?: string;
  lastErrorMessage?: string;
  nextAttemptAt?: string;
};

export function invoiceValues(shop: string, r: Row) {
  const orderId = 8_000_000_000_000 + Number(r.orderName.slice(1));
  return invoiceRow({
    id: r.id,
    shop,
    orderGid: `gid://shopify/Order/${orderId}`,
    orderName: r.orderName,
    status: r.status as DocumentStatus,
    step: r.status === 'completed' ? 'done' : 'send',
    totalCents: 1234,
    currency: 'USD',
    test: r.test ?? false,
    snapshot: { id: orderId },
    createdAt: new Date(r.createdAt),
    // Microseconds: a Date would drop them, so set them in SQL below.
    branchCode: r.fiscalNumber ? '0000' : null,
    billingPoint: r.fiscalNumber ? '001' : null,
    fiscalNumber: r.fiscalNumber ?? null,
    cufe: r.cufe ?? null,
    lastErrorKind: (r.lastErrorKind as ErrorKind | undefined) ?? null,
    lastErrorCode: r.lastErrorCode ?? null,
    lastError: r.lastErrorMessage ? legacyMessage(r.lastErrorMessage) : null,
    nextAttemptAt: r.nextAttemptAt ? new Date(r.nextAttemptAt) : new Date(),
  });
}

/** Registers the world's set-up in the calling describe block; its fields are read inside tests. */
export function adminApiWorld(target: TestDatabaseTarget) {
  let database: Database;
  let h: Harness;
  let realA: { id: string; orderName: string; gid: string };
  let realB: { id: string; orderName: string };

  async function call(method: string, path: string, o: { token?: string | null; body?: unknown; shop?: string } = {}) {
    const token = o.token === undefined ? await h.simulator.sessionToken(o.shop ?? A) : o.token;
    const response = await fetch(`${h.app.url}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(o.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
  }
  const ids = (body: { invoices: { id: string }[] }) => body.invoices.map((i) => i.id);
  const rowOf = async (invoiceId: string) => (await database.db.select().from(documents).where(eq(documents.id, invoiceId)))[0]!;
  const shopRow = async (shop: string) => (await database.db.select().from(shops).where(eq(shops.shop, shop)))[0]!;

  beforeAll(async () => {
    database = await target.open();
    // The worker runs only while the real orders go through, so every later state is the test's own.
    h = await startHarness({ database, env: { WORKER_ENABLED: 'false' } });
    await h.installShop(A);
    await h.installShop(B);
    h.simulator.addShop(C);
    await h.app.shops.ensureInstalled(C);

    h.app.worker.start();
    const orderA = makePaidOrder({ id: 5_910_000_000_001, shippingCents: 500 });
    const orderB = makePaidOrder({ id: 5_910_000_000_002 });
    await h.simulator.orderPaid(A, orderA, h.webhookAddress);
    await h.simulator.orderPaid(B, orderB, h.webhookAddress);
    for (const gid of ['gid://shopify/Order/5910000000001', 'gid://shopify/Order/5910000000002']) {
      await waitFor(
        async () => (await database.db.select().from(documents).where(eq(documents.orderGid, gid)))[0]?.status === 'completed',
        20_000,
        `${gid} to complete`,
      );
    }
    await h.app.worker.stop();
    const [a] = await database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/5910000000001'));
    const [b] = await database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/5910000000002'));
    realA = { id: a!.id, orderName: a!.orderName, gid: a!.orderGid };
    realB = { id: b!.id, orderName: b!.orderName };

    await database.db.insert(documents).values([...A_ROWS.map((r) => invoiceValues(A, r)), ...B_ROWS.map((r) => invoiceValues(B, r))]);
    for (const r of [...A_ROWS, ...B_ROWS]) {
      await database.db.execute(sql`update documents set created_at = ${r.createdAt}::timestamptz where id = ${r.id}`);
    }
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });
  return {
    call,
    ids,
    rowOf,
    shopRow,
    get database() {
      return database;
    },
    get h() {
      return h;
    },
    get realA() {
      return realA;
    },
    get realB() {
      return realB;
    },
  };
}
