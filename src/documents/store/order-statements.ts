// Statements that see an order's documents together: the sweep's "which orders have no invoice", a credit note's
// invoice and the notes already issued against it, waking the notes that wait for an invoice, and the relatives
// people see together (an invoice's notes, a note's invoice).
import { and, asc, desc, eq, exists, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documentPdfs, documents, webhookDeliveries } from '../../db/schema.ts';
import type { DocumentPatch, DocumentRow } from './document-rows.ts';
import { updateLeased } from './lease-statements.ts';
import { type DocumentListRow, orderDocuments } from './query-statements.ts';

/** Outcomes the webhook intake records when it deliberately does not invoice: the sweep respects them. */
export const NOT_PROCESSED_OUTCOMES = ['shop_not_installed', 'shop_not_enabled'];

/** Deliveries of the shop's orders that the intake refused (shop not installed or not enabled), of these orders. */
function refusedDeliveries(shop: string, orderGids: string[]) {
  return and(
    eq(webhookDeliveries.shop, shop),
    inArray(webhookDeliveries.orderGid, orderGids),
    inArray(webhookDeliveries.outcome, NOT_PROCESSED_OUTCOMES),
  );
}

/** The order's documents of one kind. */
function ofOrder(shop: string, orderGid: string, kind: DocumentRow['kind']) {
  return and(eq(documents.shop, shop), eq(documents.orderGid, orderGid), eq(documents.kind, kind));
}

/** A live credit note against the invoice, other than `except`: one that holds or may hold a document. */
function liveNotesAgainst(invoiceId: string, except: string) {
  return and(
    eq(documents.invoiceId, invoiceId),
    eq(documents.kind, 'credit_note'),
    ne(documents.id, except),
    sql`${documents.document} is not null`,
    ne(documents.status, 'skipped'),
  );
}

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
        .where(refusedDeliveries(shop, gids)),
    );
  const have = new Set(known.map((k) => k.orderGid));
  return new Set(gids.filter((g) => !have.has(g)));
}

/** The order's current invoice: the newest that was not replaced by another. */
export async function currentInvoice(db: Db, shop: string, orderGid: string): Promise<DocumentRow | undefined> {
  const rows = await db
    .select()
    .from(documents)
    .where(ofOrder(shop, orderGid, 'invoice'))
    .orderBy(desc(documents.createdAt));
  const replaced = new Set(rows.map((r) => r.replacesId).filter((id) => id !== null));
  return rows.find((r) => !replaced.has(r.id));
}

/** Whether the intake refused the order's orders/paid (shop not installed or not enabled): it will have no invoice. */
export async function orderWasRefused(db: Db, shop: string, orderGid: string): Promise<string | undefined> {
  const [row] = await db
    .select({ outcome: webhookDeliveries.outcome })
    .from(webhookDeliveries)
    .where(refusedDeliveries(shop, [orderGid]))
    .limit(1);
  return row?.outcome;
}

/**
 * The credit notes against an invoice other than `except`, oldest first, that hold or may hold a document: issued,
 * in flight, or numbered. Their documents bound what a new note may credit.
 */
export async function notesAgainst(db: Db, invoiceId: string, except: string): Promise<DocumentRow[]> {
  return db.select().from(documents).where(liveNotesAgainst(invoiceId, except)).orderBy(asc(documents.createdAt), asc(documents.id));
}

/** An invoice was authorized: the notes waiting for it may go now. */
export async function wakeWaitingNotes(db: Db, shop: string, orderGid: string): Promise<number> {
  const woken = await db
    .update(documents)
    .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(waitingNotes(shop, orderGid))
    .returning({ id: documents.id });
  return woken.length;
}

function waitingNotes(shop: string, orderGid: string) {
  return and(ofOrder(shop, orderGid, 'credit_note'), eq(documents.status, 'waiting'));
}

/**
 * The invoice's authorization saved under its lease and, in the same statement, the notes waiting for it woken: they
 * may go now. Undefined when the lease was lost (nothing woken then).
 */
export async function saveAuthorizedInvoice(
  db: Db,
  row: DocumentRow,
  owner: string,
  leaseMs: number,
  patch: DocumentPatch,
): Promise<DocumentRow | undefined> {
  const held = db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, row.id), eq(documents.leaseOwner, owner)));
  const woken = db.$with('woken').as(
    db
      .update(documents)
      .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(waitingNotes(row.shop, row.orderGid), exists(held)))
      .returning({ id: documents.id }),
  );
  return updateLeased(db, row, owner, leaseMs, patch, woken);
}

/** The order's credit notes the gateway authorized, oldest first (for the order's metafield). */
export async function completedNotes(db: Db, shop: string, orderGid: string): Promise<CompletedNote[]> {
  return db
    .select({
      id: documents.id,
      branchCode: documents.branchCode,
      billingPoint: documents.billingPoint,
      fiscalNumber: documents.fiscalNumber,
      cufe: documents.cufe,
      totalCents: documents.totalCents,
      sourceKey: documents.sourceKey,
      pdfToken: documentPdfs.token,
    })
    .from(documents)
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(and(ofOrder(shop, orderGid, 'credit_note'), sql`${documents.cufe} is not null`))
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

/** A completed credit note as the order's `credit_notes` metafield lists it, with its PDF's link token. */
export type CompletedNote = Pick<
  DocumentRow,
  'id' | 'branchCode' | 'billingPoint' | 'fiscalNumber' | 'cufe' | 'totalCents' | 'sourceKey'
> & {
  pdfToken: string | null;
};

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
    const now = await tx.select({ id: documents.id }).from(documents).where(liveNotesAgainst(credited.invoiceId, note.id));
    const same = now.length === credited.noteIds.length && now.every((n) => credited.noteIds.includes(n.id));
    if (!same) return 'stale';
    return updateLeased(tx, note, owner, leaseMs, patch);
  });
}

export type RelatedDocument = DocumentListRow & { pdfToken: string | null };

/** A document's relatives: an invoice's credit notes, a note's invoice, and the re-issue links both ways. */
export interface Relatives {
  invoice: RelatedDocument | undefined;
  notes: RelatedDocument[];
  /** The invoice that replaced this one (docs/design.md §9, re-issue to another client). */
  replacedBy: RelatedDocument | undefined;
  /** The invoice this one replaces. */
  replaces: RelatedDocument | undefined;
}

/**
 * A document's relatives among its order's documents (one query): an invoice's credit notes, or a note's invoice, and
 * the invoices a re-issue links. A note not linked yet (its invoice was not authorized when it last looked) belongs to
 * the order's invoice that no other invoice replaces, as it will be linked when it goes.
 */
export async function relatedDocuments(
  db: Db,
  doc: Pick<DocumentRow, 'id' | 'shop' | 'kind' | 'orderGid' | 'invoiceId' | 'replacesId'>,
): Promise<Relatives> {
  const rows = await orderDocuments(db, doc.shop, doc.orderGid);
  const replaced = new Set(rows.map((r) => r.replacesId));
  const current = rows.findLast((r) => r.kind === 'invoice' && !replaced.has(r.id));
  const invoiceOf = (note: Pick<DocumentRow, 'invoiceId'>) => (note.invoiceId === null ? current?.id : note.invoiceId);
  const links = {
    replacedBy: rows.find((r) => r.kind === 'invoice' && r.replacesId === doc.id),
    replaces: doc.replacesId === null ? undefined : rows.find((r) => r.id === doc.replacesId),
  };
  if (doc.kind === 'credit_note') return { invoice: rows.find((r) => r.id === invoiceOf(doc)), notes: [], ...links };
  return { invoice: undefined, notes: rows.filter((r) => r.kind === 'credit_note' && invoiceOf(r) === doc.id), ...links };
}

/** The fiscal numbers of these documents of a shop, by id (the invoices of a page of notes). */
export async function fiscalNumbersOf(
  db: Db,
  shop: string,
  ids: readonly string[],
): Promise<Pick<DocumentRow, 'id' | 'branchCode' | 'billingPoint' | 'fiscalNumber'>[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: documents.id,
      branchCode: documents.branchCode,
      billingPoint: documents.billingPoint,
      fiscalNumber: documents.fiscalNumber,
    })
    .from(documents)
    .where(and(eq(documents.shop, shop), inArray(documents.id, [...ids])));
}
