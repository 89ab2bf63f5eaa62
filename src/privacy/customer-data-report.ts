// customers/data_request: what we hold on one customer, invoice by invoice, for the merchant to hand over.
import type { Db } from '../db/database.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { type DocumentRow, findCustomerDocuments, formatFiscalNumber } from '../documents/store/index.ts';
import type { DataSubject } from './compliance-payloads.ts';

export interface CustomerDocumentReport {
  invoiceId: string;
  orderGid: string;
  orderName: string;
  status: string;
  fiscalNumber: string | null;
  cufe: string | null;
  authorizedAt: string | null;
  createdAt: string;
  snapshotRedacted: boolean;
  /** Personal data in the order as Shopify sent it (empty once redacted). */
  orderData: Record<string, unknown>;
  /** The client block of the invoice document (what the fiscal record says about the customer). */
  invoiceClient: Record<string, unknown> | null;
  /** The merchant's correction of the client, when one is stored. */
  clientCorrection: unknown;
}

export interface CustomerDataReport {
  invoices: CustomerDocumentReport[];
}

const ORDER_PERSONAL_FIELDS = [
  'email',
  'contact_email',
  'phone',
  'customer',
  'billing_address',
  'shipping_address',
  'note_attributes',
] as const;

export async function customerDataReport(db: Db, shop: string, subject: DataSubject): Promise<CustomerDataReport> {
  const rows = await findCustomerDocuments(db, shop, subject);
  return { invoices: rows.map(reportRow) };
}

function reportRow(row: DocumentRow): CustomerDocumentReport {
  // A credit note's snapshot is its refund, which names no one: the order's personal data is on its invoice.
  const snapshot = (row.kind === 'invoice' && row.snapshot ? row.snapshot : {}) as Record<string, unknown>;
  const orderData: Record<string, unknown> = {};
  for (const key of ORDER_PERSONAL_FIELDS) {
    const value = snapshot[key];
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) orderData[key] = value;
  }
  const document = row.document as GatewayDocument | null;
  return {
    invoiceId: row.id,
    orderGid: row.orderGid,
    orderName: row.orderName,
    status: row.status,
    fiscalNumber: row.fiscalNumber === null ? null : formatFiscalNumber(row),
    cufe: row.cufe,
    authorizedAt: row.authorizedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    snapshotRedacted: row.snapshotRedacted,
    orderData,
    invoiceClient: document ? { ...document.dataTransaction.client } : null,
    clientCorrection: row.clientOverride ?? null,
  };
}
