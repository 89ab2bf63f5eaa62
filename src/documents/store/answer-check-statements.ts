// What the checks of a gateway's answers ask the documents table (docs/gateway-checks.md): who else holds a CUFE, the
// shop's issuer as its earlier authorizations name it, and how many numbers a document has skipped.
import { and, count, desc, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documents, fiscalSkips } from '../../db/schema.ts';

/** Another document of the shop that holds this CUFE, if any (its id and fiscal number). */
export async function cufeHolder(db: Db, shop: string, cufe: string, exceptId: string): Promise<{ id: string } | undefined> {
  const rows = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.cufe, cufe), ne(documents.id, exceptId)))
    .limit(1);
  return rows[0];
}

/** A CUFE the shop's documents were authorized under (the latest), other than this document's: it names the issuer. */
export async function shopIssuerCufe(db: Db, shop: string, exceptId: string): Promise<string | undefined> {
  const rows = await db
    .select({ cufe: documents.cufe })
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.status, 'completed'), isNotNull(documents.cufe), ne(documents.id, exceptId)))
    .orderBy(desc(documents.createdAt))
    .limit(1);
  return rows[0]?.cufe ?? undefined;
}

/** How many fiscal numbers the document has skipped (102 for a number used outside the app). */
export async function skipsOf(db: Db, documentId: string): Promise<number> {
  const rows = await db.select({ n: count() }).from(fiscalSkips).where(eq(fiscalSkips.documentId, documentId));
  return Number(rows[0]?.n ?? 0);
}
