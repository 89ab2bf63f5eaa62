// customers/redact: remove one customer's personal data from everything we keep for a shop, except the
// document of an authorized invoice (a fiscal record the law makes the merchant keep).
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { complianceRequests, gatewayCalls, invoices } from '../db/schema.ts';
import type { GatewayDocument } from '../../mappers/gateway-document.ts';
import type { DataSubject } from './compliance-payloads.ts';
import { findCustomerInvoices } from './customer-invoices.ts';
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
    const rows = await findCustomerInvoices(tx, shop, subject);
    let documentsRedacted = 0;
    let fiscalRecordsKept = 0;
    for (const row of rows) {
      const authorized = row.cufe !== null;
      const document = row.document as GatewayDocument | null;
      if (authorized) fiscalRecordsKept++;
      else if (document) documentsRedacted++;
      await tx
        .update(invoices)
        .set({
          orderSnapshot: redactOrderSnapshot(row.orderSnapshot as Record<string, unknown>),
          snapshotRedacted: true,
          ...(!authorized && document ? { document: redactDocumentClient(document) } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(invoices.id, row.id));
    }

    // Every stored SendDocument request repeats the client block; the authorized one is on the invoice row.
    let gatewayCallsRedacted = 0;
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      const calls = await tx
        .select({ id: gatewayCalls.id, request: gatewayCalls.request })
        .from(gatewayCalls)
        .where(and(inArray(gatewayCalls.invoiceId, ids), eq(gatewayCalls.operation, 'SendDocument')));
      for (const call of calls) {
        const redacted = redactRequestClient(call.request);
        if (redacted === call.request) continue;
        await tx.update(gatewayCalls).set({ request: redacted }).where(eq(gatewayCalls.id, call.id));
        gatewayCallsRedacted++;
      }
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
