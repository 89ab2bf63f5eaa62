// A fake Shopify for development, the demo and tests. It serves Shopify's own paths (OAuth, Admin GraphQL,
// one REST order read) and learns the shop from the `x-shopify-shop-domain` header that `rewritingFetch`
// adds, and it signs and sends webhooks exactly as Shopify does. Everything it is told or asked is kept so a
// test can read it back. Not for production: there is no persistence and no security beyond token checks.
//
// This module wires the parts: shop-state (orders, refunds, customers, companies, metafields), tokens and
// oauth-routes (installs and tokens), admin-api-routes (GraphQL via graphql-js, REST), webhook-sender,
// faults and control-api.

import { buildRefundPayload } from './refund-payload.ts';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { adminApiRoutes } from './admin-api-routes.ts';
import { controlApiRoutes } from './control-api.ts';
import { FaultDice } from './faults.ts';
import { loadFlowTriggers } from './flow-extensions.ts';
import { oauthRoutes } from './oauth-routes.ts';
import { gidOf, isRecord, restGid } from './rest-values.ts';
import { mintSessionToken } from './session-tokens.ts';
import { SimState } from './shop-state.ts';
import { TokenStore } from './tokens.ts';
import type { ApiCall, RestRefund, StoreSimulator, StoreSimulatorOptions } from './types.ts';
import { WebhookSender } from './webhook-sender.ts';

export type * from './types.ts';
export { SHOP_DOMAIN_HEADER } from './tokens.ts';

const DEFAULT_SCOPES = 'read_orders,write_orders';

export async function startStoreSimulator(options: StoreSimulatorOptions): Promise<StoreSimulator> {
  const state = new SimState(options.appId ?? '1000001', options.metafieldDefinitions ?? []);
  const tokens = new TokenStore(state, {
    accessTtlMs: (options.accessTokenTtlSeconds ?? 3600) * 1000,
    refreshTtlMs: (options.refreshTokenTtlSeconds ?? 90 * 24 * 3600) * 1000,
    refreshTokenGrace: options.refreshTokenGrace ?? false,
  });
  state.flowTriggerDefinitions = loadFlowTriggers(options.extensionsDir ?? fileURLToPath(new URL('../../extensions', import.meta.url)));
  const faults = new FaultDice();
  const calls: ApiCall[] = [];
  const sender = new WebhookSender(options.apiSecret, options.apiVersion ?? '2026-10');
  const scopes = options.scopes ?? DEFAULT_SCOPES;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(oauthRoutes({ ...options, scopes }, state, tokens));
  app.use(adminApiRoutes({ state, tokens, faults, calls }));
  if (options.controlApi)
    app.use(
      '/_simulator',
      controlApiRoutes(() => simulator),
    );
  app.use((_req, res) => {
    res.status(404).json({ errors: 'Not Found' });
  });
  // JSON answers for malformed bodies too, never Express's HTML page.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = isRecord(err) && typeof err['status'] === 'number' ? err['status'] : 500;
    res.status(status).json({ errors: status === 500 ? 'Internal Server Error' : 'Bad Request' });
  });

  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const simulator: StoreSimulator = {
    origin: `http://127.0.0.1:${port}`,

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },

    addShop(shop, opts = {}) {
      if (opts.name !== undefined) state.shop(shop).name = opts.name;
      if (opts.email !== undefined) state.shop(shop).email = opts.email;
      return { accessToken: tokens.addStatic(shop, opts.scope ?? DEFAULT_SCOPES, opts.accessToken) };
    },
    uninstallShop: (shop) => tokens.uninstall(shop),
    installation: (shop) => tokens.installation(shop),
    refreshCount: (shop) => state.shops.get(shop)?.refreshes ?? 0,
    sessionToken: (shop, opts = {}) => mintSessionToken(options, shop, opts),
    advanceClock: (ms) => state.advanceClock(ms),

    setOrder: (shop, order, opts = {}) => state.setOrder(shop, order, opts.transactions),
    updateOrder: (shop, orderGid, patch) => state.updateOrder(shop, orderGid, patch),
    order: (shop, orderGid) => {
      const record = state.shops.get(shop)?.orders.get(orderGid);
      return record ? structuredClone(record.rest) : undefined;
    },
    addRefund: (shop, orderGid, refund) => state.addRefund(shop, orderGid, refund),
    setCustomerMetafield: (shop, customerGid, namespace, key, value, type = 'single_line_text_field') =>
      state.setCustomerMetafield(shop, customerGid, namespace, key, value, type),
    setCustomerLocale: (shop, customerGid, locale) => state.setCustomerLocale(shop, customerGid, locale),
    setCompanyLocationTaxId: (shop, locationGid, taxRegistrationId, opts = {}) =>
      state.setCompanyLocation(shop, locationGid, taxRegistrationId, opts),

    addLocation(shop, { name, id, active = true }) {
      const gid = id === undefined ? state.nextGid('Location') : `gid://shopify/Location/${id}`;
      state.shop(shop).locations.set(gid, { gid, name, active });
      return { id: Number(gid.split('/').pop()), gid };
    },

    metafields(ownerGid, shop) {
      const shops = shop ? [state.shops.get(shop)] : [...state.shops.values()];
      for (const s of shops) {
        const stored = s ? state.metafieldsOf(s, ownerGid) : [];
        if (stored.length > 0) return stored.map(({ namespace, key, type, value }) => ({ namespace, key, type, value }));
      }
      return [];
    },
    calls: () => calls.map((c) => ({ ...c })),
    setFaults: (f) => faults.set(f),

    sendWebhook: (opts) => sender.send(opts),
    deliverWithRetries: (opts, policy) => sender.deliverWithRetries(opts, policy),
    async orderPaid(shop, order, address, overrides = {}) {
      simulator.setOrder(shop, order);
      return sender.send({ topic: 'orders/paid', ...overrides, address, shop, payload: order });
    },
    async refundCreated(shop, refund, address, overrides = {}) {
      const orderGid = gidOf('Order', refund['order_id']);
      if (!orderGid) throw new Error('refund needs the numeric order_id of its order');
      const refundGid = restGid('Refund', refund) ?? '';
      const stored = state.refund(state.shop(shop), refundGid);
      if (!stored) state.addRefund(shop, orderGid, refund);
      else if (JSON.stringify(stored.refund) !== JSON.stringify(refund)) throw new Error(`refund ${refundGid} is stored with another body`);
      return sender.send({ topic: 'refunds/create', ...overrides, address, shop, payload: refund });
    },
    async refund(shop, orderGid, request, address, overrides = {}) {
      const order = simulator.order(shop, orderGid);
      if (!order) throw new Error(`no order ${orderGid} in ${shop}`);
      const earlier = Array.isArray(order['refunds']) ? (order['refunds'] as RestRefund[]) : [];
      const refund = buildRefundPayload(order, earlier, request);
      return { refund, delivery: await simulator.refundCreated(shop, refund, address, overrides) };
    },
    webhookLog: () => sender.log.map((d) => ({ ...d })),
    flowTriggers: (shop) => state.flowTriggers.filter((t) => shop === undefined || t.shop === shop).map((t) => structuredClone(t)),
    resetLogs() {
      calls.length = 0;
      sender.log.length = 0;
    },
  };
  return simulator;
}
