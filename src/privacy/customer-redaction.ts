// customers/redact: remove one customer's personal data from everything we keep for a shop, except the
// document of an authorized invoice (a fiscal record the law makes the merchant keep).
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { complianceRequests } from '../db/schema.ts';
import { findCustomerDocuments, forgetBuyerEmails, sendRequestsOf, updateCallRequest, updateRedacted } from '../documents/store/index.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import type { DataSubject } from './compliance-payloads.ts';
import { redactDocumentClient, redactOrderSnapshot, redactRequestClient } from './snapshot-redaction.ts';

export interface CustomerRedactionResult {
  /** Invoices whose order snapshot was redacted. */
  snapshotsRedacted: number;
  /** Authorized invoices: their document (the fiscal record) still names the customer. */
  fiscalRecordsKept: number;
  /** Never-authorized documents and gateway requests whose client block was cleared. */
  documentsRedacted: number;
  gatewayCallsRedacted: number;
  /** Earlier data_request reports about this customer, deleted (they repeated the personal data). */
  dataReportsDeleted: number;
  invoiceIds: string[];
}

export async function redactCustomer(db: Db, shop: string, subject: DataSubject): Promise<CustomerRedactionResult> {
  return db.transaction(async (tx) => {
    const rows = await findCustomerDocuments(tx, shop, subject);
    let documentsRedacted = 0;
    let fiscalRecordsKept = 0;
    for (const row of rows) {
      const authorized = row.cufe !== null;
      const document = row.document as GatewayDocument | null;
      if (authorized) fiscalRecordsKept++;
      else if (document) documentsRedacted++;
      await updateRedacted(tx, row.id, {
        // A credit note's snapshot is its refund, which names no one.
        ...(row.kind === 'invoice' ? { snapshot: redactedSnapshot(row.snapshot) } : {}),
        ...(!authorized && document ? { document: redactDocumentClient(document) } : {}),
      });
    }

    // Every stored SendDocument request repeats the client block; the authorized one is on the document row.
    let gatewayCallsRedacted = 0;
    const ids = rows.map((r) => r.id);
    await forgetBuyerEmails(tx, ids);
    for (const call of await sendRequestsOf(tx, ids)) {
      const redacted = redactRequestClient(call.request);
      if (redacted === call.request) continue;
      await updateCallRequest(tx, call.id, redacted);
      gatewayCallsRedacted++;
    }

    const reportMatches = [
      subject.customerId !== undefined ? sql`${complianceRequests.payload}->'customer'->>'id' = ${subject.customerId}` : undefined,
      subject.email !== undefined ? sql`lower(${complianceRequests.payload}->'customer'->>'email') = ${subject.email}` : undefined,
    ].filter((m) => m !== undefined);
    const deletedReports =
      reportMatches.length === 0
        ? []
        : await tx
            .delete(complianceRequests)
            .where(and(eq(complianceRequests.shop, shop), eq(complianceRequests.topic, 'customers/data_request'), or(...reportMatches)))
            .returning({ id: complianceRequests.id });

    return {
      snapshotsRedacted: rows.length,
      fiscalRecordsKept,
      documentsRedacted,
      gatewayCallsRedacted,
      dataReportsDeleted: deletedReports.length,
      invoiceIds: ids,
    };
  });
}

/** The order without the buyer; an order too deeply nested to walk is replaced by an empty one (never invoiced anyway). */
function redactedSnapshot(snapshot: unknown): Record<string, unknown> {
  try {
    return redactOrderSnapshot(snapshot as Record<string, unknown>);
  } catch {
    return {};
  }
}
