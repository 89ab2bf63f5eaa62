// What the block shows, from the app's order metafields (src/shopify/metafield-writer.ts): the invoice's number, its
// PDF and the buyer's page. Pure, so it is unit-tested without Shopify.

/** An app metafield entry as the customer account and Thank-you page APIs give it. */
export interface MetafieldEntry {
  target: { type: string; id: string };
  metafield: { namespace: string; key: string; value: string | number | boolean };
}

export interface InvoiceLinks {
  fiscalNumber: string | null;
  pdfUrl: string | null;
  /** The buyer's page: the invoice, its credit notes and the request for an invoice with RUC. */
  pageUrl: string;
}

/** The app's own namespace, as declared (`$app`) or as stored (`app--<app id>`). */
const isAppNamespace = (namespace: string) => namespace === '$app' || namespace.startsWith('app--');

/** The order's invoice links; undefined until the app has written the buyer's page (the invoice is authorized). */
export function invoiceLinks(entries: readonly MetafieldEntry[] | undefined): InvoiceLinks | undefined {
  const values = new Map<string, string>();
  for (const { target, metafield } of entries ?? []) {
    if (target.type !== 'order' || !isAppNamespace(metafield.namespace)) continue;
    if (typeof metafield.value === 'string' && metafield.value !== '') values.set(metafield.key, metafield.value);
  }
  const pageUrl = httpsOrLocal(values.get('buyer_url'));
  if (!pageUrl) return undefined;
  return { fiscalNumber: values.get('fiscal_number') ?? null, pdfUrl: httpsOrLocal(values.get('pdf_url')) ?? null, pageUrl };
}

/** Only links of the web: an https address (http on a developer's own machine). */
function httpsOrLocal(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
    return url.protocol === 'https:' || (url.protocol === 'http:' && local) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
