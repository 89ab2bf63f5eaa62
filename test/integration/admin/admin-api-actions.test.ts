// The admin API over real HTTP: one invoice's detail, shop isolation (shop A's token never reads or changes shop B),
// idempotent retries, settings validation, "test connection", and the admin page shell.
import express from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { mountAdmin } from '../../../src/admin/admin-routes.ts';
import { testGatewayConnection } from '../../../src/admin/connection-test.ts';
import type { Database } from '../../../src/db/database.ts';
import { silentLogger } from '../../../src/logger.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from '../../../sim/sandbox/sandbox-gateway.ts';
import { legacyMessage } from '../../support/documents.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_KEY, TEST_API_SECRET, freePort } from '../../../sim/harness/harness.ts';
import { A, B, C, id, B_ROWS, adminApiWorld } from '../../support/admin-api-world.ts';

describe.each(testDatabases)('admin API on $name', (target) => {
  const world = adminApiWorld(target);
  const { call, ids, rowOf, shopRow } = world;
  let database: Database;
  let h: Harness;
  let realA: { id: string; orderName: string; gid: string };
  let realB: { id: string; orderName: string };
  beforeAll(() => ({ database, h, realA, realB } = world));
  const ALL_A = () => [realA.id, id(5), id(4), id(3), id(2), id(1), id(6), id(7)];

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
