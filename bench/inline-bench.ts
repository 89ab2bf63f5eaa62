// The inline design against ours, with the gateway slow (6 s per answer, its own process): after a warm-up,
// 200 signed orders/paid deliveries, sent at 100 a second whatever the answers (as Shopify sends events), go to
//   - a minimal app that verifies the HMAC, maps the order and calls SendDocument before answering, as
//     Shopify's app templates process webhooks;
//   - our app (startApp, PGlite file-backed, worker on), which stores the delivery and answers.
// Shopify waits 5 s for an answer, then counts the delivery as failed and retries it: every answer slower
// than that (or not 2xx) is a delivery Shopify would have retried.
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { defaultMappingSettings } from '../mappers/invoice/mapping-settings.ts';
import { numberDocument } from '../mappers/invoice/document-numbering.ts';
import { orderToDraft } from '../mappers/invoice/order-to-document.ts';
import { parseShopifyOrder } from '../mappers/shopify/shopify-order.ts';
import { type AppParts, SHOPIFY_API_VERSION } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { createGatewayClient } from '../src/gateway/gateway-client.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../sim/sandbox/sandbox-gateway.ts';
import { startStoreSimulator, type StoreSimulator } from '../sim/store-simulator/store-simulator.ts';
import { credentialsFor } from '../sim/harness/harness.ts';
import type { BenchRow } from './bench-table.ts';
import {
  BENCH_API_KEY,
  BENCH_API_SECRET,
  BENCH_SCOPES,
  ms,
  orderIdBase,
  orderTemplate,
  paidOrder,
  percentile,
  seedShop,
  sleep,
  startBenchApp,
  startSandboxProcess,
  tempDir,
} from './bench-support.ts';
import { sendDeliveries } from './load-generator.ts';

const SHOP = 'tienda-inline.myshopify.com';
const DELIVERIES = 200;
/** Shopify sends events as they happen: a flash sale's 100 paid orders a second, open loop. */
const RATE_PER_SECOND = 100;
/** Deliveries sent first and not counted. */
const WARM_UP = 50;
/** Gateway calls our app keeps in flight. */
const GATEWAY_CONCURRENCY = 8;
const CONNECTIONS = 50;
const GATEWAY_LATENCY_MS = 6000;
/** Shopify's time-out for a webhook answer. */
const SHOPIFY_TIMEOUT_MS = 5000;
/** Our target for the webhook p99. */
const P99_TARGET_MS = 50;

interface Answers {
  durations: number[];
  /** Answers Shopify would count as failed: slower than 5 s, or not 2xx. */
  retried: number;
}

/** The inline design: everything inside the webhook request. */
function inlineApp(gatewayUrl: string): express.Express {
  const key = createSecretKey(Buffer.from(BENCH_API_SECRET, 'utf8'));
  const gateway = createGatewayClient({
    baseUrl: gatewayUrl,
    authToken: DEFAULT_SANDBOX_AUTH_TOKEN,
    authScheme: 'bearer',
    timeoutMs: 30_000,
  });
  let fiscalNumber = 0;
  const app = express();
  app.post('/webhooks/orders/paid', express.text({ type: () => true, limit: '2mb' }), async (req, res) => {
    const raw = typeof req.body === 'string' ? req.body : '';
    const given = Buffer.from(req.get('x-shopify-hmac-sha256') ?? '', 'base64');
    const expected = createHmac('sha256', key).update(raw, 'utf8').digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.status(401).end();
      return;
    }
    const order = parseShopifyOrder(JSON.parse(raw));
    if (!order.ok) {
      res.status(400).end();
      return;
    }
    const mapped = orderToDraft({ order: order.order, settings: defaultMappingSettings });
    if (!mapped.ok) {
      res.status(400).end();
      return;
    }
    const outcome = await gateway.sendDocument({
      credentials: credentialsFor(SHOP),
      environment: 'pruebas',
      document: numberDocument(mapped.draft, { branchCode: '0000', billingPoint: '001', fiscalNumber: ++fiscalNumber }, new Date()),
    });
    res.status(outcome.kind === 'authorized' ? 200 : 500).json({ outcome: outcome.kind });
  });
  return app;
}

/**
 * Warm up as a running app is warm: WARM_UP deliveries first, answers awaited; then `warm()` waits until the
 * app has done its first work on them. Then the measured deliveries, CONNECTIONS at a time from a child
 * process (each connection opened by one more, uncounted), every answer awaited however slow. The orders
 * are registered at the simulator, where our worker writes their metafields.
 */
async function deliver(
  simulator: StoreSimulator,
  address: string,
  blocks: { warmUp: number[]; connections: number[]; measured: number[] },
  warm: () => Promise<void>,
): Promise<Answers> {
  for (const id of [...blocks.warmUp, ...blocks.connections, ...blocks.measured]) simulator.setOrder(SHOP, paidOrder(id));
  const plan = {
    url: address,
    secret: BENCH_API_SECRET,
    shop: SHOP,
    template: orderTemplate(),
    concurrency: CONNECTIONS,
    ratePerSecond: RATE_PER_SECOND,
    timeoutMs: 60_000,
    apiVersion: SHOPIFY_API_VERSION,
  };
  await sendDeliveries({ ...plan, ids: blocks.warmUp, warmUpIds: [] });
  await warm();
  const times = await sendDeliveries({ ...plan, ids: blocks.measured, warmUpIds: blocks.connections });
  const retried = times.durations.filter((d, i) => d > SHOPIFY_TIMEOUT_MS || times.statuses[i]! < 200 || times.statuses[i]! >= 300).length;
  return { durations: times.durations, retried };
}

async function untilSent(sandboxUrl: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const stats = (await (await fetch(`${sandboxUrl}/_sandbox/stats`)).json()) as { requests: { SendDocument: number } };
    if (stats.requests.SendDocument >= count) return;
    await sleep(20);
  }
  throw new Error(`the worker did not send ${count} documents to the gateway within 10 s`);
}

async function measure(): Promise<{ inline: Answers; ours: Answers }> {
  const sandbox = await startSandboxProcess({ latencyMs: GATEWAY_LATENCY_MS, seed: 3 });
  const simulator = await startStoreSimulator({ apiKey: BENCH_API_KEY, apiSecret: BENCH_API_SECRET });
  const tmp = tempDir('fe-bench-inline-');
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(tmp.dir, 'pglite') });
  let inlineServer: http.Server | undefined;
  let app: AppParts | undefined;
  try {
    const key = randomBytes(32);
    await seedShop(database, key, SHOP, simulator.addShop(SHOP, { scope: BENCH_SCOPES }).accessToken);
    app = await startBenchApp(database, key, {
      env: {
        WORKER_CONCURRENCY: '16',
        WORKER_SHOP_CONCURRENCY: '16',
        GATEWAY_CONCURRENCY: String(GATEWAY_CONCURRENCY),
        GATEWAY_TIMEOUT_MS: '20000',
      },
      gateway: { baseUrl: sandbox.url, authToken: DEFAULT_SANDBOX_AUTH_TOKEN, authScheme: 'bearer', timeoutMs: 20_000 },
      adminApiOrigin: simulator.origin,
    });
    inlineServer = await new Promise<http.Server>((resolve, reject) => {
      const s = inlineApp(sandbox.url).listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
    });
    const inlineUrl = `http://127.0.0.1:${(inlineServer.address() as AddressInfo).port}/webhooks/orders/paid`;
    // Distinct order ids throughout: the inline app's invoices must not meet ours at the sandbox.
    const block = (n: number, size: number) => Array.from({ length: size }, (_, i) => orderIdBase(950 + n) + i);
    const blocks = (n: number) => ({
      warmUp: block(n, WARM_UP),
      connections: block(n + 1, CONNECTIONS),
      measured: block(n + 2, DELIVERIES),
    });
    // Ours is warm once its worker has sent to the gateway all it may (claim, mapper, numbering and gateway
    // client have run); then it holds as many invoices as it can while the gateway takes 6 s to answer each.
    const ours = await deliver(simulator, `${app.url}/webhooks/orders/paid`, blocks(0), () => untilSent(sandbox.url, GATEWAY_CONCURRENCY));
    // The inline design's warm-up answers came back after the gateway's 6 s: it has run everything once.
    const inline = await deliver(simulator, inlineUrl, blocks(3), async () => {});
    return { inline, ours };
  } finally {
    const server = inlineServer;
    if (server) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    // Stop the sandbox first: the worker's invoices in hand then end at once (network error) instead of after 6 s.
    await sandbox.stop();
    await app?.close();
    await database.close();
    await simulator.close();
    tmp.remove();
  }
}

export async function run(): Promise<BenchRow[]> {
  console.log(
    `inline: ${DELIVERIES} deliveries at ${RATE_PER_SECOND}/s (after a warm-up of ${WARM_UP + CONNECTIONS} not counted; ${CONNECTIONS} at a time), gateway latency ${GATEWAY_LATENCY_MS / 1000} s; Shopify retries an answer slower than ${SHOPIFY_TIMEOUT_MS / 1000} s`,
  );
  const { inline, ours } = await measure();
  const oursP99 = percentile(ours.durations, 99);
  const inlineP99 = percentile(inline.durations, 99);
  return [
    {
      row: 'webhook under a 6 s gateway: ours',
      figure: `p50 ${ms(percentile(ours.durations, 50))}, p99 ${ms(oursP99)}; ${ours.retried} of ${DELIVERIES} would be retried`,
      baseline: `inline design p50 ${ms(percentile(inline.durations, 50))}, p99 ${ms(inlineP99)}; ${inline.retried} of ${DELIVERIES} would be retried. Target: ours p99 < ${P99_TARGET_MS} ms and 0 retried, inline > 5 s`,
      result: `p99 ${(inlineP99 / oursP99).toFixed(0)}× shorter than inline`,
      pass: oursP99 < P99_TARGET_MS && ours.retried === 0 && inlineP99 > SHOPIFY_TIMEOUT_MS,
    },
  ];
}
