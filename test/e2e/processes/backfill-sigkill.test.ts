// The backfill's done-when (docs/backfill.md) with the app as an OS process from the bundle, on both databases: 300 past
// paid orders, the backfill started through the admin API with a session token as the page starts it, the app
// SIGKILLed once 50 invoices are done while the reader is still mid-read, restarted on the same database. The
// backfill ends done; each order has one invoice, issued once at the gateway, numbered 1…N (plus recorded skips);
// every invoice is dated when it was sent; the orders/paid webhooks of 30 of the same orders, delivered during the
// run, invoice none twice.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/db/database.ts';
import { backfills, documents, fiscalSkips } from '../../../src/db/schema.ts';
import { panamaDate } from '../../../src/reports/report-month.ts';
import { EncryptedSessionStorage } from '../../../src/shopify/session-storage.ts';
import { createSecretBox } from '../../../src/shops/secret-box.ts';
import { ShopRepository } from '../../../src/shops/shop-repository.ts';
import { type AppProcess, spawnApp, testAppEnv } from '../../../sim/harness/app-process.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';
import { TEST_API_KEY, TEST_API_SECRET, credentialsFor, freePort, waitFor } from '../../../sim/harness/harness.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const DAY = 86_400_000;
const ORDERS = 300;
/** Each listing call (BackfillPaidOrders) after the very first held this long: the app is killed with pages
 * left to read, however fast it issues. */
const LISTING_DELAY_MS = 6000;

/** A proxy in front of the store simulator that holds the backfill's listing calls after the first one LISTING_DELAY_MS. */
async function slowListing(upstream: string): Promise<{ origin: string; reset(): void; close(): Promise<void> }> {
  let listings = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k))
          headers[k] = v;
      setTimeout(
        () => {
          fetch(`${upstream}${req.url}`, { method: req.method, headers, body: body.length > 0 ? body : undefined })
            .then(async (answer) => {
              res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
              res.end(Buffer.from(await answer.arrayBuffer()));
            })
            .catch(() => res.destroy());
        },
        body.includes('BackfillPaidOrders') && listings++ > 0 ? LISTING_DELAY_MS : 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reset: () => void (listings = 0),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function seedShop(database: Database, simulator: StoreSimulator, key: Buffer, SHOP: string): Promise<void> {
  const box = createSecretBox(key);
  const { accessToken } = simulator.addShop(SHOP);
  await new EncryptedSessionStorage(database.db, box).storeSession(
    new Session({ id: `offline_${SHOP}`, shop: SHOP, state: 'test', isOnline: false, accessToken, scope: 'read_orders,write_orders' }),
  );
  const shops = new ShopRepository(database.db, box);
  await shops.ensureInstalled(SHOP);
  const current = await shops.get(SHOP);
  await shops.saveSettings(SHOP, { ...current!.settings, credentials: credentialsFor(SHOP), enabled: true });
}

/** Paid orders created 1 to 45 days ago. */
function pastOrders(base: number, now: number): Record<string, unknown>[] {
  return Array.from({ length: ORDERS }, (_, i) => {
    const created = new Date(now - (1 + (i % 45)) * DAY - (i % 11) * 3_600_000).toISOString();
    return { ...makePaidOrder({ id: base + i }), created_at: created, processed_at: created, updated_at: created };
  });
}

interface Progress {
  status: string;
  read: boolean;
  ordersRead: number;
  done: number;
  total: number;
}

describe('the backfill survives a SIGKILL of the app process', () => {
  let sandbox: RunningSandbox;
  let simulator: StoreSimulator;
  let admin: { origin: string; reset(): void; close(): Promise<void> };
  beforeAll(async () => {
    sandbox = await startSandboxServer({ seed: 21, faults: { latencyMs: { min: 50, max: 200 } } });
    simulator = await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
    admin = await slowListing(simulator.origin);
  });
  afterAll(async () => {
    await admin.close();
    await simulator.close();
    await sandbox.close();
  });

  const targets = [
    {
      name: 'PGlite',
      shop: 'tienda-retro-pglite.myshopify.com',
      base: 7_600_000_000_000,
      storage: async () => ({
        env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fe-bfkill-')) } as Record<string, string>,
        drop: async () => {},
      }),
    },
    ...(postgresUrlForTests
      ? [
          {
            name: 'PostgreSQL',
            shop: 'tienda-retro-postgres.myshopify.com',
            base: 7_700_000_000_000,
            storage: async () => {
              const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
              return { env: { DATABASE_URL: fresh.url } as Record<string, string>, drop: fresh.drop };
            },
          },
        ]
      : []),
  ];

  it.each(targets)(
    'killed mid-read and mid-issue, restarted: done, each order invoiced once, numbered 1…N, dated when sent ($name)',
    async ({ shop: SHOP, base, storage }) => {
      admin.reset();
      const { env: storageEnv, drop } = await storage();
      const open = () =>
        storageEnv.DATABASE_URL
          ? openDatabase({ kind: 'postgres', url: storageEnv.DATABASE_URL })
          : openDatabase({ kind: 'pglite', dataDir: path.join(storageEnv.DATA_DIR!, 'pglite') });
      const key = randomBytes(32);
      const now = Date.now();
      const orders = pastOrders(base, now);
      const from = panamaDate(new Date(now - 46 * DAY));
      const to = panamaDate(new Date(now));
      // Short lease and time-out: the killed process's reader lease and invoices are taken over within seconds.
      const timing = {
        WORKER_POLL_MS: '100',
        WORKER_RETRY_BASE_MS: '50',
        WORKER_RETRY_MAX_MS: '500',
        WORKER_LEASE_MS: '4000',
        GATEWAY_TIMEOUT_MS: '2000',
        WORKER_CONCURRENCY: '8',
        RECONCILE_INTERVAL_MINUTES: '0',
      };
      const spawn = async () => {
        const port = await freePort();
        const app = spawnApp({
          ...testAppEnv({ port, gatewayUrl: sandbox.url, key, adminApiOrigin: admin.origin }),
          ...timing,
          ...storageEnv,
        });
        await app.ready;
        return { app, url: `http://127.0.0.1:${port}` };
      };
      const call = async (url: string, method: string, route: string, body?: unknown) => {
        const response = await fetch(`${url}${route}`, {
          method,
          headers: {
            Authorization: `Bearer ${await simulator.sessionToken(SHOP)}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { backfill: Progress } };
      };
      const webhooks = (url: string, list: Record<string, unknown>[]) =>
        Promise.all(
          list.map(
            async (payload) =>
              (await simulator.sendWebhook({ address: `${url}/webhooks/orders/paid`, topic: 'orders/paid', shop: SHOP, payload })).status,
          ),
        );
      const completions = (app: AppProcess) => app.output.filter((l) => l.includes('"invoice completed"')).length;

      let app: AppProcess | undefined;
      try {
        const seed = await open();
        await seedShop(seed, simulator, key, SHOP);
        await seed.close();
        for (const o of orders) simulator.setOrder(SHOP, o);

        const first = await spawn();
        app = first.app;
        const startedAt = Date.now();
        const started = await call(first.url, 'POST', '/api/backfill', { from, to, expected: ORDERS });
        expect(started).toMatchObject({ status: 202, body: { attached: false, backfill: { status: 'running', from, to } } });
        // The webhooks of 30 of the same orders, spread over the listing: 15 before the kill, 15 after the restart.
        const live = orders.filter((_, i) => i % 10 === 3);
        expect(live).toHaveLength(30);
        expect(await webhooks(first.url, live.slice(0, 15))).toEqual(Array.from({ length: 15 }, () => 200));

        await waitFor(async () => completions(first.app) >= 50, 60_000, '50 invoices completed').catch((e: unknown) => {
          console.log(first.app.output.slice(-40).join('\n'));
          throw e;
        });
        const atKill = await call(first.url, 'GET', '/api/backfill');
        await first.app.kill('SIGKILL');
        const doneBeforeKill = completions(first.app);
        // Mid-read and mid-issue: pages left to read, invoices left to send.
        expect(atKill.body.backfill).toMatchObject({ status: 'running', read: false });
        expect(atKill.body.backfill.ordersRead).toBeLessThan(ORDERS);
        expect(doneBeforeKill).toBeLessThan(ORDERS);

        const second = await spawn();
        app = second.app;
        expect(await webhooks(second.url, live.slice(15))).toEqual(Array.from({ length: 15 }, () => 200));
        let last: Progress | undefined;
        const finished = await waitFor(
          async () => {
            const b = (await call(second.url, 'GET', '/api/backfill')).body.backfill;
            last = b;
            if (b.status !== 'done') await new Promise((r) => setTimeout(r, 250));
            return b.status === 'done' ? b : undefined;
          },
          110_000,
          'the backfill to end',
        ).catch((e: unknown) => {
          console.log(
            JSON.stringify(last),
            second.app.output
              .filter((l) => /backfill|"level":[45]0/.test(l))
              .slice(-12)
              .join('\n'),
          );
          throw e;
        });
        expect(finished).toMatchObject({ status: 'done', read: true, ordersRead: ORDERS });
        // The restarted process read on from the saved page.
        const readBy = (a: AppProcess) => a.output.some((l) => l.includes('backfill: reader stopped') && l.includes('"outcome":"read"'));
        expect([readBy(first.app), readBy(second.app)]).toEqual([false, true]);
        await second.app.kill();

        const database = await open();
        try {
          const rows = await database.db.select().from(documents).where(eq(documents.shop, SHOP));
          expect(rows).toHaveLength(ORDERS);
          expect(new Set(rows.map((r) => r.orderGid))).toEqual(new Set(orders.map((o) => `gid://shopify/Order/${String(o['id'])}`)));
          expect(rows.filter((r) => r.status !== 'completed')).toEqual([]);
          expect(finished.total).toBe(rows.filter((r) => r.backfillId !== null).length);
          // The gateway issued one document per order, no number twice, the same numbers the database holds.
          const numbers = rows.map((r) => r.fiscalNumber!).sort((a, b) => a - b);
          const issued = sandbox.gateway.documents().filter((d) => d.company === SHOP);
          expect(issued).toHaveLength(ORDERS);
          expect(issued.map((d) => Number(d.numberDocumentFiscal)).sort((a, b) => a - b)).toEqual(numbers);
          // Numbers 1…N: each one an invoice or a skip recorded with its reason.
          const skips = await database.db.select().from(fiscalSkips).where(eq(fiscalSkips.shop, SHOP));
          expect(skips.filter((s) => s.reason.trim() === '')).toEqual([]);
          const used = [...numbers, ...skips.map((s) => s.number)].sort((a, b) => a - b);
          expect(used).toEqual(Array.from({ length: ORDERS + skips.length }, (_, i) => i + 1));
          // Dated when sent: after the backfill started, never the order's day.
          for (const r of rows) {
            const sent = Date.parse((r.document as { dataTransaction: { dateBroadcast: string } }).dataTransaction.dateBroadcast);
            expect(sent).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) * 1000);
          }
          const [row] = await database.db.select().from(backfills).where(eq(backfills.shop, SHOP));
          expect(row).toMatchObject({ status: 'done', readDone: true, ordersRead: ORDERS, leaseOwner: null });
          console.log(
            `${SHOP}: killed at ${doneBeforeKill} completed, ${atKill.body.backfill.ordersRead} read; ` +
              `${finished.total} backfilled, ${ORDERS - finished.total} by webhook, ${skips.length} skips`,
          );
        } finally {
          await database.close();
        }
      } finally {
        await app?.kill();
        await drop();
      }
    },
    200_000,
  );
});
