// The merchant's correction of an invoice's client (docs/design.md §10), saved or removed in one update that also checks the
// document may take it: the shop's invoice, stopped for a person (needs attention, failed), not yet authorized.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ClientCorrection } from '../../../mappers/invoice/client-correction.ts';
import type { Db } from '../../db/database.ts';
import { documents } from '../../db/schema.ts';
import { RETRYABLE_STATUSES } from '../../db/document-state.ts';
import type { DocumentRow } from './document-rows.ts';
import { backInTheQueue } from './query-statements.ts';

/** The SQL twin of correct-client.ts `isCorrectable`. */
const correctable = (shop: string, id: string) =>
  and(
    eq(documents.shop, shop),
    eq(documents.id, id),
    eq(documents.kind, 'invoice'),
    eq(documents.step, 'send'),
    isNull(documents.cufe),
    inArray(documents.status, RETRYABLE_STATUSES),
  );

/**
 * Save the correction and send the invoice back to the queue (the order is read again too). The reason it stopped
 * goes with it: the correction answers it. Undefined when the shop has no such invoice or it cannot take one now.
 */
export async function saveClientCorrection(
  db: Db,
  shop: string,
  id: string,
  correction: ClientCorrection,
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .update(documents)
    .set({ ...backInTheQueue(), clientOverride: correction, lastErrorKind: null, lastErrorCode: null, lastError: null, problems: null })
    .where(correctable(shop, id))
    .returning();
  return row;
}

/** Drop the correction; the invoice stays where it is, for the merchant to retry. Same conditions as saving. */
export async function removeClientCorrection(db: Db, shop: string, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .update(documents)
    .set({ clientOverride: null, updatedAt: sql`now()` })
    .where(correctable(shop, id))
    .returning();
  return row;
}
