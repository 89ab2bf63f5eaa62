// What the checks of a gateway's answers ask the documents table (docs/gateway-checks.md): who else holds a CUFE, the
// shop's issuer as its earlier authorizations name it, and how many numbers a document has skipped.
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.ts';
import { documents, fiscalSkips, shops } from '../../db/schema.ts';

/** Another document of the shop that holds this CUFE, if any (its id and fiscal number). */
export async function cufeHolder(db: Db, shop: string, cufe: string, exceptId: string): Promise<{ id: string } | undefined> {
  const rows = await holderQuery(db, shop, cufe, exceptId);
  return rows[0];
}

/**
 * The CUFE of the shop's latest completed document, other than this one, when it was authorized since the shop's
 * settings last changed: it names the shop's issuer (a merchant who changes the taxpayer's credentials starts again).
 * One row through the (shop, status, created_at) index, whatever the shop's size.
 */
export async function shopIssuerCufe(db: Db, shop: string, exceptId: string): Promise<string | undefined> {
  const [latest] = await latestCompletedQuery(db, shop, exceptId);
  return issuerOf(latest);
}

/**
 * Both reads an authorization's checks need, in one statement (one per authorized document): the shop's issuer CUFE as
 * `shopIssuerCufe` gives it, and whether another document of the shop holds this CUFE (`cufeHolder`).
 */
export async function authorizationChecks(
  db: Db,
  shop: string,
  cufe: string,
  exceptId: string,
): Promise<{ issuerCufe: string | undefined; held: boolean }> {
  const holder = holderQuery(db, shop, cufe, exceptId);
  const latest = latestCompletedQuery(db, shop, exceptId);
  const [row] = rowsOf<{ held: boolean; cufe: string | null; current: boolean | null }>(
    await db.execute(
      sql`select exists (${holder}) as held, latest.cufe, latest.current from (select 1) one left join lateral (${latest}) latest on true`,
    ),
  );
  return { issuerCufe: issuerOf(row), held: row?.held === true };
}

function holderQuery(db: Db, shop: string, cufe: string, exceptId: string) {
  return db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.cufe, cufe), ne(documents.id, exceptId)))
    .limit(1);
}

/** The shop's latest completed document but this one: its CUFE, and whether it was authorized since the settings changed. */
function latestCompletedQuery(db: Db, shop: string, exceptId: string) {
  return db
    .select({ cufe: documents.cufe, current: sql<boolean | null>`${documents.authorizedAt} >= ${shops.updatedAt}`.as('current') })
    .from(documents)
    .innerJoin(shops, eq(shops.shop, documents.shop))
    .where(and(eq(documents.shop, shop), eq(documents.status, 'completed'), ne(documents.id, exceptId)))
    .orderBy(desc(documents.createdAt))
    .limit(1);
}

/** A latest completed document's CUFE names the issuer only when it was authorized under the current settings. */
function issuerOf(latest: { cufe: string | null; current: boolean | null } | undefined): string | undefined {
  return latest?.cufe && latest.current ? latest.cufe : undefined;
}

/** How many fiscal numbers the document has skipped (102 for a number used outside the app). */
export async function skipsOf(db: Db, documentId: string): Promise<number> {
  const rows = await db.select({ n: count() }).from(fiscalSkips).where(eq(fiscalSkips.documentId, documentId));
  return Number(rows[0]?.n ?? 0);
}
