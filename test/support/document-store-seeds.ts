// Rows for the documents store's contract suite: shops in a given state, documents put straight into the table in the
// state a test starts from (as earlier statements would have left them), and reads of what the statements wrote.
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/db/database.ts';
import { documents, gatewayCalls, shops, webhookDeliveries } from '../../src/db/schema.ts';
import type { DeliveryFacts, DocumentRow, NewDocument } from '../../src/documents/store/index.ts';
import type { GatewayCallRecord } from '../../src/gateway/gateway-client.ts';

/** Column values as an insert takes them: values or SQL (the database's clock). */
type Insert = PgInsertValue<typeof documents>;
/** What a test says about a document it puts; the rest takes defaults. */
export type Seed = { [K in keyof Insert]?: K extends 'orderGid' ? string : Insert[K] };

/** A shop name no other test uses. */
export const uniqueShop = (label: string) => `${label}-${randomBytes(3).toString('hex')}.myshopify.com`;

/** A shop row in the state a test needs; by default one the worker may not claim from (not enabled). */
export async function addShop(
  db: Db,
  label: string,
  state: { enabled?: boolean; installed?: boolean; paused?: boolean } = {},
): Promise<string> {
  const shop = uniqueShop(label);
  await db.insert(shops).values({
    shop,
    enabled: state.enabled ?? false,
    installed: state.installed ?? true,
    pausedReason: state.paused ? { key: 'credentials', params: { gatewayMessage: 'Credenciales inválidas' } } : null,
  });
  return shop;
}

let orders = 0;
/** A new order GID (unique in the file). */
export const orderGid = () => `gid://shopify/Order/${7_000_000_000_000 + ++orders}`;

/** A document as earlier statements would have left it: a pending invoice of a new order unless told otherwise. */
export async function put(db: Db, shop: string, values: Seed = {}): Promise<DocumentRow> {
  const gid = values.orderGid ?? orderGid();
  const kind = values.kind ?? 'invoice';
  const [row] = await db
    .insert(documents)
    .values({
      shop,
      kind,
      documentType: kind === 'invoice' ? '01' : '04',
      orderGid: gid,
      sourceKey: kind === 'invoice' ? gid : `gid://shopify/Refund/${gid.split('/').pop()}${randomBytes(2).toString('hex')}`,
      orderName: `#${gid.slice(-4)}`,
      totalCents: 1000,
      currency: 'USD',
      snapshot: {},
      ...values,
    })
    .returning();
  return row!;
}

/** A document leased to `owner` for a minute (the database's clock). */
export const leasedTo = (owner: string, values: Seed = {}): Seed => ({
  leaseOwner: owner,
  leaseUntil: sql`now() + interval '1 minute'`,
  ...values,
});

/** The row as stored now. */
export async function reread(db: Db, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** A database time `seconds` from now (negative: past). */
export const secondsFromNow = (seconds: number) => sql`now() + ${seconds} * interval '1 second'`;

/** A credit note as refunds/create brings it: no order name (taken from the order's invoice). */
export function newCreditNote(o: { shop: string; orderGid: string; refundGid: string; totalCents: number }): NewDocument {
  return {
    shop: o.shop,
    kind: 'credit_note',
    sourceKey: o.refundGid,
    documentType: '04',
    orderGid: o.orderGid,
    orderName: undefined,
    totalCents: o.totalCents,
    currency: 'USD',
    test: false,
    rawSnapshot: JSON.stringify({ id: Number(o.refundGid.split('/').pop()), order_id: Number(o.orderGid.split('/').pop()) }),
  };
}

export const delivery = (webhookId: string, topic = 'orders/paid'): DeliveryFacts => ({
  webhookId,
  eventId: `e-${webhookId}`,
  topic,
  triggeredAt: '2026-11-20T15:30:00Z',
});

/** The deliveries recorded for a shop, in the order recorded. */
export async function deliveriesOf(db: Db, shop: string) {
  return db
    .select({
      webhookId: webhookDeliveries.webhookId,
      eventId: webhookDeliveries.eventId,
      topic: webhookDeliveries.topic,
      orderGid: webhookDeliveries.orderGid,
      triggeredAt: webhookDeliveries.triggeredAt,
      outcome: webhookDeliveries.outcome,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.shop, shop))
    .orderBy(webhookDeliveries.id);
}

/** The gateway calls logged for a document, without their ids and times. */
export async function callsOf(db: Db, documentId: string) {
  const rows = await db.select().from(gatewayCalls).where(eq(gatewayCalls.documentId, documentId)).orderBy(gatewayCalls.id);
  return rows.map(({ id: _id, createdAt: _c, ...call }) => call);
}

/** A gateway call as the client records it. */
export const callRecord = (operation: GatewayCallRecord['operation'], o: Partial<GatewayCallRecord> = {}): GatewayCallRecord => ({
  operation,
  outcome: 'authorized',
  code: undefined,
  message: 'ok',
  durationMs: 120,
  request: { document: { codeBranchIssuer: '0000' }, Token: '[redacted]' },
  response: { code: '200' },
  ...o,
});

/** Two workers holding leases, and how long a lease lasts. */
export const OWNER = 'worker-a';
export const OTHER = 'worker-b';
export const LEASE_MS = 60_000;
export const numbering = { branchCode: '0000', billingPoint: '001', environment: 'pruebas' as const };
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
