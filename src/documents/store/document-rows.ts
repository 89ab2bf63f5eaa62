// The documents table's row types, shared by the store's statements and their callers.
import type { documents, gatewayCalls } from '../../db/schema.ts';

export type DocumentRow = typeof documents.$inferSelect;
/** What a lease-guarded update may change: never the document's identity. */
export type DocumentPatch = Partial<
  Omit<typeof documents.$inferInsert, 'id' | 'shop' | 'kind' | 'sourceKey' | 'orderGid' | 'documentType'>
>;
export type GatewayCallRow = typeof gatewayCalls.$inferSelect;

/** The number as merchants read it: "0000-001-0000000042" (branch, billing point, number). */
export function formatFiscalNumber(row: Pick<DocumentRow, 'branchCode' | 'billingPoint' | 'fiscalNumber'>): string {
  return `${row.branchCode ?? '????'}-${row.billingPoint ?? '???'}-${String(row.fiscalNumber ?? '').padStart(10, '0')}`;
}
