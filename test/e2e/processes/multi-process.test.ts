// The app as real processes: two workers sharing a PostgreSQL queue, and a process killed with SIGKILL mid-flight.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/db/database.ts';
import { fiscalSkips, documents } from '../../../src/db/schema.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { EncryptedSessionStorage } from '../../../src/shopify/session-storage.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { createSecretBox } from '../../../src/shops/secret-box.ts';
import { ShopRepository } from '../../../src/shops/shop-repository.ts';
import { type AppProcess, spawnApp, testAppEnv } from '../../../sim/harness/app-process.ts';
import { createFreshPostgresDatabase, postgresUrlForTests, terminateBackends } from '../../../sim/harness/databases.ts';
import { TEST_API_KEY, TEST_API_SECRET, credentialsFor, freePort, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-procesos.myshopify.com';

interface World {
  sandbox: RunningSandbox;
  simulator: StoreSimulator;
  key: Buffer;
}

async function seedShop(database: Database, world: World): Promise<void> {
  const box = createSecretBox(world.key);
  const { accessToken } = world.simulator.addShop(SHOP);
  await new EncryptedSessionStorage(database.db, box).storeSession(
    new Session({ id: `offline_${SHOP}`, shop: SHOP, state: 'test', isOnline: false, accessToken, scope: 'read_orders,write_orders' }),
  );
  const shops = new ShopRepository(database.db, box);
  await shops.ensureInstalled(SHOP);
  const current = await shops.get(SHOP);
  await shops.saveSettings(SHOP, { ...current!.settings, credentials: credentialsFor(SHOP), enabled: true });
}

async function appEnv(world: World, storage: Record<string, string>, extra: Record<string, string> = {}) {
  const port = await freePort();
  return {
    port,
    env: {
      ...testAppEnv({ port, gatewayUrl: world.sandbox.url, key: world.key, adminApiOrigin: world.simulator.origin }),
      WORKER_POLL_MS: '100',
      WORKER_RETRY_BASE_MS: '50',
      WORKER_RETRY_MAX_MS: '500',
      WORKER_MAX_ATTEMPTS: '50',
      ...storage,
      ...extra,
    },
  };
}

/** Deliver orders with a bounded number in flight, like a burst from Shopify. */
async function deliver(world: World, ids: number[], address: (i: number) => string, concurrency = 20): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const i = next++;
        const result = await world.simulator.orderPaid(SHOP, makePaidOrder({ id: ids[i]! }), address(i));
        statuses.push(result.status);
      }
    }),
  );
  return statuses;
}

async function completedCount(database: Database): Promise<number> {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .where(eq(documents.status, 'completed'));
  return row!.n;
}

/** Every order once, every number once, and the gateway agrees. */
async function expectExactlyOnce(database: Database, world: World, ids: number[]): Promise<number[]> {
  const rows = await database.db.select().from(documents).where(eq(documents.shop, SHOP));
  expect(rows).toHaveLength(ids.length);
  expect(rows.every((r) => r.status === 'completed')).toBe(true);
  const numbers = rows.map((r) => r.fiscalNumber!).sort((a, b) => a - b);
  expect(new Set(numbers).size).toBe(ids.length);
  const issued = world.sandbox.gateway.documents().filter((d) => d.company === SHOP);
  expect(issued).toHaveLength(ids.length);
  const issuedNumbers = issued.map((d) => Number(d.numberDocumentFiscal)).sort((a, b) => a - b);
  expect(issuedNumbers).toEqual(numbers);
  const cufes = new Map(issued.map((d) => [Number(d.numberDocumentFiscal), d.cufe]));
  for (const r of rows) expect(r.cufe).toBe(cufes.get(r.fiscalNumber!));
  const byGid = new Map(rows.map((r) => [r.orderGid, r]));
  for (const id of ids) {
    const gid = `gid://shopify/Order/${id}`;
    const fields = Object.fromEntries(world.simulator.metafields(gid, SHOP).map((f) => [f.key, f.value]));
    const row = byGid.get(gid)!;
    expect(fields.cufe).toBe(row.cufe);
    // An invoice recovered after a lost answer has no protocol number to write.
    const keys = ['authorized_at', 'buyer_url', 'cufe', 'fiscal_number', 'pdf_url', ...(row.protocol ? ['protocol'] : []), 'qr_url'];
    expect(Object.keys(fields).sort()).toEqual(keys);
  }
  return numbers;
}

describe('the app as processes', () => {
  let world: World;
  beforeAll(async () => {
    world = {
      sandbox: await startSandboxServer({ seed: 11 }),
      simulator: await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET }),
      key: randomBytes(32),
    };
  });
  afterAll(async () => {
    await world.simulator.close();
    await world.sandbox.close();
  });

  it.skipIf(!postgresUrlForTests)(
    'two worker processes on PostgreSQL invoice 500 orders once each, numbered 1…500 without gaps',
    async () => {
      const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
      const database = await openDatabase({ kind: 'postgres', url: fresh.url });
      const apps: AppProcess[] = [];
      try {
        await seedShop(database, world);
        const ports: number[] = [];
        for (let n = 0; n < 2; n++) {
          const { env, port } = await appEnv(world, { DATABASE_URL: fresh.url });
          ports.push(port);
          apps.push(spawnApp(env));
        }
        await Promise.all(apps.map((a) => a.ready));

        const ids = Array.from({ length: 500 }, (_, i) => 7_100_000_000_000 + i);
        const statuses = await deliver(world, ids, (i) => `http://127.0.0.1:${ports[i % 2]}/webhooks/orders/paid`);
        expect(statuses.filter((s) => s === 200)).toHaveLength(500);
        await waitFor(async () => (await completedCount(database)) === 500, 120_000, '500 completed invoices');

        const numbers = await expectExactlyOnce(database, world, ids);
        expect(numbers).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
        expect(await database.db.select().from(fiscalSkips)).toEqual([]);
        // Both processes did part of the work.
        const byWorker = apps.map((a) => a.output.filter((l) => l.includes('"invoice completed"')).length);
        expect(byWorker[0]! + byWorker[1]!).toBe(500);
        expect(Math.min(...byWorker)).toBeGreaterThan(0);
      } finally {
        await Promise.all(apps.map((a) => a.kill()));
        await database.close();
        await fresh.drop();
      }
    },
    180_000,
  );

  it.skipIf(!postgresUrlForTests)(
    'PostgreSQL connections cut again and again during intake: the process never exits, no delivery answered 200 is lost',
    async () => {
      const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
      const database = await openDatabase({ kind: 'postgres', url: fresh.url });
      let app: AppProcess | undefined;
      try {
        await seedShop(database, world);
        const { env, port } = await appEnv(world, { DATABASE_URL: fresh.url });
        app = spawnApp(env);
        await app.ready;
        let exitedAt: number | null | undefined;
        void app.exited.then((code) => (exitedAt = code));
        const address = `http://127.0.0.1:${port}/webhooks/orders/paid`;

        // Deliveries without retries, so each answer is what the app said then. Every 250 ms meanwhile the
        // app's backends are ended, when one of them is inside a transaction (the worker's) if that comes
        // within 200 ms: postgres.js then wrote the rollback to a closed socket from a timer (porsager/postgres#1208).
        const ids = Array.from({ length: 1500 }, (_, i) => 7_400_000_000_000 + i);
        let streaming = true;
        const cutting = (async () => {
          let cuts = 0;
          while (streaming) {
            await new Promise((r) => setTimeout(r, 250));
            cuts += await terminateBackends(postgresUrlForTests!, fresh.url, { midTransaction: 200 });
          }
          return cuts;
        })();
        const answered = new Map<number, number>();
        let next = 0;
        await Promise.all(
          Array.from({ length: 50 }, async () => {
            while (next < ids.length) {
              const id = ids[next++]!;
              const result = await world.simulator.orderPaid(SHOP, makePaidOrder({ id }), address);
              answered.set(id, result.status);
            }
          }),
        );
        streaming = false;
        const cuts = await cutting;
        expect(cuts).toBeGreaterThan(10);
        expect(exitedAt).toBeUndefined();

        // Every delivery answered 200 is stored; the others (500 while its statement's connection died) Shopify retries.
        const ok = ids.filter((id) => answered.get(id) === 200);
        expect(ok.length).toBeGreaterThan(750);
        expect([...new Set(answered.values())].filter((s) => s !== 200 && s !== 500 && s !== 503)).toEqual([]);
        const stored = await database.db.select({ gid: documents.orderGid }).from(documents);
        const storedGids = new Set(stored.map((r) => r.gid));
        expect(ok.filter((id) => !storedGids.has(`gid://shopify/Order/${id}`))).toEqual([]);

        // Later requests succeed, and the worker goes on invoicing.
        const later = Array.from({ length: 20 }, (_, i) => 7_400_000_100_000 + i);
        const laterStatuses = await Promise.all(
          later.map(async (id) => (await world.simulator.orderPaid(SHOP, makePaidOrder({ id }), address)).status),
        );
        expect(laterStatuses).toEqual(later.map(() => 200));
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        const completed = await completedCount(database);
        await waitFor(async () => (await completedCount(database)) >= completed + 50, 120_000, '50 more completed invoices');
        expect(exitedAt).toBeUndefined();
      } finally {
        await app?.kill();
        await database.close();
        await fresh.drop();
      }
    },
    240_000,
  );

  const targets = [
    {
      name: 'PGlite',
      base: 7_200_000_000_000,
      storage: async (): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> => ({
        env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fe-kill-')) },
        drop: async () => {},
      }),
    },
    ...(postgresUrlForTests
      ? [
          {
            name: 'PostgreSQL',
            base: 7_300_000_000_000,
            storage: async (): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> => {
              const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
              return { env: { DATABASE_URL: fresh.url }, drop: fresh.drop };
            },
          },
        ]
      : []),
  ];

  it.each(targets)(
    'SIGKILL with 200 invoices in flight: after restart every order is authorized once, no number used twice ($name)',
    async ({ storage, base }) => {
      const { env: storageEnv, drop } = await storage();
      const shopWorld = { ...world, sandbox: await startSandboxServer({ seed: 12, faults: { latencyMs: { min: 100, max: 400 } } }) };
      // Short lease and time-out so the dead process's invoices are taken over within seconds.
      const timing = { WORKER_LEASE_MS: '4000', GATEWAY_TIMEOUT_MS: '2000', WORKER_CONCURRENCY: '16', WORKER_SHOP_CONCURRENCY: '16' };
      let app: AppProcess | undefined;
      try {
        // Seed through a short-lived connection (PGlite: the data directory holds one process at a time).
        const seedDb = storageEnv.DATABASE_URL
          ? await openDatabase({ kind: 'postgres', url: storageEnv.DATABASE_URL })
          : await openDatabase({ kind: 'pglite', dataDir: path.join(storageEnv.DATA_DIR!, 'pglite') });
        await seedShop(seedDb, shopWorld);
        await seedDb.close();

        const first = await appEnv(shopWorld, storageEnv, timing);
        app = spawnApp(first.env);
        await app.ready;
        const ids = Array.from({ length: 200 }, (_, i) => base + i);
        const statuses = await deliver(shopWorld, ids, () => `http://127.0.0.1:${first.port}/webhooks/orders/paid`, 40);
        expect(statuses.filter((s) => s === 200)).toHaveLength(200);
        // Kill while work is in hand: some done, most not.
        await waitFor(
          async () => app!.output.filter((l) => l.includes('"invoice completed"')).length >= 10,
          60_000,
          'the first completions',
        );
        await app.kill('SIGKILL');
        const doneBeforeKill = app.output.filter((l) => l.includes('"invoice completed"')).length;
        expect(doneBeforeKill).toBeLessThan(200);

        const second = await appEnv(shopWorld, storageEnv, timing);
        app = spawnApp(second.env);
        await app.ready;
        const database = storageEnv.DATABASE_URL ? await openDatabase({ kind: 'postgres', url: storageEnv.DATABASE_URL }) : undefined;
        try {
          if (database) {
            await waitFor(async () => (await completedCount(database)) === 200, 120_000, '200 completed invoices');
            await expectExactlyOnce(database, shopWorld, ids);
          } else {
            await waitFor(
              async () => ids.every((id) => shopWorld.simulator.metafields(`gid://shopify/Order/${id}`, SHOP).length >= 5),
              120_000,
              'every order written back',
            );
            await app.kill();
            const pglite = await openDatabase({ kind: 'pglite', dataDir: path.join(storageEnv.DATA_DIR!, 'pglite') });
            try {
              await expectExactlyOnce(pglite, shopWorld, ids);
            } finally {
              await pglite.close();
            }
          }
        } finally {
          await database?.close();
        }
      } finally {
        await app?.kill();
        await shopWorld.sandbox.close();
        await drop();
      }
    },
    240_000,
  );
});
