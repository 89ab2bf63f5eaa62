// GET /api/orders/:orderId/documents, which the order block calls, and GET /api/invoices/:id/qr, over real
// HTTP on both databases: 401 without a valid session token, only the token's shop, the order by number or
// GID, the PDF link and retry flag, and CORS for the admin extensions' origin.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrDataUrl } from '../../../src/admin/document-qr-api.ts';
import { mintSessionToken } from '../../../src/admin/session-token.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_KEY, TEST_API_SECRET, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const A = 'tienda-docs-a.myshopify.com';
const B = 'tienda-docs-b.myshopify.com';
const ORDER_A = 5_950_000_000_001;
const ORDER_B = 5_950_000_000_002;
const STUCK_A = 5_950_000_000_003;

describe.each(testDatabases)('order documents API on $name', (target) => {
  let database: Database;
  let h: Harness;
  let invoiceA: typeof documents.$inferSelect;

  const get = async (path: string, o: { shop?: string; token?: string | null; origin?: string } = {}) => {
    const token = o.token === undefined ? await h.simulator.sessionToken(o.shop ?? A) : o.token;
    const res = await fetch(`${h.app.url}${path}`, {
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(o.origin ? { Origin: o.origin } : {}) },
    });
    return {
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as Record<string, unknown> & { documents?: Record<string, unknown>[] },
    };
  };

  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ database });
    await h.installShop(A);
    await h.installShop(B);
    await h.simulator.orderPaid(A, makePaidOrder({ id: ORDER_A, shippingCents: 500 }), h.webhookAddress);
    await h.simulator.orderPaid(B, makePaidOrder({ id: ORDER_B }), h.webhookAddress);
    // 8.5 % is no ITBMS rate: this one stops for the merchant.
    const stuck = makePaidOrder({ id: STUCK_A, lines: [{ title: 'Vino', sku: 'V-1', price: 2000, quantity: 1, ratePercent: 8.5 }] });
    await h.simulator.orderPaid(A, stuck, h.webhookAddress);
    const byOrder = async (id: number) =>
      (
        await database.db
          .select()
          .from(documents)
          .where(eq(documents.orderGid, `gid://shopify/Order/${id}`))
      )[0];
    invoiceA = await waitFor(async () => {
      const row = await byOrder(ORDER_A);
      return row?.status === 'completed' && row.writtenBackAt ? row : undefined;
    }, 20_000);
    await waitFor(async () => (await byOrder(ORDER_B))?.status === 'completed', 20_000);
    await waitFor(async () => (await byOrder(STUCK_A))?.status === 'needs_attention', 20_000);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('answers the order’s invoice by number or by GID: status, number, CUFE, PDF link', async () => {
    const byNumber = await get(`/api/orders/${ORDER_A}/documents`);
    expect(byNumber.status).toBe(200);
    expect(byNumber.headers.get('cache-control')).toBe('no-store');
    expect(byNumber.body.orderGid).toBe(`gid://shopify/Order/${ORDER_A}`);
    expect(byNumber.body.documents).toHaveLength(1);
    expect(byNumber.body.documents![0]).toMatchObject({
      id: invoiceA.id,
      kind: 'invoice',
      documentType: '01',
      status: 'completed',
      authorized: true,
      fiscalNumber: '0000-001-0000000001',
      cufe: invoiceA.cufe,
      totalCents: 7578,
      retryable: false,
      reason: null,
    });
    expect(byNumber.body.documents![0]!.pdfUrl).toMatch(new RegExp(`^${h.app.url}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
    const byGid = await get(`/api/orders/${encodeURIComponent(`gid://shopify/Order/${ORDER_A}`)}/documents`);
    expect(byGid.body).toEqual(byNumber.body);
  });

  it('offers Reintentar on a document that stopped, with its reason', async () => {
    const { body } = await get(`/api/orders/${STUCK_A}/documents`);
    expect(body.documents).toHaveLength(1);
    expect(body.documents![0]).toMatchObject({
      status: 'needs_attention',
      retryable: true,
      pdfUrl: null,
      cufe: null,
      reason: { kind: 'mapping' },
    });
  });

  it('never shows another shop’s order: an empty list, as for an order without documents', async () => {
    expect((await get(`/api/orders/${ORDER_B}/documents`)).body).toEqual({ orderGid: `gid://shopify/Order/${ORDER_B}`, documents: [] });
    expect((await get(`/api/orders/${ORDER_B}/documents`, { shop: B })).body.documents).toHaveLength(1);
    expect((await get(`/api/orders/${ORDER_A}/documents?shop=${A}`, { shop: B })).body.documents).toEqual([]);
    expect((await get(`/api/invoices/${invoiceA.id}/qr`, { shop: B })).status).toBe(404);
  });

  it('answers 401 without a token, with a forged or another app’s one; 400 naming a bad order id', async () => {
    const forged = (await mintSessionToken({ shop: A, apiKey: TEST_API_KEY, apiSecret: 'not-the-app-secret', ttlSeconds: 60 })).token;
    const otherApp = (await mintSessionToken({ shop: A, apiKey: 'another-app', apiSecret: TEST_API_SECRET, ttlSeconds: 60 })).token;
    for (const token of [null, 'not-a-jwt', forged, otherApp]) {
      for (const path of [`/api/orders/${ORDER_A}/documents`, `/api/invoices/${invoiceA.id}/qr`]) {
        const r = await get(path, { token });
        expect(r.status, `${path} ${token?.slice(0, 10)}`).toBe(401);
        expect(String(r.body.error)).toMatch(/session token/);
      }
    }
    for (const bad of ['abc', '0', 'gid%3A%2F%2Fshopify%2FProduct%2F1', '1'.repeat(21)]) {
      const r = await get(`/api/orders/${bad}/documents`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toMatch(/^orderId: /);
    }
  });

  it('lets the order block, on Shopify’s extensions origin, call it across origins (preflight and answer)', async () => {
    const preflight = await fetch(`${h.app.url}/api/orders/${ORDER_A}/documents`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://extensions.shopifycdn.com',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://extensions.shopifycdn.com');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    const answer = await get(`/api/orders/${ORDER_A}/documents`, { origin: 'https://extensions.shopifycdn.com' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://extensions.shopifycdn.com');
  });

  it('draws the invoice’s QR address as an image for the page', async () => {
    const r = await get(`/api/invoices/${invoiceA.id}/qr`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ address: invoiceA.qr, image: await qrDataUrl(invoiceA.qr!) });
    expect(String(r.body.image)).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(String(r.body.image).split(',')[1]!, 'base64').toString()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect((await get('/api/invoices/not-a-uuid/qr')).status).toBe(400);
  });
});
