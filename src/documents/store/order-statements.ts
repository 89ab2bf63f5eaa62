// Statements that see an order's documents together: the sweep's "which orders have no invoice", a credit note's
// invoice and the notes already issued against it, and waking the notes that wait for an invoice.
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documents, webhookDeliveries } from '../../db/schema.ts';
import type { DocumentPatch, DocumentRow } from './document-rows.ts';
import { updateLeased } from './lease-statements.ts';

/** Outcomes the webhook intake records when it deliberately does not invoice: the sweep respects them. */
export const NOT_PROCESSED_OUTCOMES = ['shop_not_installed', 'shop_not_enabled'];

/** Of these order GIDs, those with no invoice and no delivery the intake refused (one query). */
export async function ordersWithoutInvoice(db: Db, shop: string, orderGids: readonly string[]): Promise<Set<string>> {
  if (orderGids.length === 0) return new Set();
  const gids = [...orderGids];
  const known = await db
    .select({ orderGid: sql<string>`${documents.orderGid}` })
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.kind, 'invoice'), inArray(documents.orderGid, gids)))
    .union(
      db
        .select({ orderGid: sql<string>`${webhookDeliveries.orderGid}` })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.shop, shop),
            inArray(webhookDeliveries.orderGid, gids),
            inArray(webhookDeliveries.outcome, NOT_PROCESSED_OUTCOMES),
          ),
        ),
    );
  const have = new Set(known.map((k) => k.orderGid));
  return new Set(gids.filter((g) => !have.has(g)));
}

/** The order's current invoice: the newest that was not replaced by another. */
export async function currentInvoice(db: Db, shop: string, orderGid: string): Promise<DocumentRow | undefined> {
  const rows = await db
    .select()
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.orderGid, orderGid), eq(documents.kind, 'invoice')))
    .orderBy(desc(documents.createdAt));
  const replaced = new Set(rows.map((r) => r.replacesId).filter((id) => id !== null));
  return rows.find((r) => !replaced.has(r.id));
}

/** Whether the intake refused the order's orders/paid (shop not installed or not enabled): it will have no invoice. */
export async function orderWasRefused(db: Db, shop: string, orderGid: string): Promise<string | undefined> {
  const [row] = await db
    .select({ outcome: webhookDeliveries.outcome })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.shop, shop),
        eq(webhookDeliveries.orderGid, orderGid),
        inArray(webhookDeliveries.outcome, NOT_PROCESSED_OUTCOMES),
      ),
    )
    .limit(1);
  return row?.outcome;
}

/**
 * The credit notes against an invoice other than `except`, oldest first, that hold or may hold a document: issued,
 * in flight, or numbered. Their documents bound what a new note may credit.
 */
export async function notesAgainst(db: Db, invoiceId: string, except: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.invoiceId, invoiceId),
        eq(documents.kind, 'credit_note'),
        ne(documents.id, except),
        sql`${documents.document} is not null`,
        ne(documents.status, 'skipped'),
      ),
    )
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

/** An invoice was authorized: the notes waiting for it may go now. */
export async function wakeWaitingNotes(db: Db, shop: string, orderGid: string): Promise<number> {
  const woken = await db
    .update(documents)
    .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(eq(documents.shop, shop), eq(documents.orderGid, orderGid), eq(documents.kind, 'credit_note'), eq(documents.status, 'waiting')),
    )
    .returning({ id: documents.id });
  return woken.length;
}

/** The order's credit notes the gateway authorized, oldest first (for the order's metafield). */
export async function completedNotes(db: Db, shop: string, orderGid: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.shop, shop),
        eq(documents.orderGid, orderGid),
        eq(documents.kind, 'credit_note'),
        sql`${documents.cufe} is not null`,
      ),
    )
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

/**
 * Save a credit note's document before it is sent, but only if the notes already holding a document against its
 * invoice are still the ones the note was mapped against: under a lock on the invoice row, so two notes of one invoice
 * never both pass the "never more than the invoice" check on the same state. 'stale' when another note got there
 * first (map again); undefined when the lease was lost.
 */
export async function saveNoteIfCreditedUnchanged(
  db: Db,
  note: DocumentRow,
  owner: string,
  leaseMs: number,
  patch: DocumentPatch,
  credited: { invoiceId: string; noteIds: readonly string[] },
): Promise<DocumentRow | 'stale' | undefined> {
  return db.transaction(async (tx) => {
    await tx.select({ id: documents.id }).from(documents).where(eq(documents.id, credited.invoiceId)).for('update');
    const now = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(
        and(
          eq(documents.invoiceId, credited.invoiceId),
          eq(documents.kind, 'credit_note'),
          ne(documents.id, note.id),
          sql`${documents.document} is not null`,
          ne(documents.status, 'skipped'),
        ),
      );
    const same = now.length === credited.noteIds.length && now.every((n) => credited.noteIds.includes(n.id));
    if (!same) return 'stale';
    return updateLeased(tx, note, owner, leaseMs, patch);
  });
}
