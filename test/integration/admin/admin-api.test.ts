// The admin API over real HTTP: session tokens (401 without, forged, expired), shop isolation (shop A's
// token never reads or changes shop B), list filters, search and keyset paging to the exact row,
// idempotent retries, settings validation, "test connection", and the admin page shell.
import { eq, sql } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeCredentials } from '../../../src/admin/admin-api.ts';
import { mountAdmin } from '../../../src/admin/admin-routes.ts';
import { testGatewayConnection } from '../../../src/admin/connection-test.ts';
import { decodeCursor, encodeCursor, parseSearch } from '../../../src/admin/list-params.ts';
import { orderAdminUrl } from '../../../src/admin/document-view.ts';
import { mintSessionToken, shopFromClaims } from '../../../src/admin/session-token.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents, shops } from '../../../src/db/schema.ts';
import { silentLogger } from '../../../src/logger.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from '../../../sim/sandbox/sandbox-gateway.ts';
import type { DocumentStatus, ErrorKind } from '../../../src/db/document-state.ts';
import { invoiceRow, legacyMessage } from '../../support/documents.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_KEY, TEST_API_SECRET, freePort, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const A = 'tienda-admin-a.myshopify.com';
const B = 'tienda-admin-b.myshopify.com';
const C = 'tienda-admin-c.myshopify.com'; // installed, never configured

/** Fixed ids so rows with the same created_at have a known order (id desc). */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const REJECTED_MESSAGE =
  'The gateway rejected the invoice (code 109): field "numberRUC" is required. Complete it in Settings or on the order, then retry.';

/** Shop A's invoices besides the real one; created_at in UTC (Panama is UTC−5). */
const A_ROWS = [
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

const B_ROWS = [
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

function invoiceValues(shop: string, r: Row) {
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

describe.each(testDatabases)('admin API on $name', (target) => {
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

  // ── session tokens ────────────────────────────────────────────────────────────

  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/api/shop'],
    ['PUT', '/api/settings', { environment: 'pruebas' }],
    ['POST', '/api/settings/test-connection', {}],
    ['POST', '/api/shop/enabled', { enabled: false }],
    ['GET', '/api/invoices'],
    ['GET', '/api/invoices/counts'],
    ['GET', `/api/invoices/${id(1)}`],
    ['POST', `/api/invoices/${id(2)}/retry`],
    ['POST', '/api/invoices/retry', { statuses: ['failed'] }],
  ];

  it('answers 401 on every route without a token, with a forged, expired, foreign or shop-less one, and changes nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = (await mintSessionToken({ shop: A, apiKey: TEST_API_KEY, apiSecret: 'not-the-app-secret', ttlSeconds: 60 })).token;
    const expired = (
      await mintSessionToken({
        shop: A,
        apiKey: TEST_API_KEY,
        apiSecret: TEST_API_SECRET,
        ttlSeconds: 60,
        now: new Date((now - 600) * 1000),
      })
    ).token;
    const otherApp = (await mintSessionToken({ shop: A, apiKey: 'another-app', apiSecret: TEST_API_SECRET, ttlSeconds: 60 })).token;
    const before = (await database.db.select().from(documents)).map((r) => [r.id, r.status, r.updatedAt.getTime()]);
    const versions = [(await shopRow(A)).settingsVersion, (await shopRow(A)).enabled];
    for (const [method, path, body] of ROUTES) {
      for (const token of [null, 'not-a-jwt', forged, expired, otherApp]) {
        const r = await call(method, path, { token, body });
        expect(r.status, `${method} ${path} with ${token ? token.slice(0, 12) : 'no token'}`).toBe(401);
        expect(r.body.error).toMatch(/session token/);
        expect(r.text).not.toContain(token ?? '@@none@@');
      }
    }
    expect((await database.db.select().from(documents)).map((r) => [r.id, r.status, r.updatedAt.getTime()])).toEqual(before);
    expect([(await shopRow(A)).settingsVersion, (await shopRow(A)).enabled]).toEqual(versions);
  });

  it('accepts App Bridge tokens (the simulator signs them like Shopify) and the dev route token', async () => {
    expect((await call('GET', '/api/shop')).body.shop).toBe(A);
    const dev = await fetch(`${h.app.url}/admin/dev-session-token?shop=${B}`);
    expect(dev.status).toBe(200);
    const { token } = (await dev.json()) as { token: string };
    expect((await call('GET', '/api/shop', { token })).body.shop).toBe(B);
    expect((await fetch(`${h.app.url}/admin/dev-session-token?shop=nope.myshopify.com`)).status).toBe(404);
    expect((await fetch(`${h.app.url}/admin/dev-session-token?shop=evil.example.com`)).status).toBe(400);
  });

  it('reads dest and iss: both must name the same shop', () => {
    const sanitize = (s: string) => (/\.myshopify\.com$/.test(s) ? s : null);
    expect(shopFromClaims({ dest: `https://${A}`, iss: `https://${A}/admin` }, sanitize)).toBe(A);
    expect(shopFromClaims({ dest: `https://${B}`, iss: `https://${A}/admin` }, sanitize)).toBeUndefined();
    expect(shopFromClaims({ dest: 'https://evil.example.com', iss: 'https://evil.example.com/admin' }, sanitize)).toBeUndefined();
    expect(shopFromClaims({ iss: `https://${A}/admin` }, sanitize)).toBeUndefined();
  });

  // ── list, search, paging ──────────────────────────────────────────────────────

  const ALL_A = () => [realA.id, id(5), id(4), id(3), id(2), id(1), id(6), id(7)];

  it('lists the shop’s invoices newest first, paged by cursor without skipping or repeating rows of the same millisecond', async () => {
    const first = await call('GET', '/api/invoices');
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(ALL_A());
    expect(first.body.nextCursor).toBeNull();

    for (const limit of [1, 3, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { body: { invoices: { id: string }[]; nextCursor: string | null } } = await call(
          'GET',
          `/api/invoices?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.body.invoices.length).toBeLessThanOrEqual(limit);
        seen.push(...ids(page.body));
        cursor = page.body.nextCursor;
        pages++;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(ALL_A());
      expect(pages).toBe(Math.ceil(8 / limit));
    }
  });

  it('shows each invoice with its amount, fiscal number and, when not authorized, the reason in plain words', async () => {
    const { body } = await call('GET', '/api/invoices');
    const byId = new Map(body.invoices.map((i: { id: string }) => [i.id, i]));
    expect(byId.get(realA.id)).toMatchObject({
      orderName: realA.orderName,
      status: 'completed',
      authorized: true,
      totalCents: 7578,
      amount: '75.78',
      currency: 'USD',
      fiscalNumber: '0000-001-0000000001',
      environment: 'pruebas',
      reason: null,
    });
    expect(byId.get(id(2))).toMatchObject({
      status: 'needs_attention',
      fiscalNumber: '0000-001-0000000102',
      authorized: false,
      reason: { kind: 'rejected', code: '109', message: REJECTED_MESSAGE, problems: [] },
    });
    expect(byId.get(id(5))).toMatchObject({
      status: 'skipped',
      test: true,
      reason: { kind: 'skipped', code: null, message: A_ROWS[4].lastErrorMessage },
    });
    expect(byId.get(id(7))).toMatchObject({ status: 'pending', reason: { kind: 'unavailable', code: null } });
    expect(byId.get(id(6))).toMatchObject({
      fiscalNumber: '0000-001-0000000007',
      cufe: 'FE-A-2006',
      reason: null,
      createdAt: '2026-02-28T12:00:00.000Z',
    });
  });

  it('filters by status and by Panama calendar day, exactly', async () => {
    expect(ids((await call('GET', '/api/invoices?status=failed')).body)).toEqual([id(4), id(3)]);
    expect(ids((await call('GET', '/api/invoices?status=needs_attention')).body)).toEqual([id(2)]);
    expect(ids((await call('GET', '/api/invoices?status=completed')).body)).toEqual([realA.id, id(1), id(6)]);
    // 2026-03-02T04:59:59Z is still March 1 in Panama; 05:00Z is March 2.
    expect(ids((await call('GET', '/api/invoices?from=2026-03-01&to=2026-03-01')).body)).toEqual([id(4), id(3), id(2), id(1)]);
    expect(ids((await call('GET', '/api/invoices?from=2026-03-02&to=2026-03-02')).body)).toEqual([id(5)]);
    expect(ids((await call('GET', '/api/invoices?to=2026-02-28')).body)).toEqual([id(6), id(7)]);
    expect(ids((await call('GET', '/api/invoices?status=failed&from=2026-03-01&to=2026-03-01&limit=1')).body)).toEqual([id(4)]);
  });

  it('searches by order name or fiscal number, never across shops', async () => {
    expect(ids((await call('GET', '/api/invoices?q=2003')).body)).toEqual([id(3)]);
    expect(ids((await call('GET', `/api/invoices?q=${encodeURIComponent('#2003')}`)).body)).toEqual([id(3)]);
    expect(ids((await call('GET', '/api/invoices?q=0000-001-0000000007')).body)).toEqual([id(6)]);
    expect(ids((await call('GET', '/api/invoices?q=7')).body)).toEqual([id(6)]);
    expect(ids((await call('GET', '/api/invoices?q=101')).body)).toEqual([id(1)]);
    expect(ids((await call('GET', `/api/invoices?q=${encodeURIComponent(realA.orderName)}`)).body)).toEqual([realA.id]);
    expect(ids((await call('GET', '/api/invoices?q=3001')).body)).toEqual([]);
    expect(ids((await call('GET', '/api/invoices?q=nothing-like-this')).body)).toEqual([]);
  });

  it('names the field of bad list parameters (400)', async () => {
    const cases: [string, string][] = [
      ['status=bogus', 'status'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['cursor=garbage', 'cursor'],
      ['status=failed&status=completed', 'status'],
    ];
    for (const [query, field] of cases) {
      const r = await call('GET', `/api/invoices?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('counts per status, for the token’s shop only', async () => {
    expect((await call('GET', '/api/invoices/counts')).body.counts).toEqual({
      all: 8,
      pending: 1,
      waiting: 0,
      needs_attention: 1,
      failed: 2,
      completed: 3,
      skipped: 1,
    });
    expect((await call('GET', '/api/invoices/counts', { shop: B })).body.counts).toEqual({
      all: 3,
      pending: 0,
      waiting: 0,
      needs_attention: 1,
      failed: 1,
      completed: 1,
      skipped: 0,
    });
  });

  // ── detail ────────────────────────────────────────────────────────────────────

  it('shows one invoice: the document sent, each gateway call without secrets, the PDF, the QR and the order link', async () => {
    const r = await call('GET', `/api/invoices/${realA.id}`);
    expect(r.status).toBe(200);
    const inv = r.body.invoice;
    expect(inv).toMatchObject({
      id: realA.id,
      status: 'completed',
      step: 'done',
      fiscalNumber: '0000-001-0000000001',
      amount: '75.78',
      retryable: false,
    });
    expect(inv.document.totalsSubTotals.totalInvoice).toBe('75.78');
    expect(inv.document.dataTransaction.numberDocumentFiscal).toBe('0000000001');
    expect(inv.qr).toMatch(/^https:\/\/dgi-fep-test\.mef\.gob\.pa:40001\/Consultas\/FacturasPorQR\?chFE=FE01/);
    expect(inv.cufe).toHaveLength(66);
    expect(inv.orderAdminUrl).toBe('https://admin.shopify.com/store/tienda-admin-a/orders/5910000000001');
    expect(inv.calls.map((c: { operation: string; code: string }) => [c.operation, c.code])).toEqual([
      ['SendDocument', '200'],
      ['DownloadPDF', '200'],
    ]);
    expect(inv.calls[0].request.Token).toBe('[redacted]');
    expect(inv.calls[0].request.GW_Token).toBe('[redacted]');
    for (const secret of [
      DEFAULT_SANDBOX_CREDENTIALS.Token,
      DEFAULT_SANDBOX_CREDENTIALS.GW_Token,
      DEFAULT_SANDBOX_AUTH_TOKEN,
      TEST_API_SECRET,
    ]) {
      expect(r.text).not.toContain(secret);
    }

    expect(inv.pdfUrl).toMatch(new RegExp(`^${h.app.url}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
    const pdf = await fetch(inv.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('answers 400 for an id that is not a UUID and 404 for one that does not exist', async () => {
    expect((await call('GET', '/api/invoices/not-an-id')).status).toBe(400);
    expect((await call('GET', '/api/invoices/not-an-id')).body.error).toMatch(/^id: /);
    expect((await call('GET', `/api/invoices/${id(999)}`)).status).toBe(404);
    expect((await call('POST', `/api/invoices/${id(999)}/retry`)).status).toBe(404);
  });

  // ── shop isolation ────────────────────────────────────────────────────────────

  it('never lets shop A’s token read or change shop B’s invoices, whatever ids or parameters it sends', async () => {
    const bIds = [realB.id, ...B_ROWS.map((r) => r.id)];
    const before = await Promise.all(bIds.map(rowOf));
    for (const bId of bIds) {
      const read = await call('GET', `/api/invoices/${bId}`);
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ error: 'invoice not found' });
      const retry = await call('POST', `/api/invoices/${bId}/retry`);
      expect(retry.status).toBe(404);
      // A shop in the body is not a way in: the body may name only the route's fields.
      const named = await call('POST', `/api/invoices/${bId}/retry`, { body: { shop: B } });
      expect([named.status, named.body.error]).toEqual([400, 'unknown field: shop (known: none)']);
    }
    // Nor is a shop parameter in the query.
    expect(ids((await call('GET', `/api/invoices?shop=${B}`)).body)).toEqual(ALL_A());
    expect(ids((await call('GET', `/api/invoices?q=${encodeURIComponent(realB.orderName)}&shop=${B}`)).body)).toEqual(
      realB.orderName === realA.orderName ? [realA.id] : [],
    );
    expect((await call('GET', `/api/shop?shop=${B}`)).body.shop).toBe(A);
    expect((await call('GET', `/api/invoices/counts?shop=${B}`)).body.counts.all).toBe(8);
    const after = await Promise.all(bIds.map(rowOf));
    expect(after.map((r) => [r.status, r.attempts, r.updatedAt.getTime()])).toEqual(
      before.map((r) => [r.status, r.attempts, r.updatedAt.getTime()]),
    );
  });

  it('changes only the token’s shop settings and switch', async () => {
    const b = await shopRow(B);
    const shopView = (await call('GET', '/api/shop')).body;
    const named = await call('PUT', '/api/settings', { body: { ...shopView.settings, shop: B, branchCode: '0002' } });
    expect([named.status, named.body.problems]).toEqual([400, [{ path: 'shop', message: 'is not a field of this request' }]]);
    const put = await call('PUT', '/api/settings', { body: { ...shopView.settings, branchCode: '0002' } });
    expect(put.status).toBe(200);
    expect(put.body.shop).toBe(A);
    expect(put.body.settings.branchCode).toBe('0002');
    expect((await shopRow(B)).settingsVersion).toBe(b.settingsVersion);
    expect((await h.app.shops.get(B))!.settings.branchCode).toBe('0000');

    expect((await call('POST', '/api/shop/enabled', { body: { enabled: false, shop: B } })).status).toBe(400);
    const off = await call('POST', '/api/shop/enabled', { body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    expect((await shopRow(B)).enabled).toBe(true);
    expect((await call('POST', '/api/shop/enabled', { body: { enabled: true } })).body.enabled).toBe(true);
    // Back to the original numbering for the tests below.
    expect((await call('PUT', '/api/settings', { body: { ...shopView.settings } })).status).toBe(200);
  });

  // ── retry ─────────────────────────────────────────────────────────────────────

  it('retries one invoice idempotently: the first call requeues it, the second changes nothing', async () => {
    const first = await call('POST', `/api/invoices/${id(2)}/retry`);
    expect(first.status).toBe(200);
    expect(first.body.retried).toBe(1);
    expect(first.body.invoice).toMatchObject({ id: id(2), status: 'pending', attempts: 0 });
    const updated = (await rowOf(id(2))).updatedAt.getTime();
    const second = await call('POST', `/api/invoices/${id(2)}/retry`);
    expect(second.body.retried).toBe(0);
    expect(second.body.invoice.status).toBe('pending');
    expect((await rowOf(id(2))).updatedAt.getTime()).toBe(updated);

    // A pending invoice waiting out a backoff is made due now, once.
    expect((await call('POST', `/api/invoices/${id(7)}/retry`)).body.retried).toBe(1);
    expect((await rowOf(id(7))).nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await call('POST', `/api/invoices/${id(7)}/retry`)).body.retried).toBe(0);

    // An authorized invoice is never touched.
    const done = await call('POST', `/api/invoices/${realA.id}/retry`);
    expect(done.body).toMatchObject({ retried: 0, invoice: { status: 'completed' } });
  });

  it('retries all failed invoices of the shop once, leaving other statuses and other shops alone', async () => {
    const bFailed = await rowOf(B_ROWS[0].id);
    const first = await call('POST', '/api/invoices/retry', { body: { statuses: ['failed'] } });
    expect(first.status).toBe(200);
    expect(first.body.retried).toBe(2);
    expect(first.body.counts).toMatchObject({ failed: 0, pending: 4, completed: 3 });
    expect((await rowOf(id(3))).status).toBe('pending');
    expect((await rowOf(id(4))).status).toBe('pending');
    expect((await call('POST', '/api/invoices/retry', { body: { statuses: ['failed'] } })).body.retried).toBe(0);
    expect((await rowOf(B_ROWS[0].id)).status).toBe('failed');
    expect((await rowOf(B_ROWS[0].id)).updatedAt.getTime()).toBe(bFailed.updatedAt.getTime());

    const bad = await call('POST', '/api/invoices/retry', { body: { statuses: ['completed'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^statuses\.0: /);
    expect((await call('POST', '/api/invoices/retry', { body: { statuses: [] } })).body.error).toMatch(/^statuses: /);
  });

  // ── settings, test connection, the switch ─────────────────────────────────────

  it('refuses to turn invoicing on until the credentials are complete', async () => {
    const view = (await call('GET', '/api/shop', { shop: C })).body;
    expect(view).toMatchObject({ shop: C, enabled: false, complete: false, credentials: null, environment: 'pruebas', pausedReason: null });
    expect(view.missing).toEqual(['GW_Company', 'GW_Token', 'Id_Pac', 'Enterprise', 'Company', 'Token'].map((f) => `credentials.${f}`));
    const refused = await call('POST', '/api/shop/enabled', { shop: C, body: { enabled: true } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'settings_incomplete' });
    expect(refused.body.error).toMatch(/credentials/);
    expect((await shopRow(C)).enabled).toBe(false);
    expect((await call('POST', '/api/shop/enabled', { shop: C, body: { enabled: 'yes' } })).body.error).toMatch(/^enabled: /);
  });

  it('validates settings field by field (400 with the paths) and changes nothing', async () => {
    const before = await shopRow(C);
    const view = (await call('GET', '/api/shop', { shop: C })).body;
    const r = await call('PUT', '/api/settings', {
      shop: C,
      body: {
        ...view.settings,
        branchCode: 'ABCDE',
        billingPoint: '000',
        credentials: { Token: 'only-the-token' },
        mapping: { ...view.settings.mapping, defaultLocationCode: '99-99-99', taxRateCodes: { abc: '01' } },
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid settings');
    const paths = r.body.problems.map((p: { path: string }) => p.path).sort();
    expect(paths).toEqual(
      [
        'billingPoint',
        'branchCode',
        'credentials.Company',
        'credentials.Enterprise',
        'credentials.GW_Company',
        'credentials.GW_Token',
        'credentials.Id_Pac',
        'mapping.defaultLocationCode',
        'mapping.taxRateCodes.abc',
      ].sort(),
    );
    expect(r.body.problems.find((p: { path: string }) => p.path === 'billingPoint').message).toBe('billingPoint 000 is not allowed');
    const after = await shopRow(C);
    expect(after.settingsVersion).toBe(before.settingsVersion);
    expect(after.credentialsEnc).toBe(before.credentialsEnc);
  });

  it('tests the connection with the entered credentials: valid, invalid (101), incomplete', async () => {
    const incomplete = await call('POST', '/api/settings/test-connection', { shop: C, body: { credentials: { Token: 'x' } } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.problems.map((p: { path: string }) => p.path)).toEqual([
      'credentials.GW_Company',
      'credentials.GW_Token',
      'credentials.Id_Pac',
      'credentials.Enterprise',
      'credentials.Company',
    ]);

    const valid = await call('POST', '/api/settings/test-connection', { shop: C, body: { credentials: DEFAULT_SANDBOX_CREDENTIALS } });
    expect(valid.status).toBe(200);
    expect(valid.body).toMatchObject({ result: 'valid', environment: 'pruebas' });

    const invalid = await call('POST', '/api/settings/test-connection', {
      shop: C,
      body: { credentials: { ...DEFAULT_SANDBOX_CREDENTIALS, Token: 'bad-token' }, environment: 'produccion' },
    });
    expect(invalid.body).toMatchObject({ result: 'invalid', code: '101', message: 'Token de emisor invalido.', environment: 'produccion' });
    expect(invalid.text).not.toContain('bad-token');

    // Shop A's stored credentials, with only the Token typed over.
    expect((await call('POST', '/api/settings/test-connection', { body: { credentials: { Token: 'bad-typed' } } })).body.result).toBe(
      'invalid',
    );
    expect((await call('POST', '/api/settings/test-connection', { body: {} })).body.result).toBe('valid');
  });

  it('says "could not tell" when the gateway cannot be reached', async () => {
    const port = await freePort();
    const result = await testGatewayConnection({
      gateway: { baseUrl: `http://127.0.0.1:${port}`, authToken: 'x', authScheme: 'bearer', timeoutMs: 2000 },
      credentials: DEFAULT_SANDBOX_CREDENTIALS,
      environment: 'pruebas',
      branchCode: '0000',
      billingPoint: '001',
    });
    expect(result).toMatchObject({ result: 'unknown', environment: 'pruebas' });
    expect(result.result === 'unknown' && result.message).toMatch(/network error/);
  });

  it('saves complete settings, keeps stored credentials a form leaves empty, masks them, and lifts a pause', async () => {
    await h.app.shops.pause(C, legacyMessage('The gateway refused the credentials.'));
    const view = (await call('GET', '/api/shop', { shop: C })).body;
    expect(view.pausedReason).toBe('The gateway refused the credentials.');
    const saved = await call('PUT', '/api/settings', {
      shop: C,
      body: {
        ...view.settings,
        environment: 'produccion',
        credentials: { ...DEFAULT_SANDBOX_CREDENTIALS, Company: C },
        mapping: { ...view.settings.mapping, paymentForms: { Yappy: '08', 'Pago Móvil': '02' }, taxRateCodes: { '0.0850': '01' } },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      shop: C,
      environment: 'produccion',
      complete: true,
      missing: [],
      pausedReason: null,
      credentials: { GW_Company: true, GW_Token: true, Id_Pac: true, Enterprise: true, Company: true, Token: true },
    });
    // Only the shop's own entries come back (yappy → 08 is built in); rates are normalised.
    expect(saved.body.settings.mapping.paymentForms).toEqual({ 'pago móvil': '02' });
    expect(saved.body.settings.mapping.taxRateCodes).toEqual({ '0.085': '01' });
    for (const secret of [DEFAULT_SANDBOX_CREDENTIALS.Token, DEFAULT_SANDBOX_CREDENTIALS.GW_Token])
      expect(saved.text).not.toContain(secret);

    // Only the Token typed: the other five stay as stored.
    const tokenOnly = await call('PUT', '/api/settings', {
      shop: C,
      body: { ...saved.body.settings, credentials: { Token: 'new-taxpayer-token', GW_Company: '  ' } },
    });
    expect(tokenOnly.status).toBe(200);
    expect((await h.app.shops.get(C))!.credentials).toEqual({ ...DEFAULT_SANDBOX_CREDENTIALS, Company: C, Token: 'new-taxpayer-token' });

    const on = await call('POST', '/api/shop/enabled', { shop: C, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
  });

  // ── the page ──────────────────────────────────────────────────────────────────

  it('serves the page without any external reference outside Shopify, and with App Bridge inside it', async () => {
    const plain = await fetch(`${h.app.url}/admin?shop=${A}`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    const html = await plain.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('<script type="module" src="/admin/assets/app.js"></script>');
    expect(html).toContain(`"shop":"${A}"`);

    const embedded = await fetch(`${h.app.url}/admin?shop=${A}&host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvdGllbmRh&embedded=1`);
    const embeddedHtml = await embedded.text();
    expect(embedded.headers.get('content-security-policy')).toBe(`frame-ancestors https://${A} https://admin.shopify.com`);
    expect(embeddedHtml).toContain(`<meta name="shopify-api-key" content="${TEST_API_KEY}">`);
    expect(embeddedHtml).toContain('<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>');
    expect(embeddedHtml.indexOf('app-bridge.js')).toBeLessThan(embeddedHtml.indexOf('<script type="module"'));

    const root = await fetch(`${h.app.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/admin');
    for (const name of ['page', 'components', 'forms', 'invoices', 'phone']) {
      expect(html).toContain(`<link rel="stylesheet" href="/admin/assets/styles/${name}.css">`);
      const css = await fetch(`${h.app.url}/admin/assets/styles/${name}.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    }
    expect((await fetch(`${h.app.url}/api/nothing-here`)).status).toBe(404);
  });

  it('mounts the dev token route only when told to (never in production)', async () => {
    const app = express();
    mountAdmin(app, {
      db: database.db,
      shopify: h.app.shopify,
      shops: h.app.shops,
      sessions: h.app.sessions,
      gateway: { baseUrl: h.sandbox.url, authToken: DEFAULT_SANDBOX_AUTH_TOKEN, authScheme: 'bearer', timeoutMs: 2000 },
      appUrl: 'http://127.0.0.1',
      wakeWorker: () => {},
      gatewaySlots: h.app.worker.gatewaySlots,
      logger: silentLogger,
      devSessionTokens: false,
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as { port: number }).port;
      expect((await fetch(`http://127.0.0.1:${port}/admin/dev-session-token?shop=${A}`)).status).toBe(404);
      const page = await (await fetch(`http://127.0.0.1:${port}/admin`)).text();
      expect(page).toContain('"devSessionTokens":false');
    } finally {
      server.close();
    }
  });
});

describe('admin helpers', () => {
  it('reads the search box as order names or fiscal numbers', () => {
    expect(parseSearch('  ')).toBeUndefined();
    expect(parseSearch('1001')).toEqual({ orderNames: ['1001', '#1001'], fiscalNumber: 1001, fiscalKey: undefined });
    expect(parseSearch('#1001')).toEqual({ orderNames: ['#1001'], fiscalNumber: undefined, fiscalKey: undefined });
    expect(parseSearch('0000-001-0000000042')).toEqual({
      orderNames: ['0000-001-0000000042'],
      fiscalNumber: undefined,
      fiscalKey: { branchCode: '0000', billingPoint: '001', fiscalNumber: 42 },
    });
    expect(parseSearch('PA-77')).toEqual({ orderNames: ['PA-77', '#PA-77'], fiscalNumber: undefined, fiscalKey: undefined });
    expect(parseSearch('12345678901')).toEqual({
      orderNames: ['12345678901', '#12345678901'],
      fiscalNumber: undefined,
      fiscalKey: undefined,
    });
  });

  it('round-trips cursors and refuses anything else', () => {
    const c = { createdAt: '2026-03-01T10:00:00.000002Z', id: id(3) };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor('garbage')).toBeUndefined();
    expect(decodeCursor(Buffer.from(JSON.stringify(['2026-03-01', id(3)])).toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from(JSON.stringify([c.createdAt, "x' or 1=1"])).toString('base64url'))).toBeUndefined();
  });

  it('merges typed credentials over stored ones', () => {
    const stored = DEFAULT_SANDBOX_CREDENTIALS;
    expect(mergeCredentials(stored, undefined)).toBeUndefined();
    expect(mergeCredentials(stored, { Token: '', GW_Token: ' ' })).toBeUndefined();
    expect(mergeCredentials(stored, { Token: 'n' })).toEqual({ ...stored, Token: 'n' });
    expect(mergeCredentials(undefined, { Token: 'n' })).toEqual({ Token: 'n' });
    expect(mergeCredentials(stored, 'text')).toBe('text');
  });

  it('links the order in the Shopify admin', () => {
    expect(orderAdminUrl('mi-tienda.myshopify.com', 'gid://shopify/Order/123')).toBe(
      'https://admin.shopify.com/store/mi-tienda/orders/123',
    );
    expect(orderAdminUrl('mi-tienda.myshopify.com', 'not-a-gid')).toBeNull();
  });
});
