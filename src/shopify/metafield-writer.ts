// Writes an invoice's results onto its Shopify order: one atomic metafieldsSet in the app's namespace.
// The definitions (names, types, merchant read-only) are declared in shopify.app.toml.
import type { AdminResult, ShopifyAdmin } from './admin-client.ts';

export const METAFIELD_NAMESPACE = '$app';

/** Key → type; the same keys as `[order.metafields.app.*]` in shopify.app.toml. */
export const INVOICE_METAFIELD_TYPES = {
  cufe: 'single_line_text_field',
  qr_url: 'url',
  pdf_url: 'url',
  fiscal_number: 'single_line_text_field',
  protocol: 'single_line_text_field',
  authorized_at: 'date_time',
  /** The buyer's page of the invoice (docs/buyer-page.md). */
  buyer_url: 'url',
} as const;

export type InvoiceMetafieldValues = Record<keyof typeof INVOICE_METAFIELD_TYPES, string>;

/** One note in the order's `credit_notes` JSON metafield. */
export interface CreditNoteMetafieldEntry {
  fiscal_number: string;
  cufe: string;
  pdf_url: string;
  amount: string;
  refund_id: string;
}

export const METAFIELDS_SET_MUTATION = `mutation SetInvoiceMetafields($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { key namespace value }
    userErrors { field message code }
  }
}`;

interface MetafieldsSetData {
  metafieldsSet: {
    metafields: { key: string; namespace: string; value: string }[] | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  };
}

export async function writeInvoiceMetafields(
  admin: ShopifyAdmin,
  shop: string,
  orderGid: string,
  values: InvoiceMetafieldValues,
): Promise<AdminResult<{ written: number }>> {
  // Shopify refuses blank values; a value we do not have (the protocol of an invoice recovered after a lost
  // answer) is left off rather than written empty.
  const metafields = (Object.keys(INVOICE_METAFIELD_TYPES) as (keyof typeof INVOICE_METAFIELD_TYPES)[])
    .filter((key) => values[key] !== '')
    .map((key) => ({ key, type: INVOICE_METAFIELD_TYPES[key], value: values[key] }));
  return setMetafields(admin, shop, orderGid, metafields);
}

/** The order's credit notes, one JSON list (`credit_notes`, declared in shopify.app.toml); the invoice's keys untouched. */
export async function writeCreditNotesMetafield(
  admin: ShopifyAdmin,
  shop: string,
  orderGid: string,
  notes: readonly CreditNoteMetafieldEntry[],
): Promise<AdminResult<{ written: number }>> {
  return setMetafields(admin, shop, orderGid, [{ key: CREDIT_NOTES_METAFIELD_KEY, type: 'json', value: JSON.stringify(notes) }]);
}

export const CREDIT_NOTES_METAFIELD_KEY = 'credit_notes';

async function setMetafields(
  admin: ShopifyAdmin,
  shop: string,
  orderGid: string,
  fields: { key: string; type: string; value: string }[],
): Promise<AdminResult<{ written: number }>> {
  const metafields = fields.map((f) => ({ ownerId: orderGid, namespace: METAFIELD_NAMESPACE, ...f }));
  const result = await admin.graphql<MetafieldsSetData>(shop, METAFIELDS_SET_MUTATION, { metafields });
  if (!result.ok) return result;
  const { userErrors, metafields: written } = result.data.metafieldsSet;
  if (userErrors.length > 0) {
    return {
      ok: false,
      retryable: false,
      message: userErrors
        .map((e) => `${(e.field ?? []).join('.') || 'metafields'}: ${e.message}${e.code ? ` (${e.code})` : ''}`)
        .join('; '),
    };
  }
  return { ok: true, data: { written: written?.length ?? 0 } };
}
