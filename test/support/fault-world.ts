// The fault suite's world (test/soak/fault-injection.test.ts): the app as a process under a supervisor that restarts it,
// with the gateway and Shopify it talks to, for one shop; a pool for paced deliveries; the merchant's Retry.
import { randomBytes } from 'node:crypto';
import { Session } from '@shopify/shopify-api';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/database.ts';
import { documents } from '../../src/db/schema.ts';
import { documentCalls, retryDocuments } from '../../src/documents/store/index.ts';
import { type RunningSandbox, startSandboxServer } from '../../sim/sandbox/sandbox-server.ts';
import { EncryptedSessionStorage } from '../../src/shopify/session-storage.ts';
import { type StoreSimulator, startStoreSimulator } from '../../sim/store-simulator/store-simulator.ts';
import { createSecretBox } from '../../src/shops/secret-box.ts';
import { ShopRepository } from '../../src/shops/shop-repository.ts';
import { lastErrorText } from './documents.ts';
import { type AppProcess, spawnApp, testAppEnv } from '../../sim/harness/app-process.ts';
import { TEST_API_KEY, TEST_API_SECRET, credentialsFor, freePort, waitFor } from '../../sim/harness/harness.ts';
import { makePaidOrder } from './order-factory.ts';

/**
 * Shopify's retry policy (8 retries over 4 hours), compressed in time: a failed delivery (no answer, 5xx, > 5 s) is sent
 * again, over about 13 s in all — longer than a killed app takes to start again on a loaded 2-core machine.
 */
export const RETRY_POLICY = { retries: 8, backoffMs: [100, 200, 400, 800, 1600, 3200], timeoutMs: 5000 };

/** Every order of the fault runs ships, so a refund may be of the shipping alone. */
export const SHIPPING_CENTS = 500;

/**
 * Documents that stopped for a person: the merchant presses Retry in the admin. Waits until `count` documents of the
 * shop (invoices and notes) are completed; returns how many retries were pressed.
 */
export async function settle(database: Database, shop: string, count: number, timeoutMs: number): Promise<number> {
  let merchantRetries = 0;
  const reasons = new Map<string, string>();
  try {
    await waitFor(
      async () => {
        const rows = await database.db.select().from(documents).where(eq(documents.shop, shop));
        const stopped = rows.filter((r) => r.status === 'needs_attention' || r.status === 'failed');
        for (const r of stopped) reasons.set(r.id, `${r.kind} ${r.fiscalNumber}: ${lastErrorText(r)}`);
        if (stopped.length > 0) merchantRetries += await retryDocuments(database.db, { ids: stopped.map((r) => r.id) });
        return rows.length === count && rows.every((r) => r.status === 'completed');
      },
      timeoutMs,
      `${count} completed documents for ${shop}`,
    );
  } catch (error) {
    // Say what is left and why, not just that time ran out.
    const rows = await database.db.select().from(documents).where(eq(documents.shop, shop));
    const left = rows.filter((r) => r.status !== 'completed');
    const detail = left.slice(0, 10).map((r) => `${r.kind} ${r.sourceKey} ${r.status}/${r.step}: ${lastErrorText(r) ?? reasons.get(r.id)}`);
    // The first one's gateway calls, last few: what it was told.
    const calls = left[0] ? (await documentCalls(database.db, left[0].id)).slice(-4) : [];
    detail.push(
      `last calls of the first: ${calls.map((c) => `${c.operation} ${c.outcome} ${c.code ?? ''} ${(c.message ?? '').slice(0, 160)}`).join('; ')}`,
    );
    throw new Error(`${(error as Error).message}: ${rows.length} documents, ${left.length} not completed: ${detail.join(' | ')}`, {
      cause: error,
    });
  }
  return merchantRetries;
}

/** Run `fn` over items with at most `limit` at once. */
export async function pool<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** The app as a process (like a deployment), with the gateway and Shopify it talks to, for one shop. */
export interface ProcessWorld {
  sandbox: RunningSandbox;
  simulator: StoreSimulator;
  /** Where Shopify delivers refunds/create. */
  refundsAddress: string;
  seed(database: Database): Promise<void>;
  /** Start the app under a supervisor that restarts it whenever it exits without being told to. */
  start(extraEnv?: Record<string, string>): Promise<SupervisedApp>;
  /**
   * Deliver orders/paid for each id, ~`perSecond` a second, with Shopify's retries; `delivered` is told of each order
   * Shopify has (its delivery may still be under way). Returns the ids never delivered.
   */
  deliver(ids: number[], perSecond: number, delivered?: (id: number) => void): Promise<number[]>;
  waitWrittenBack(ids: number[], timeoutMs: number): Promise<void>;
  retriedDeliveries(): number;
  close(): Promise<void>;
}

export interface SupervisedApp {
  /** SIGKILL the running process; the supervisor starts a new one at once (on the same port). */
  kill(signal: 'SIGKILL'): Promise<void>;
  /** What each unexpected exit printed last (the error that ended it). */
  crashes: string[];
  stop(): Promise<void>;
}

export async function processWorld(
  shop: string,
  storageEnv: Record<string, string>,
  dropStorage: () => Promise<void> | void,
  seed: number,
): Promise<ProcessWorld> {
  const sandbox = await startSandboxServer({ seed, faults: { latencyMs: { min: 20, max: 120 } } });
  const simulator = await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
  const key = randomBytes(32);
  // One port for every run of the app: Shopify keeps delivering to the same address.
  const port = await freePort();
  const address = `http://127.0.0.1:${port}/webhooks/orders/paid`;
  let supervised: (SupervisedApp & { stopping: boolean; current: AppProcess | undefined }) | undefined;
  return {
    sandbox,
    simulator,
    refundsAddress: `http://127.0.0.1:${port}/webhooks/refunds/create`,
    async seed(database) {
      const box = createSecretBox(key);
      await new EncryptedSessionStorage(database.db, box).storeSession(
        new Session({
          id: `offline_${shop}`,
          shop,
          state: 'test',
          isOnline: false,
          accessToken: simulator.addShop(shop).accessToken,
          scope: 'read_orders,write_orders',
        }),
      );
      const shops = new ShopRepository(database.db, box);
      await shops.ensureInstalled(shop);
      const saved = await shops.saveSettings(shop, {
        ...(await shops.get(shop))!.settings,
        credentials: credentialsFor(shop),
        enabled: true,
      });
      if (!saved.ok) throw new Error(saved.problems.join('; '));
    },
    async start(extraEnv = {}) {
      const env = {
        ...testAppEnv({ port, gatewayUrl: sandbox.url, key, adminApiOrigin: simulator.origin }),
        // Short lease and time-out: a dead process's invoices are taken over within seconds.
        WORKER_LEASE_MS: '3000',
        GATEWAY_TIMEOUT_MS: '1500',
        WORKER_POLL_MS: '100',
        WORKER_RETRY_BASE_MS: '50',
        WORKER_RETRY_MAX_MS: '500',
        WORKER_MAX_ATTEMPTS: '50',
        WORKER_CONCURRENCY: '24',
        WORKER_SHOP_CONCURRENCY: '24',
        ...storageEnv,
        ...extraEnv,
      };
      const s: SupervisedApp & { stopping: boolean; current: AppProcess | undefined } = {
        crashes: [],
        stopping: false,
        current: undefined,
        async kill(signal) {
          const running = s.current;
          s.current = undefined;
          await running?.kill(signal);
          await launch();
        },
        async stop() {
          s.stopping = true;
          await s.current?.kill('SIGTERM');
        },
      };
      const launch = async (): Promise<void> => {
        const child = spawnApp(env);
        s.current = child;
        void child.exited.then(() => {
          if (s.stopping || s.current !== child) return;
          s.crashes.push(
            child.output
              .filter((l) => /Error/.test(l))
              .at(-1)
              ?.slice(0, 160) ?? `exit ${child.child.exitCode}`,
          );
          // A start that fails exits too, and lands here again.
          launch().catch(() => {});
        });
        await child.ready;
      };
      await launch();
      supervised = s;
      return s;
    },
    async deliver(ids, perSecond, delivered) {
      const undelivered: number[] = [];
      const connections = 10;
      await pool(ids, connections, async (id) => {
        const order = makePaidOrder({ id, shippingCents: SHIPPING_CENTS });
        simulator.setOrder(shop, order);
        const outcome = await simulator.deliverWithRetries({ address, topic: 'orders/paid', shop, payload: order }, RETRY_POLICY);
        if (!outcome.delivered) undelivered.push(id);
        delivered?.(id);
        await new Promise((r) => setTimeout(r, (connections * 1000) / perSecond));
      });
      return undelivered;
    },
    async waitWrittenBack(ids, timeoutMs) {
      await waitFor(
        async () => ids.every((id) => simulator.metafields(`gid://shopify/Order/${id}`, shop).length >= 5),
        timeoutMs,
        `${ids.length} orders written back`,
      );
    },
    retriedDeliveries: () => simulator.webhookLog().filter((a) => a.attempt > 1).length,
    async close() {
      if (supervised) {
        supervised.stopping = true;
        await supervised.current?.kill('SIGKILL');
      }
      await simulator.close();
      await sandbox.close();
      await dropStorage();
    },
  };
}
