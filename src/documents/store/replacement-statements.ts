// Replacing an invoice issued to the wrong buyer (docs/design.md §9, §10): a credit note for all of it and a new invoice for
// the corrected client, both stored in one statement, linked to the invoice they replace, and issued by the pipeline.
import { and, eq, isNotNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ClientCorrection } from '../../../mappers/invoice/client-correction.ts';
import type { Db } from '../../db/database.ts';
import { documents } from '../../db/schema.ts';
import { DGI_DOCUMENT_TYPE } from '../../db/document-state.ts';
import type { DocumentRow } from './document-rows.ts';

/** A replacement's source key: unique per replaced invoice, so the same replacement is never stored twice. */
export const REPLACEMENT_PREFIX = 'replacement:';

export function replacementKey(invoiceId: string): string {
  return `${REPLACEMENT_PREFIX}${invoiceId}`;
}

const other = alias(documents, 'other');

/**
 * Store the full credit note and the new invoice of `invoice`, only while it is the order's authorized invoice with
 * no credit note against it and not replaced already (checked in the statement, so two requests cannot both pass).
 * Undefined when it no longer qualifies.
 */
export async function insertReplacement(
  db: Db,
  invoice: DocumentRow,
  correction: ClientCorrection,
): Promise<{ noteId: string; invoiceId: string } | undefined> {
  return db.transaction(async (tx) => {
    // The invoice row locked: requests for the same invoice wait for each other. The notes and replacements are
    // read after the lock, in a statement of their own: its snapshot (read committed) sees the rows of the request
    // that held the lock. Read in the locking statement, they were missed, and the second insert failed (500).
    const [locked] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.id, invoice.id), eq(documents.kind, 'invoice'), isNotNull(documents.cufe)))
      .for('update');
    if (!locked) return undefined;
    const [taken] = await tx
      .select({ id: other.id })
      .from(other)
      .where(or(eq(other.invoiceId, invoice.id), eq(other.replacesId, invoice.id)))
      .limit(1);
    if (taken) return undefined;
    const key = replacementKey(invoice.id);
    const common = {
      shop: invoice.shop,
      sourceKey: key,
      orderGid: invoice.orderGid,
      orderName: invoice.orderName,
      currency: invoice.currency,
      test: invoice.test,
    };
    const [note] = await tx
      .insert(documents)
      .values({
        ...common,
        kind: 'credit_note',
        documentType: DGI_DOCUMENT_TYPE.credit_note,
        invoiceId: invoice.id,
        totalCents: invoice.totalCents,
        // No refund behind it: the note credits what is left of its invoice.
        snapshot: { replaces: invoice.id },
      })
      .returning({ id: documents.id });
    const [replacement] = await tx
      .insert(documents)
      .values({
        ...common,
        kind: 'invoice',
        documentType: DGI_DOCUMENT_TYPE.invoice,
        replacesId: invoice.id,
        totalCents: invoice.totalCents,
        snapshot: invoice.snapshot,
        clientOverride: correction,
      })
      .returning({ id: documents.id });
    return { noteId: note!.id, invoiceId: replacement!.id };
  });
}
