// What the buyer's page reads and writes (docs/buyer-page.md): a document by its buyer link's token, the documents
// the page shows beside it (an invoice's credit notes, the invoice that replaced it or that it replaced, all of the
// same order), and the buyer's one request per invoice (buyer_requests).
import { and, asc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import type { BuyerRequestOutcome } from '../../db/buyer-request-state.ts';
import type { Language } from '../../db/languages.ts';
import { buyerRequests, documentPdfs, documents } from '../../db/schema.ts';
import type { DocumentRow } from './document-rows.ts';

export type BuyerRequestRow = typeof buyerRequests.$inferSelect;

/** A document with its PDF's link token (none before its PDF is stored). */
export type DocumentWithPdf = DocumentRow & { pdfToken: string | null };

/** The document behind a buyer link, with its PDF's token. */
export async function documentByBuyerToken(db: Db, token: string): Promise<DocumentWithPdf | undefined> {
  const [row] = await db
    .select({ doc: documents, pdfToken: documentPdfs.token })
    .from(documents)
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(eq(documents.buyerToken, token));
  return row && { ...row.doc, pdfToken: row.pdfToken };
}

/**
 * The documents of the same order the page names beside `doc`: for an invoice, its credit notes and the invoice
 * that replaced it; for a note, its invoice; for a replacement, the invoice it replaced. Oldest first.
 */
export async function buyerRelatives(db: Db, doc: Pick<DocumentRow, 'id' | 'shop' | 'orderGid' | 'invoiceId' | 'replacesId'>) {
  const links = [eq(documents.invoiceId, doc.id), eq(documents.replacesId, doc.id)];
  if (doc.invoiceId) links.push(eq(documents.id, doc.invoiceId));
  if (doc.replacesId) links.push(eq(documents.id, doc.replacesId));
  const rows = await db
    .select({ doc: documents, pdfToken: documentPdfs.token })
    .from(documents)
    .leftJoin(documentPdfs, eq(documentPdfs.documentId, documents.id))
    .where(and(eq(documents.shop, doc.shop), eq(documents.orderGid, doc.orderGid), or(...links)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map((r): DocumentWithPdf => ({ ...r.doc, pdfToken: r.pdfToken }));
}

/** The buyer's request for this invoice, if one was made. */
export async function buyerRequestOf(db: Db, invoiceId: string): Promise<BuyerRequestRow | undefined> {
  const [row] = await db.select().from(buyerRequests).where(eq(buyerRequests.invoiceId, invoiceId));
  return row;
}

/** The buyer requests of these invoices (the admin's list and detail). */
export async function buyerRequestsOf(db: Db, invoiceIds: readonly string[]): Promise<BuyerRequestRow[]> {
  if (invoiceIds.length === 0) return [];
  return db
    .select()
    .from(buyerRequests)
    .where(or(...invoiceIds.map((id) => eq(buyerRequests.invoiceId, id))));
}

/**
 * Record the buyer's request, first thing in the transaction that acts on it: the primary key lets one request per
 * invoice through; a concurrent second insert waits for the first to commit, then inserts nothing. Undefined when the
 * invoice has its request already.
 */
export async function claimBuyerRequest(
  db: Db,
  r: { invoiceId: string; shop: string; outcome: BuyerRequestOutcome; language: Language },
): Promise<BuyerRequestRow | undefined> {
  const [row] = await db.insert(buyerRequests).values(r).onConflictDoNothing().returning();
  return row;
}

/** A re-issue's documents, once stored (same transaction). */
export async function setBuyerRequestDocuments(db: Db, invoiceId: string, ids: { creditNoteId: string; replacementId: string }) {
  await db.update(buyerRequests).set(ids).where(eq(buyerRequests.invoiceId, invoiceId));
}
