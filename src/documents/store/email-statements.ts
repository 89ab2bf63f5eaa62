// The buyer e-mail outbox's statements: queueing (with the document's completion, or a resend), the e-mail runner's
// leased claims and results, and what the page and the CLI read. Every runner update is guarded by its lease.
import { and, asc, desc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database.ts';
import { documentEmails, documentPdfs, documents, shops } from '../../db/schema.ts';
import type { EmailReason } from '../../db/email-state.ts';
import type { Language } from '../../db/languages.ts';
import type { Message } from '../../messages/message.ts';
import { type DocumentRow, formatFiscalNumber } from './document-rows.ts';

export type DocumentEmailRow = typeof documentEmails.$inferSelect;

export interface EmailToQueue {
  documentId: string;
  shop: string;
  recipient: string;
  language: Language;
}

const leaseEnd = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/**
 * The insert of a document's 'authorized' e-mail, as a CTE for the statement that completes the document: queued
 * in the same statement, so a crash cannot complete the document and lose its e-mail. At most one per document.
 */
export function authorizedEmailInsert(db: Db, email: EmailToQueue) {
  return db.$with('queued_email').as(
    db
      .insert(documentEmails)
      .values({ ...email, reason: 'authorized' })
      .onConflictDoNothing()
      .returning({ id: documentEmails.id }),
  );
}

/**
 * A resend: a new e-mail, or the one already waiting to go (pressing Resend twice, or twenty times at once, sends
 * once). The unique index on a document's pending resend decides between simultaneous presses: the insert that
 * loses does nothing and reads the winner's row.
 */
export async function queueResend(db: Db, email: EmailToQueue): Promise<{ email: DocumentEmailRow; queued: boolean }> {
  // A waiting row can be sent between the insert and the read: then the next round inserts anew.
  for (let round = 0; round < 3; round++) {
    const [waiting] = await db
      .select()
      .from(documentEmails)
      .where(and(eq(documentEmails.documentId, email.documentId), eq(documentEmails.status, 'pending')))
      .orderBy(desc(documentEmails.createdAt))
      .limit(1);
    if (waiting) return { email: waiting, queued: false };
    const reason: EmailReason = 'resend';
    const [row] = await db
      .insert(documentEmails)
      .values({ ...email, reason })
      .onConflictDoNothing()
      .returning();
    if (row) return { email: row, queued: true };
  }
  throw new Error(`the resend of document ${email.documentId} neither inserted nor found a waiting e-mail`);
}

/**
 * Take up to `limit` due e-mails of installed shops and lease them to `owner` (SKIP LOCKED: any number of runners
 * claim at once; an expired lease makes a row claimable again). Times come from the database clock.
 */
export async function claimDueEmails(db: Db, o: { owner: string; limit: number; leaseMs: number }): Promise<DocumentEmailRow[]> {
  const due = db
    .select({ id: documentEmails.id })
    .from(documentEmails)
    .innerJoin(shops, eq(shops.shop, documentEmails.shop))
    .where(
      and(
        eq(documentEmails.status, 'pending'),
        lte(documentEmails.nextAttemptAt, sql`now()`),
        or(isNull(documentEmails.leaseUntil), lte(documentEmails.leaseUntil, sql`now()`)),
        eq(shops.installed, true),
      ),
    )
    .orderBy(asc(documentEmails.nextAttemptAt))
    .limit(o.limit)
    .for('update', { of: documentEmails, skipLocked: true });
  return db
    .update(documentEmails)
    .set({ leaseOwner: o.owner, leaseUntil: leaseEnd(o.leaseMs), updatedAt: sql`now()` })
    .where(inArray(documentEmails.id, due))
    .returning();
}

/** The SMTP server took it: sent, with its time and Message-ID. False when the lease was lost. */
export async function markEmailSent(db: Db, id: string, owner: string, o: { messageId: string; attempts: number }): Promise<boolean> {
  return finishLeasedEmail(db, id, owner, { ...o, status: 'sent', sentAt: new Date(), lastError: null });
}

/** An attempt failed: try again at `nextAttemptAt`, or give up (`failed`), with the reason. */
export async function markEmailAttemptFailed(
  db: Db,
  id: string,
  owner: string,
  o: { attempts: number; failed: boolean; nextAttemptAt: Date; lastError: Message },
): Promise<boolean> {
  return finishLeasedEmail(db, id, owner, {
    status: o.failed ? 'failed' : 'pending',
    attempts: o.attempts,
    nextAttemptAt: o.nextAttemptAt,
    lastError: o.lastError,
  });
}

/** Write the attempt's result and drop the lease, if this runner still holds it. */
async function finishLeasedEmail(db: Db, id: string, owner: string, patch: Partial<typeof documentEmails.$inferInsert>): Promise<boolean> {
  const done = await db
    .update(documentEmails)
    .set({ ...patch, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(documentEmails.id, id), eq(documentEmails.leaseOwner, owner)))
    .returning({ id: documentEmails.id });
  return done.length > 0;
}

/** The e-mails of a document, newest first (of that shop, when given). */
export async function emailsOfDocument(db: Db, documentId: string, shop?: string): Promise<DocumentEmailRow[]> {
  return db
    .select()
    .from(documentEmails)
    .where(and(eq(documentEmails.documentId, documentId), shop === undefined ? undefined : eq(documentEmails.shop, shop)))
    .orderBy(desc(documentEmails.createdAt), desc(documentEmails.id));
}

/** What an e-mail is made of: its document and the stored PDF's bytes. */
export async function emailContent(
  db: Db,
  documentId: string,
): Promise<{ doc: DocumentRow; pdf: Buffer | undefined; invoiceNumber: string | undefined } | undefined> {
  const [found] = await db
    .select({ doc: documents, pdf: documentPdfs.bytes })
    .from(documents)
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(eq(documents.id, documentId));
  if (!found) return undefined;
  // A credit note's e-mail names the invoice it corrects.
  const invoiceId = found.doc.kind === 'credit_note' ? found.doc.invoiceId : null;
  const [invoice] =
    invoiceId === null
      ? []
      : await db
          .select({ branchCode: documents.branchCode, billingPoint: documents.billingPoint, fiscalNumber: documents.fiscalNumber })
          .from(documents)
          .where(eq(documents.id, invoiceId));
  const invoiceNumber = invoice && invoice.fiscalNumber !== null ? formatFiscalNumber(invoice) : undefined;
  return { doc: found.doc, pdf: found.pdf ?? undefined, invoiceNumber };
}

/** The order a document comes from, as stored: an invoice's own snapshot, a credit note's invoice's. */
export async function orderSnapshotOf(db: Db, doc: Pick<DocumentRow, 'kind' | 'snapshot' | 'invoiceId'>): Promise<unknown> {
  if (doc.kind === 'invoice' || doc.invoiceId === null) return doc.snapshot;
  const [invoice] = await db.select({ snapshot: documents.snapshot }).from(documents).where(eq(documents.id, doc.invoiceId));
  return invoice?.snapshot;
}

/** customers/redact: the buyer's e-mails not yet sent are dropped; those sent keep their record without the address. */
export async function forgetBuyerEmails(db: Db | Tx, documentIds: readonly string[]): Promise<void> {
  // In slices: a customer may have any number of documents.
  for (let i = 0; i < documentIds.length; i += 1000) {
    const ofDocuments = inArray(documentEmails.documentId, documentIds.slice(i, i + 1000));
    await db.delete(documentEmails).where(and(ofDocuments, ne(documentEmails.status, 'sent')));
    await db
      .update(documentEmails)
      .set({ recipient: '', updatedAt: sql`now()` })
      .where(ofDocuments);
  }
}
