// Number series under two app processes sharing PostgreSQL (docs/series.md): 500 orders spread over two mapped Shopify
// locations and the online store, delivered to both processes at once. Every series is gapless from 1, no number is
// given twice, and the gateway holds exactly what the database says.
import { randomBytes } from 'node:crypto';
import { Session } from '@shopify/shopify-api';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import { documents, fiscalSkips } from '../../../src/db/schema.ts';
import { EncryptedSessionStorage } from '../../../src/shopify/session-storage.ts';
import { createSecretBox } from '../../../src/shops/secret-box.ts';
import { ShopRepository } from '../../../src/shops/shop-repository.ts';
import { type AppProcess, spawnApp, testAppEnv } from '../../../sim/harness/app-process.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';
import { TEST_API_KEY, TEST_API_SECRET, credentialsFor, freePort, waitFor } from '../../../sim/harness/harness.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-cajas.myshopify.com';
const COLON = 71_000_000_001;
const DAVID = 71_000_000_002;
const ORDERS = 500;

describe('series under two app processes', () => {
  let sandbox: RunningSandbox;
  let simulator: StoreSimulator;
  beforeAll(async () => {
    sandbox = await startSandboxServer({ seed: 27 });
    simulator = await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
  });
  afterAll(async () => {
    await simulator.close();
    await sandbox.close();
  });

  it.skipIf(!postgresUrlForTests)(
    `two processes × ${ORDERS} orders over three locations: every series gapless from 1, no number twice`,
    async () => {
      const key = randomBytes(32);
      const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
      const database = await openDatabase({ kind: 'postgres', url: fresh.url });
      const apps: AppProcess[] = [];
      try {
        const box = createSecretBox(key);
        const { accessToken } = simulator.addShop(SHOP);
        await new EncryptedSessionStorage(database.db, box).storeSession(
          new Session({
            id: `offline_${SHOP}`,
            shop: SHOP,
            state: 'test',
            isOnline: false,
            accessToken,
            scope: 'read_orders,write_orders',
          }),
        );
        const shops = new ShopRepository(database.db, box);
        await shops.ensureInstalled(SHOP);
        const saved = await shops.saveSettings(SHOP, {
          ...(await shops.get(SHOP))!.settings,
          locations: { [COLON]: { branchCode: '0002', billingPoint: '001' }, [DAVID]: { branchCode: '0002', billingPoint: '002' } },
          credentials: credentialsFor(SHOP),
          enabled: true,
        });
        expect(saved.ok).toBe(true);

        const ports: number[] = [];
        for (let n = 0; n < 2; n++) {
          const port = await freePort();
          ports.push(port);
          apps.push(
            spawnApp({
              ...testAppEnv({ port, gatewayUrl: sandbox.url, key, adminApiOrigin: simulator.origin }),
              DATABASE_URL: fresh.url,
              WORKER_POLL_MS: '100',
              WORKER_RETRY_BASE_MS: '50',
              WORKER_RETRY_MAX_MS: '500',
              WORKER_MAX_ATTEMPTS: '50',
            }),
          );
        }
        await Promise.all(apps.map((a) => a.ready));

        const where = [COLON, DAVID, null];
        let next = 0;
        const statuses: number[] = [];
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            while (next < ORDERS) {
              const i = next++;
              const order = { ...makePaidOrder({ id: 7_500_000_000_000 + i }), location_id: where[i % 3] };
              const address = `http://127.0.0.1:${ports[i % 2]}/webhooks/orders/paid`;
              statuses.push((await simulator.orderPaid(SHOP, order, address)).status);
            }
          }),
        );
        expect(statuses.filter((s) => s === 200)).toHaveLength(ORDERS);
        await waitFor(
          async () => {
            const [row] = await database.db
              .select({ n: sql<number>`count(*)::int` })
              .from(documents)
              .where(eq(documents.status, 'completed'));
            return row!.n === ORDERS;
          },
          150_000,
          `${ORDERS} completed invoices`,
        );

        const rows = await database.db.select().from(documents).where(eq(documents.shop, SHOP));
        const series = new Map<string, number[]>();
        for (const r of rows) {
          const name = `${r.branchCode}-${r.billingPoint} ${r.documentType} ${r.environment}`;
          series.set(name, [...(series.get(name) ?? []), r.fiscalNumber!]);
        }
        const counts = { '0002-001': 167, '0002-002': 167, '0000-001': 166 };
        expect([...series.keys()].sort()).toEqual(
          Object.keys(counts)
            .map((p) => `${p} 01 pruebas`)
            .sort(),
        );
        for (const [point, count] of Object.entries(counts)) {
          const numbers = series.get(`${point} 01 pruebas`)!.sort((a, b) => a - b);
          expect(numbers).toEqual(Array.from({ length: count }, (_, i) => i + 1));
        }
        // Each order in its location's series.
        for (const r of rows) {
          const i = Number(r.orderGid.split('/').pop()) - 7_500_000_000_000;
          expect(`${r.branchCode}-${r.billingPoint}`).toBe(['0002-001', '0002-002', '0000-001'][i % 3]);
        }
        expect(await database.db.select().from(fiscalSkips)).toEqual([]);
        // The gateway issued each number of each series once, with the CUFE the database keeps.
        const issued = sandbox.gateway.documents().filter((d) => d.company === SHOP);
        expect(issued).toHaveLength(ORDERS);
        const cufes = new Map(
          issued.map((d) => [`${d.codeBranchIssuer}-${d.pointBillingFiscal}-${Number(d.numberDocumentFiscal)}`, d.cufe]),
        );
        expect(cufes.size).toBe(ORDERS);
        for (const r of rows) expect(r.cufe).toBe(cufes.get(`${r.branchCode}-${r.billingPoint}-${r.fiscalNumber}`));
        // Both processes did part of the work.
        const byWorker = apps.map((a) => a.output.filter((l) => l.includes('"invoice completed"')).length);
        expect(byWorker[0]! + byWorker[1]!).toBe(ORDERS);
        expect(Math.min(...byWorker)).toBeGreaterThan(0);
      } finally {
        await Promise.all(apps.map((a) => a.kill()));
        await database.close();
        await fresh.drop();
      }
    },
    240_000,
  );
});
