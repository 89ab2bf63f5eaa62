// The privacy requests' statements on documents: finding a customer's documents, redacting them, deleting a shop's.
// Stored snapshots are matched as text first and read in JavaScript: one unreadable snapshot (deep nesting, a NUL)
// must not make the database's JSON functions fail the whole request.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database.ts';
import { documents, gatewayCalls } from '../../db/schema.ts';
import type { DocumentPatch, DocumentRow } from './document-rows.ts';

/** Whom a privacy request is about. */
export interface CustomerMatch {
  orderGids: readonly string[];
  /** Shopify's numeric customer id, as text. */
  customerId: string | undefined;
  /** Lower case. */
  email: string | undefined;
}

/**
 * The documents of a customer in a shop: those of the orders the request lists, of orders whose snapshot names the
 * customer (id or e-mail), and the credit notes of those orders.
 */
export async function findCustomerDocuments(db: Db | Tx, shop: string, who: CustomerMatch): Promise<DocumentRow[]> {
  const textMatches = [
    who.customerId !== undefined ? sql`strpos(${documents.snapshot}, ${who.customerId}) > 0` : undefined,
    who.email !== undefined ? sql`strpos(lower(${documents.snapshot}), ${who.email}) > 0` : undefined,
  ].filter((m) => m !== undefined);
  const candidates =
    textMatches.length === 0
      ? []
      : await db
          .select()
          .from(documents)
          .where(and(eq(documents.shop, shop), eq(documents.kind, 'invoice'), or(...textMatches)));
  const orders = new Set(who.orderGids);
  for (const row of candidates) if (namesCustomer(row.snapshot, who)) orders.add(row.orderGid);
  // A request may list any number of orders (150,000 and more): asked for in slices, each a statement of its own size.
  const rows: DocumentRow[] = [];
  for (const slice of slices([...orders])) {
    rows.push(
      ...(await db
        .select()
        .from(documents)
        .where(and(eq(documents.shop, shop), inArray(documents.orderGid, slice)))),
    );
  }
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** How many values one `in (…)` list holds: far below the drivers' parameter limit (65,535). */
export const IN_LIST_SLICE = 1000;

/** The list in slices of at most IN_LIST_SLICE values. */
export function slices<T>(list: readonly T[], size = IN_LIST_SLICE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function namesCustomer(snapshot: unknown, who: CustomerMatch): boolean {
  if (!snapshot || typeof snapshot !== 'object') return false;
  const order = snapshot as { email?: unknown; contact_email?: unknown; customer?: { id?: unknown; email?: unknown } | null };
  const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
  if (who.customerId !== undefined && order.customer && String(order.customer.id) === who.customerId) return true;
  if (who.email === undefined) return false;
  return [order.email, order.contact_email, order.customer?.email].some((e) => lower(e) === who.email);
}

/** Write a redacted copy of one document (its snapshot and, when never authorized, its document); a merchant's
 * correction of the client goes too. */
export async function updateRedacted(db: Db | Tx, id: string, patch: Pick<DocumentPatch, 'snapshot' | 'document'>): Promise<void> {
  await db
    .update(documents)
    .set({ ...patch, clientOverride: null, snapshotRedacted: true, updatedAt: sql`now()` })
    .where(eq(documents.id, id));
}

/** The SendDocument requests stored for these documents (each repeats the client block). */
export async function sendRequestsOf(db: Db | Tx, ids: readonly string[]): Promise<{ id: number; request: unknown }[]> {
  const out: { id: number; request: unknown }[] = [];
  for (const slice of slices(ids)) {
    out.push(
      ...(await db
        .select({ id: gatewayCalls.id, request: gatewayCalls.request })
        .from(gatewayCalls)
        .where(and(inArray(gatewayCalls.documentId, slice), eq(gatewayCalls.operation, 'SendDocument')))),
    );
  }
  return out;
}

export async function updateCallRequest(db: Db | Tx, id: number, request: unknown): Promise<void> {
  await db.update(gatewayCalls).set({ request }).where(eq(gatewayCalls.id, id));
}

/** shop/redact: the shop's documents and their PDFs (ON DELETE CASCADE) and gateway calls. */
export async function deleteShopDocuments(db: Db | Tx, shop: string): Promise<{ documents: number; gatewayCalls: number }> {
  const calls = await db.delete(gatewayCalls).where(eq(gatewayCalls.shop, shop)).returning({ id: gatewayCalls.id });
  const docs = await db.delete(documents).where(eq(documents.shop, shop)).returning({ id: documents.id });
  return { documents: docs.length, gatewayCalls: calls.length };
}
