// Orders are read through Admin GraphQL only (issue 26 item 8): every order fixture, stored in the store simulator as
// Shopify's REST/webhook body, read back over HTTP with the app's query and client, becomes the same typed order the
// webhook gives; long orders are read page by page; an unknown order reads as none; and src/ holds no REST call.
import { orderLocationId } from '../../../mappers/invoice/issuing-point.ts';
import fs from 'node:fs';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifyOrder, parseShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { SHOPIFY_API_VERSION } from '../../../src/app.ts';
import { type ShopifyAdmin, createShopifyAdmin } from '../../../src/shopify/admin-client.ts';
import { rewritingFetch } from '../../../src/shopify/admin-api-origin.ts';
import { readOrder } from '../../../src/shopify/order-queries.ts';
import { silentLogger } from '../../../src/logger.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { orderFixtureNames, readOrderFixture } from '../../support/order-fixtures.ts';
import { ROOT } from '../../support/paths.ts';

const SHOP = 'tienda-graphql.myshopify.com';

/** The typed order, its times as instants (GraphQL answers in UTC, the webhook in the shop's offset). */
function typed(body: unknown): Omit<ShopifyOrder, 'createdAt' | 'processedAt'> & { createdAt: number; processedAt: number } {
  const parsed = parseShopifyOrder(body);
  if (!parsed.ok) throw new Error(`unreadable order: ${JSON.stringify(parsed.problems)}`);
  const { company, ...order } = parsed.order;
  return {
    ...order,
    // The webhook names the company by its ids; its name and tax id come with the order's confirmation (confirmOrder).
    ...(company
      ? { company: { ...(company.id ? { id: company.id } : {}), ...(company.locationId ? { locationId: company.locationId } : {}) } }
      : {}),
    createdAt: Date.parse(order.createdAt ?? ''),
    processedAt: Date.parse(order.processedAt ?? ''),
  };
}

describe('reading an order through Admin GraphQL from the store simulator', () => {
  let simulator: StoreSimulator;
  let admin: ShopifyAdmin;

  beforeAll(async () => {
    simulator = await startStoreSimulator({ apiKey: 'key', apiSecret: 'secret-0123456789' });
    const { accessToken } = simulator.addShop(SHOP, { scope: 'read_orders,write_orders,read_customers' });
    admin = createShopifyAdmin({
      sessions: { get: async (shop) => new Session({ id: `offline_${shop}`, shop, state: '', isOnline: false, accessToken }) },
      apiVersion: SHOPIFY_API_VERSION,
      logger: silentLogger,
      fetch: rewritingFetch(simulator.origin),
    });
  });
  afterAll(async () => simulator?.close());

  it.each(orderFixtureNames())('%s: the same typed order as the webhook body', async (name) => {
    const body = readOrderFixture(name) as Record<string, unknown>;
    simulator.setOrder(SHOP, body);
    const gid = parseShopifyOrder(body);
    if (!gid.ok) return; // a fixture of an unreadable order has nothing to compare
    const read = await readOrder(admin, SHOP, gid.order.orderGid);
    if (!read.ok || read.data === null) throw new Error(`not read: ${JSON.stringify(read)}`);
    expect(JSON.parse(read.data.text)).toEqual(read.data.json);
    expect(typed(read.data.json)).toEqual(typed(body));
  });

  it('reads an order of 600 lines page by page (250 a page)', async () => {
    const body = readOrderFixture('ten-lines') as Record<string, unknown> & { line_items: Record<string, unknown>[] };
    const first = body.line_items[0]!;
    const lines = Array.from({ length: 600 }, (_, i) => ({
      ...first,
      id: 7_700_000_000 + i,
      admin_graphql_api_id: `gid://shopify/LineItem/${7_700_000_000 + i}`,
    }));
    const order = { ...body, id: 7_799_000_000_001, admin_graphql_api_id: 'gid://shopify/Order/7799000000001', line_items: lines };
    simulator.setOrder(SHOP, order);
    simulator.resetLogs();
    const read = await readOrder(admin, SHOP, 'gid://shopify/Order/7799000000001');
    if (!read.ok || read.data === null) throw new Error('not read');
    expect(typed(read.data.json).lineItems.map((l) => l.gid)).toEqual(lines.map((l) => l.admin_graphql_api_id));
    expect(simulator.calls().map((c) => [c.operation, c.status])).toEqual([
      ['order', 200],
      ['order', 200],
      ['order', 200],
    ]);
  });

  it("a POS order's till: location_id read back from retailLocation, so a refresh keeps its series", async () => {
    const body = { ...(readOrderFixture('tax-exclusive') as Record<string, unknown>), location_id: 64_000_000_123 };
    simulator.setOrder(SHOP, body);
    const gid = parseShopifyOrder(body);
    if (!gid.ok) throw new Error('fixture unreadable');
    const read = await readOrder(admin, SHOP, gid.order.orderGid);
    if (!read.ok || read.data === null) throw new Error('not read');
    expect((read.data.json as { location_id?: unknown }).location_id).toBe(64_000_000_123);
    expect(orderLocationId(read.data.json)).toBe('64000000123');
  });

  it('a shop that has not granted read_customers: the order is read without its customer', async () => {
    const narrow = 'tienda-sin-clientes.myshopify.com';
    const { accessToken } = simulator.addShop(narrow, { scope: 'read_orders,write_orders' });
    const client = createShopifyAdmin({
      sessions: { get: async (shop) => new Session({ id: `offline_${shop}`, shop, state: '', isOnline: false, accessToken }) },
      apiVersion: SHOPIFY_API_VERSION,
      logger: silentLogger,
      fetch: rewritingFetch(simulator.origin),
    });
    const body = readOrderFixture('taxpayer-client') as Record<string, unknown>;
    simulator.setOrder(narrow, body);
    const gid = String(body['admin_graphql_api_id']);
    const read = await readOrder(client, narrow, gid);
    if (!read.ok || read.data === null) throw new Error(`not read: ${JSON.stringify(read)}`);
    const { customer: _left, company: _out, ...rest } = typed(body);
    expect(typed(read.data.json)).toEqual(rest);
  });

  it('an order the shop does not have reads as none', async () => {
    expect(await readOrder(admin, SHOP, 'gid://shopify/Order/1')).toEqual({ ok: true, data: null });
  });

  it('src/ makes no Admin REST call (no orders/<id>.json, no REST client)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.(ts|js)$/.test(entry.name)) {
          const text = fs.readFileSync(file, 'utf8');
          if (/admin\/api\/[^'"`]*\/(orders|customers|shop)[^'"`]*\.json|orders\/\$\{[^}]+\}\.json|\.rest\(/.test(text))
            offenders.push(file);
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    expect(offenders).toEqual([]);
  });
});
