// SIGTERM while gateway answers trickle a byte a second (issue 25, item 1), the app as a process on both databases:
// it exits within its bound (a call ends at GATEWAY_TIMEOUT_MS; the runner stops between steps), and after a restart
// every order is issued once, numbered without a gap.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseTarget, openDatabase } from '../../src/db/database.ts';
import { documents } from '../../src/db/schema.ts';
import { EncryptedSessionStorage } from '../../src/shopify/session-storage.ts';
import { createSecretBox } from '../../src/shops/secret-box.ts';
import { ShopRepository } from '../../src/shops/shop-repository.ts';
import { type RunningFaultProxy, startFaultProxy } from '../../sim/fault-proxy/fault-proxy.ts';
import { spawnApp, testAppEnv } from '../../sim/harness/app-process.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../sim/harness/databases.ts';
import { TEST_API_KEY, TEST_API_SECRET, credentialsFor, freePort, waitFor } from '../../sim/harness/harness.ts';
import { type RunningSandbox, startSandboxServer } from '../../sim/sandbox/sandbox-server.ts';
import { type StoreSimulator, startStoreSimulator } from '../../sim/store-simulator/store-simulator.ts';
import { makePaidOrder } from '../support/order-factory.ts';

const SHOP = 'tienda-sigterm.myshopify.com';
const GATEWAY_TIMEOUT_MS = 2000;
const SHOPIFY_TIMEOUT_MS = 2000;
/** src/main.ts: one gateway call, one Admin API call and 5 s. */
const SHUTDOWN_BOUND_MS = GATEWAY_TIMEOUT_MS + SHOPIFY_TIMEOUT_MS + 5000;

let sandbox: RunningSandbox;
let simulator: StoreSimulator;
let proxy: RunningFaultProxy;
const key = randomBytes(32);

beforeAll(async () => {
  sandbox = await startSandboxServer({ seed: 25 });
  simulator = await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
  proxy = await startFaultProxy({ upstream: sandbox.url });
});
afterAll(async () => {
  await proxy.close();
  await simulator.close();
  await sandbox.close();
});

async function seed(target: DatabaseTarget, shop: string): Promise<void> {
  const database = await openDatabase(target);
  try {
    const box = createSecretBox(key);
    const { accessToken } = simulator.addShop(shop);
    await new EncryptedSessionStorage(database.db, box).storeSession(
      new Session({ id: `offline_${shop}`, shop, state: 'test', isOnline: false, accessToken, scope: 'read_orders,write_orders' }),
    );
    const shops = new ShopRepository(database.db, box);
    await shops.ensureInstalled(shop);
    const current = await shops.get(shop);
    await shops.saveSettings(shop, { ...current!.settings, credentials: credentialsFor(shop), enabled: true });
  } finally {
    await database.close();
  }
}

const storages = [
  {
    name: 'pglite',
    make: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigterm-'));
      return {
        env: { DATA_DIR: dir },
        target: { kind: 'pglite', dataDir: path.join(dir, 'pglite') } as DatabaseTarget,
        drop: async () => {},
      };
    },
  },
  ...(postgresUrlForTests
    ? [
        {
          name: 'postgres',
          make: async () => {
            const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
            return { env: { DATABASE_URL: fresh.url }, target: { kind: 'postgres', url: fresh.url } as DatabaseTarget, drop: fresh.drop };
          },
        },
      ]
    : []),
];

describe.each(storages)('SIGTERM with trickling gateway answers on $name', (storage) => {
  it('exits within its bound; after a restart every order is issued once, numbers without a gap', async () => {
    const shop = `${storage.name}-${SHOP}`;
    const { env: storageEnv, target, drop } = await storage.make();
    try {
      await seed(target, shop);
      const port = await freePort();
      const env = {
        ...testAppEnv({ port, gatewayUrl: proxy.url, key, adminApiOrigin: simulator.origin }),
        ...storageEnv,
        GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS),
        SHOPIFY_TIMEOUT_MS: String(SHOPIFY_TIMEOUT_MS),
        WORKER_LEASE_MS: String(2 * GATEWAY_TIMEOUT_MS),
        WORKER_POLL_MS: '100',
        WORKER_RETRY_BASE_MS: '50',
        WORKER_RETRY_MAX_MS: '500',
        RECONCILE_INTERVAL_MINUTES: '0',
      };
      const trickled = () => proxy.requests.filter((r) => r.fault === 'trickle').length;
      const before = trickled();
      proxy.setRules([{ operation: 'SendDocument', fault: { kind: 'trickle' }, times: 3 }]);
      const first = spawnApp(env);
      await first.ready;
      const ids = Array.from({ length: 6 }, (_, i) => 7_250_000_000_000 + i);
      for (const id of ids) await simulator.orderPaid(shop, makePaidOrder({ id }), `http://127.0.0.1:${port}/webhooks/orders/paid`);
      await waitFor(async () => trickled() - before === 3, 20_000, 'three trickling answers');

      const signalled = Date.now();
      const code = await new Promise<number | null>((resolve) => {
        void first.exited.then(resolve);
        first.child.kill('SIGTERM');
      });
      const tookMs = Date.now() - signalled;
      // 0: every call in flight ended by its deadline and the app closed before the bound (1: the bound ended it).
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(SHUTDOWN_BOUND_MS + 3000);

      proxy.setRules([]);
      const second = spawnApp(env);
      await second.ready;
      await waitFor(
        async () => ids.every((id) => simulator.metafields(`gid://shopify/Order/${id}`, shop).some((m) => m.key === 'cufe')),
        60_000,
        'every order written back',
      );
      await second.kill();
      console.log(
        `SIGTERM with 3 trickling answers in flight on ${storage.name}: exited ${code} after ${tookMs} ms (bound ${SHUTDOWN_BOUND_MS})`,
      );

      const database = await openDatabase(target);
      try {
        const rows = await database.db.select().from(documents).where(eq(documents.shop, shop));
        expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
        expect(rows.map((r) => r.fiscalNumber).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6]);
        const issued = sandbox.gateway.documents().filter((d) => d.company === shop);
        expect(issued.map((d) => Number(d.numberDocumentFiscal)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
      } finally {
        await database.close();
      }
    } finally {
      await drop();
    }
  }, 120_000);
});
