// The app with fault proxies (sim/fault-proxy/) between it and the sandbox gateway and the store simulator, for the
// tests of what the app believes from them (docs/gateway-checks.md). Started in a describe block's beforeAll.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { documents, fiscalSkips, gatewayCalls } from '../../src/db/schema.ts';
import { type RunningFaultProxy, startFaultProxy } from '../../sim/fault-proxy/fault-proxy.ts';
import { type Harness, type HarnessOptions, startHarness, waitFor } from '../../sim/harness/harness.ts';
import { makePaidOrder } from './order-factory.ts';

export interface FaultRun {
  readonly h: Harness;
  readonly database: Database;
  /** Between the app and the sandbox gateway. */
  readonly gateway: RunningFaultProxy;
  /** Between the app and the store simulator's Admin API. */
  readonly admin: RunningFaultProxy;
  /** A fresh shop (its own fiscal sequence and taxpayer at the sandbox). */
  shop(settings?: Parameters<Harness['installShop']>[1]): Promise<string>;
  /** A paid order delivered for the shop; its order GID. */
  pay(shop: string, extra?: Partial<Parameters<typeof makePaidOrder>[0]>): Promise<string>;
  invoiceOf(orderGid: string): Promise<typeof documents.$inferSelect | undefined>;
  until(orderGid: string, statuses: readonly string[], timeoutMs?: number): Promise<typeof documents.$inferSelect>;
  /** The document's gateway calls, "operation:outcome:code". */
  calls(documentId: string): Promise<string[]>;
  callRows(documentId: string): Promise<(typeof gatewayCalls.$inferSelect)[]>;
  skips(documentId: string): Promise<number[]>;
}

let shopCount = 0;
let orderId = 7_300_000_000_000;

export function faultHarnessFor(
  target: { name: string; open(): Promise<Database> },
  options: () => Omit<HarnessOptions, 'database' | 'through'> = () => ({}),
): FaultRun {
  let database: Database | undefined;
  let h: Harness | undefined;
  let gateway: RunningFaultProxy | undefined;
  let admin: RunningFaultProxy | undefined;
  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({
      ...options(),
      database,
      through: {
        gateway: async (url) => (gateway = await startFaultProxy({ upstream: url })).url,
        admin: async (origin) => (admin = await startFaultProxy({ upstream: origin })).origin,
      },
    });
  });
  afterEach(() => {
    gateway?.setRules([]);
    admin?.setRules([]);
    h?.sandbox.gateway.setFaults({});
  });
  afterAll(async () => {
    await h?.close();
    await gateway?.close();
    await admin?.close();
    await database?.close();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} starts in beforeAll`);
    return value;
  };
  const run: FaultRun = {
    get h() {
      return need(h, 'the harness');
    },
    get database() {
      return need(database, 'the database');
    },
    get gateway() {
      return need(gateway, 'the gateway proxy');
    },
    get admin() {
      return need(admin, 'the admin proxy');
    },
    async shop(settings = {}) {
      const shop = `tienda-fallas-${process.pid}-${++shopCount}.myshopify.com`;
      await run.h.installShop(shop, settings);
      return shop;
    },
    async pay(shop, extra = {}) {
      const id = ++orderId;
      await run.h.simulator.orderPaid(shop, makePaidOrder({ id, ...extra }), run.h.webhookAddress);
      return `gid://shopify/Order/${id}`;
    },
    async invoiceOf(orderGid) {
      return (
        await run.database.db
          .select()
          .from(documents)
          .where(and(eq(documents.orderGid, orderGid), eq(documents.kind, 'invoice')))
      )[0];
    },
    until(orderGid, statuses, timeoutMs = 30_000) {
      return waitFor(
        async () => {
          const row = await run.invoiceOf(orderGid);
          return row && statuses.includes(row.status) ? row : undefined;
        },
        timeoutMs,
        `invoice ${orderGid} to be ${statuses.join(' or ')}`,
      );
    },
    async callRows(documentId) {
      return run.database.db.select().from(gatewayCalls).where(eq(gatewayCalls.documentId, documentId)).orderBy(asc(gatewayCalls.id));
    },
    async calls(documentId) {
      return (await run.callRows(documentId)).map((c) => `${c.operation}:${c.outcome}:${c.code ?? '-'}`);
    },
    async skips(documentId) {
      const rows = await run.database.db.select().from(fiscalSkips).where(eq(fiscalSkips.documentId, documentId));
      return rows.map((r) => r.number).sort((a, b) => a - b);
    },
  };
  return run;
}
