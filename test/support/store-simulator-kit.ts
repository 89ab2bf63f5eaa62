// What the store simulator's own tests share: Shopify's library configured as the app configures it, a
// simulator reached through the rewriting fetch, a GraphQL client on a shop's token, and a webhook receiver
// that validates deliveries with the library.
import '@shopify/shopify-api/adapters/node';
import { ApiVersion, LogSeverity, Session, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rewritingFetch } from '../../src/shopify/admin-api-origin.ts';
import {
  type RestOrder,
  type StoreSimulator,
  type StoreSimulatorOptions,
  startStoreSimulator,
} from '../../sim/store-simulator/store-simulator.ts';

export const API_KEY = 'sim-api-key';
export const API_SECRET = 'sim-api-secret-0123456789';
export const SHOP = 'demo.myshopify.com';
export const APP_HOST = 'app.example.test';
export const APP_NS = 'app--1000001';

export const shopify = shopifyApi({
  apiKey: API_KEY,
  apiSecretKey: API_SECRET,
  hostName: APP_HOST,
  hostScheme: 'https',
  apiVersion: ApiVersion.October26,
  isEmbeddedApp: false,
  scopes: ['read_orders', 'write_orders'],
  logger: { level: LogSeverity.Error },
});

/** A simulator whose Admin API the library reaches through the rewriting fetch (as the app sets it up). */
export async function startSim(closers: (() => Promise<void>)[], extra: Partial<StoreSimulatorOptions> = {}): Promise<StoreSimulator> {
  const s = await startStoreSimulator({ apiKey: API_KEY, apiSecret: API_SECRET, ...extra });
  closers.push(() => s.close());
  setAbstractFetchFunc(rewritingFetch(s.origin));
  return s;
}

export function graphqlClient(accessToken: string, shop = SHOP) {
  const session = new Session({ id: `offline_${shop}`, shop, state: '', isOnline: false, accessToken });
  return new shopify.clients.Graphql({ session });
}

/** A GraphQL call without the library, to see Shopify's raw answer (status, headers, errors). */
export async function rawGraphql(sim: StoreSimulator, token: string, query: string, variables: Record<string, unknown> = {}, shop = SHOP) {
  const res = await fetch(`${sim.origin}/admin/api/2026-10/graphql.json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token, 'x-shopify-shop-domain': shop },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

export function restOrder(id: number, overrides: Partial<RestOrder> = {}): RestOrder {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id % 10_000}`,
    created_at: '2026-11-20T10:15:00-05:00',
    updated_at: '2026-11-20T10:16:00-05:00',
    processed_at: '2026-11-20T10:15:00-05:00',
    currency: 'USD',
    financial_status: 'paid',
    test: true,
    total_price: '90.15',
    current_total_price: '90.15',
    current_total_price_set: {
      shop_money: { amount: '90.15', currency_code: 'USD' },
      presentment_money: { amount: '90.15', currency_code: 'USD' },
    },
    payment_gateway_names: ['bogus'],
    note: 'Entrega en Panamá, piso 3',
    line_items: [{ title: 'Café molido — Boquete', price: '12.50', quantity: 2 }],
    ...overrides,
  };
}

/** A loopback Express app for the app side of a test. */
export async function listen(app: express.Express): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface Received {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  check: Awaited<ReturnType<typeof shopify.webhooks.validate>>;
}

/** The webhook endpoint as the reference recommends: raw text body → validate → 401/400/200; closed with `closers`. */
export async function webhookReceiver(
  closers: (() => Promise<void>)[],
  answer: (n: number) => { status: number; delayMs?: number } = () => ({ status: 200 }),
) {
  const received: Received[] = [];
  const app = express();
  app.post('/webhooks', express.text({ type: '*/*', limit: '5mb' }), async (req, res) => {
    const rawBody = req.body as string;
    const check = await shopify.webhooks.validate({ rawBody, rawRequest: req, rawResponse: res });
    received.push({ rawBody, headers: req.headers, check });
    if (!check.valid) {
      res.status(check.reason === 'invalid_hmac' ? 401 : 400).send(check.reason);
      return;
    }
    const { status, delayMs } = answer(received.length);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    res.status(status).send(status === 200 ? 'ok' : 'fail');
  });
  const server = await listen(app);
  closers.push(server.close);
  return { ...server, address: `${server.origin}/webhooks`, received };
}

export const METAFIELDS_SET = `#graphql
  mutation SetInvoiceMetafields($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id namespace key type value compareDigest }
      userErrors { field message code }
    }
  }`;

export const ORDER_QUERY = `#graphql
  query OrderPayments($id: ID!) {
    order(id: $id) {
      id
      name
      transactions { id gateway kind status processedAt amountSet { shopMoney { amount currencyCode } } }
      cufe: metafield(namespace: "$app", key: "cufe") { value }
    }
  }`;
