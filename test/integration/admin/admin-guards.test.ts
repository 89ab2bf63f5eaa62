// What the admin API refuses before it changes anything (issue 14 items 6 and 8): bodies that are not JSON
// (415; text/plain used to be read as {} and reset the settings), unknown top-level fields (400 naming
// them), dates and cursors the database cannot hold (400, not 500), connection tests beyond a few a minute
// per shop (429 with Retry-After) or outside the worker's gateway slots, and 413s that name the route's
// real limit.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TESTS_PER_MINUTE } from '../../../src/admin/admin-api.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents, shops } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { invoiceRow } from '../../support/documents.ts';
import { type Harness, startHarness } from '../../../sim/harness/harness.ts';

const A = 'tienda-guardas-a.myshopify.com';
const B = 'tienda-guardas-b.myshopify.com';
const SLOW = 'tienda-guardas-lenta.myshopify.com';

describe.each(testDatabases)('admin API guards on $name', (target) => {
  let database: Database;
  let h: Harness;

  async function call(method: string, path: string, o: { shop?: string; body?: string; type?: string } = {}) {
    const response = await fetch(`${h.app.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${await h.simulator.sessionToken(o.shop ?? A)}`,
        ...(o.type ? { 'Content-Type': o.type } : {}),
      },
      ...(o.body === undefined ? {} : { body: o.body }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }
  const json = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' });
  const shopRow = async (shop: string) => (await database.db.select().from(shops).where(eq(shops.shop, shop)))[0]!;

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database, env: { WORKER_ENABLED: 'false', GATEWAY_CONCURRENCY: '2' } });
    for (const shop of [A, B, SLOW]) await h.installShop(shop, { branchCode: '0042', billingPoint: '007' });
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('answers 415 to a state-changing body that is not JSON, and changes nothing', async () => {
    const before = await shopRow(A);
    const settings = JSON.stringify({ environment: 'produccion' });
    for (const [method, path] of [
      ['PUT', '/api/settings'],
      ['POST', '/api/shop/enabled'],
      ['POST', '/api/settings/test-connection'],
      ['POST', '/api/invoices/retry'],
    ] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
        const r = await call(method, path, { body: settings, ...(type ? { type } : {}) });
        expect([path, type, r.status, r.body]).toEqual([
          path,
          type,
          415,
          { error: 'send the body as JSON, with Content-Type: application/json' },
        ]);
      }
    }
    const after = await shopRow(A);
    expect(after).toEqual(before);
    expect(after.settings).toMatchObject({ branchCode: '0042', billingPoint: '007', environment: 'pruebas' });
  });

  it('answers 400 to a settings request without a body or with one that is not an object', async () => {
    const before = await shopRow(A);
    expect(await call('PUT', '/api/settings')).toMatchObject({ status: 400, body: { error: '(body): send a JSON object' } });
    for (const body of ['[]', '"pruebas"', '7', 'null']) {
      const r = await call('PUT', '/api/settings', { body, type: 'application/json' });
      expect([body, r.status]).toEqual([body, 400]);
    }
    expect(await shopRow(A)).toEqual(before);
  });

  it('names unknown top-level fields (400) and changes nothing', async () => {
    const before = await shopRow(A);
    const view = (await call('GET', '/api/shop')).body;
    const misspelt = await call('PUT', '/api/settings', json({ ...view.settings, enviroment: 'produccion', shop: B }));
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.error).toBe(
      'unknown fields: enviroment, shop (known: environment, branchCode, billingPoint, locations, accountantEmail, mapping, buyerRequests, flowTriggers, credentials, enabled)',
    );
    expect(misspelt.body.problems).toEqual([
      { path: 'enviroment', message: 'is not a field of this request' },
      { path: 'shop', message: 'is not a field of this request' },
    ]);
    expect((await call('POST', '/api/shop/enabled', json({ enabled: false, force: true }))).body.error).toBe(
      'unknown field: force (known: enabled)',
    );
    expect((await call('POST', '/api/invoices/retry', json({ statuses: ['failed'], shop: B }))).body.error).toBe(
      'unknown field: shop (known: statuses)',
    );
    expect(await shopRow(A)).toEqual(before);
    // The same settings without the strays are saved.
    expect((await call('PUT', '/api/settings', json(view.settings))).status).toBe(200);
  });

  it('answers 400, not 500, to dates and cursors the database cannot hold', async () => {
    const cursor = (createdAt: string) =>
      Buffer.from(JSON.stringify([createdAt, '00000000-0000-4000-8000-000000000001'])).toString('base64url');
    const cases: [string, string, string][] = [
      ['from=0000-01-01', 'from', 'from: must be a date from 2000-01-01 to 2999-12-31'],
      ['to=9999-12-31', 'to', 'to: must be a date from 2000-01-01 to 2999-12-31'],
      ['from=1999-12-31', 'from', 'from: must be a date from 2000-01-01 to 2999-12-31'],
      [`cursor=${cursor('2026-02-30T10:00:00.000000Z')}`, 'cursor', 'cursor: is not a cursor this API gave out'],
      [`cursor=${cursor('2026-03-01T24:00:00.000000Z')}`, 'cursor', 'cursor: is not a cursor this API gave out'],
      [`cursor=${cursor('0000-01-01T00:00:00.000000Z')}`, 'cursor', 'cursor: is not a cursor this API gave out'],
      [`cursor=${cursor('9999-12-31T23:59:59.999999Z')}`, 'cursor', 'cursor: is not a cursor this API gave out'],
    ];
    for (const [query, , error] of cases) {
      const r = await call('GET', `/api/invoices?${query}`);
      expect([query, r.status, r.body.error]).toEqual([query, 400, error]);
    }
    // The edges of the range and a real cursor still work.
    expect((await call('GET', '/api/invoices?from=2000-01-01&to=2999-12-31')).status).toBe(200);
    expect((await call('GET', `/api/invoices?cursor=${cursor('2026-03-01T10:00:00.000001Z')}`)).status).toBe(200);
  });

  it('answers 400 naming q, not 500, to a NUL or another control character in the search box', async () => {
    for (const q of ['#10\u0000', '\u0000', 'PA01\u0001', 'a\u007fb', 'x\u0085']) {
      const r = await call('GET', `/api/invoices?q=${encodeURIComponent(q)}`);
      expect([JSON.stringify(q), r.status, r.body.error]).toEqual([JSON.stringify(q), 400, 'q: must not contain control characters']);
    }
    const nulCursor = `cursor=${encodeURIComponent('\u0000abc')}`;
    expect((await call('GET', `/api/invoices?${nulCursor}`)).status).toBe(400);
    for (const query of ['status=\u0000', 'kind=\u0000', 'from=\u0000', 'limit=\u0000']) {
      const r = await call('GET', `/api/invoices?${query.replace('\u0000', '%00')}`);
      expect([query, r.status]).toEqual([query, 400]);
    }
    // Spaces around the text are still trimmed, not refused.
    expect((await call('GET', `/api/invoices?q=${encodeURIComponent(' #10 ')}`)).status).toBe(200);
  });

  it(`limits connection tests to ${CONNECTION_TESTS_PER_MINUTE} a minute per shop: 429 with Retry-After`, async () => {
    const calls = () => h.sandbox.gateway.stats().requests.StatusDocument;
    const before = calls();
    for (let i = 0; i < CONNECTION_TESTS_PER_MINUTE; i++) {
      const r = await call('POST', '/api/settings/test-connection', { shop: B, ...json({}) });
      expect([i, r.status, r.body.result]).toEqual([i, 200, 'valid']);
    }
    const limited = await call('POST', '/api/settings/test-connection', { shop: B, ...json({}) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: `too many connection tests: at most ${CONNECTION_TESTS_PER_MINUTE} a minute; try again shortly`,
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(calls() - before).toBe(CONNECTION_TESTS_PER_MINUTE);
    // Another shop has its own allowance.
    expect((await call('POST', '/api/settings/test-connection', { shop: A, ...json({}) })).status).toBe(200);
  });

  it('runs a connection test in one of the worker’s gateway slots (GATEWAY_CONCURRENCY), never beside them', async () => {
    const slots = h.app.worker.gatewaySlots;
    const calls = () => h.sandbox.gateway.stats().requests.StatusDocument;
    // The worker's two slots are busy (as in a flash sale): the test waits for one.
    const releases: (() => void)[] = [];
    const busy = [0, 1].map(() => slots.run(() => new Promise<void>((r) => releases.push(r))));
    const before = calls();
    const testing = call('POST', '/api/settings/test-connection', { shop: SLOW, ...json({}) });
    await new Promise((r) => setTimeout(r, 300));
    expect(calls()).toBe(before);
    releases[0]!();
    expect((await testing).body.result).toBe('valid');
    expect(calls()).toBe(before + 1);
    releases[1]!();
    await Promise.all(busy);
  });

  it('treats SQL in the search box as text: shop A finds nothing of shop B', async () => {
    await database.db.insert(documents).values(
      invoiceRow({
        shop: B,
        orderGid: 'gid://shopify/Order/9',
        orderName: "#9'; drop table invoices; --",
        totalCents: 100,
        currency: 'USD',
        snapshot: {},
      }),
    );
    for (const q of ["' or 1=1 --", "#9'; drop table invoices; --", "0000-001-1' or '1'='1"]) {
      const r = await call('GET', `/api/invoices?q=${encodeURIComponent(q)}`);
      expect([q, r.status, r.body.invoices]).toEqual([q, 200, []]);
    }
    const own = await call('GET', `/api/invoices?q=${encodeURIComponent("#9'; drop table invoices; --")}`, { shop: B });
    expect(own.body.invoices.map((i: { orderName: string }) => i.orderName)).toEqual(["#9'; drop table invoices; --"]);
  });

  it('answers 400 naming the field, not 500, to a NUL in a body’s text (text and jsonb columns cannot hold one)', async () => {
    const before = await shopRow(A);
    const cases: [string, string, unknown, string][] = [
      ['PUT', '/api/settings', { mapping: { shippingDescription: 'Envío\u0000' } }, 'mapping.shippingDescription'],
      ['PUT', '/api/settings', { mapping: { paymentForms: { 'yap\u0000py': '08' } } }, 'mapping.paymentForms.yap\u0000py'],
      ['PUT', '/api/invoices/00000000-0000-4000-8000-000000000001/client', { name: 'Ana\u0000' }, 'name'],
      ['POST', '/api/invoices/00000000-0000-4000-8000-000000000001/reinvoice', { address: ['x\u0000'] }, 'address.0'],
    ];
    for (const [method, path, body, at] of cases) {
      const r = await call(method, path, json(body));
      expect([path, r.status, r.body.error]).toEqual([path, 400, `${at}: must not contain a NUL character`]);
    }
    expect(await shopRow(A)).toEqual(before);
  });

  it('names the route’s own limit in a 413', async () => {
    const big = JSON.stringify({ mapping: { shippingDescription: 'x'.repeat(300 * 1024) } });
    const r = await call('PUT', '/api/settings', { body: big, type: 'application/json' });
    expect(r).toMatchObject({ status: 413, body: { error: 'body larger than 262144 bytes' } });
    const hook = await fetch(h.webhookAddress, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024 + 1) });
    expect([hook.status, await hook.json()]).toEqual([413, { error: 'body larger than 2097152 bytes' }]);
  });
});
