// A document's PDF link: the app's public origin and the token that is the link's only credential. Written onto
// orders (metafields) and shown by the admin; served by src/http/document-pdf-route.ts. The path says "invoices" for
// every kind: the links already on orders must keep working.

/** The route that serves the links; `:file` is `<token>.pdf`. */
export const PDF_ROUTE = '/invoices/:file';

/** The link to the PDF stored under `token`; none without a token (no PDF yet). */
export function pdfUrl(appUrl: string, token: string): string;
export function pdfUrl(appUrl: string, token: string | null | undefined): string | null;
export function pdfUrl(appUrl: string, token: string | null | undefined): string | null {
  return token ? `${appUrl}/invoices/${token}.pdf` : null;
}
