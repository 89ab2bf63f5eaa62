// What can stop an invoice, as a closed set. Each kind says who acts next; each message says, in the
// merchant's words, what happened and what to do. Logs get the same text: none of it carries a secret.

export type InvoiceStatus = 'pending' | 'needs_attention' | 'failed' | 'completed' | 'skipped';
export type InvoiceStep = 'send' | 'pdf' | 'writeback' | 'done';

export type InvoiceErrorKind =
  /** The order cannot become a correct invoice as it stands (mapping problems). A person fixes settings or the order. */
  | 'mapping'
  /** The gateway refused the document (109, repeated 201). A person fixes the data, then retries. */
  | 'rejected'
  /** The gateway refused the shop's credentials (101). The shop's queue waits for new settings. */
  | 'credentials'
  /** The gateway or Shopify did not answer usefully; retried automatically. */
  | 'unavailable'
  /** The gateway may have issued the invoice without telling us; the next attempt reconciles. */
  | 'indeterminate'
  /** The number was already used; the invoice was issued by us but its data could not be recovered. */
  | 'unrecoverable'
  /** Shopify refused the metafields (userErrors). */
  | 'writeback';

export interface InvoiceError {
  kind: InvoiceErrorKind;
  code: string | undefined;
  /** English, for the merchant and the logs. */
  message: string;
}

export function invoiceError(kind: InvoiceErrorKind, message: string, code?: string): InvoiceError {
  return { kind, code, message };
}

/** Kinds the worker retries on its own, with backoff, up to the attempt limit. */
export function isRetryable(kind: InvoiceErrorKind): boolean {
  return kind === 'unavailable' || kind === 'indeterminate';
}

export const messages = {
  credentials: (gatewayMessage: string) =>
    `The gateway refused the shop's invoicing credentials ("${gatewayMessage}"). Check the credentials in Settings; invoices wait and continue on their own once the settings are saved.`,
  rejected: (code: string, gatewayMessage: string, field: string | undefined) =>
    field
      ? `The gateway rejected the invoice (code ${code}): field "${field}" is required. Complete it in Settings or on the order, then retry.`
      : `The gateway rejected the invoice (code ${code}): ${gatewayMessage}. Correct the data it names, then retry.`,
  unavailable: (reason: string) => `The gateway could not be reached (${reason}); the app retries automatically.`,
  indeterminate: (reason: string) =>
    `The gateway did not answer in time (${reason}); it may have issued the invoice, so the next attempt checks before sending again.`,
  exhausted: (last: string) => `Gave up after repeated failures. Last error: ${last} Use "Retry" once the cause is fixed.`,
  numberUsedElsewhere: (number: string) =>
    `Fiscal number ${number} was already used outside this app; the app skipped it and used the next number.`,
  unrecoverable: (number: string) =>
    `The gateway says fiscal number ${number} is already issued, and it may be this order's invoice, but its CUFE could not be recovered from the gateway. Look the number up in the provider's portal before doing anything else; do not retry blindly.`,
  testOrderInProduction: () => 'Test order: not invoiced, because the shop sends invoices to the production environment.',
  writeback: (detail: string) => `Shopify refused the invoice metafields: ${detail}. The invoice itself is authorized.`,
  pdfMissing: (detail: string) => `The invoice is authorized but its PDF could not be downloaded yet: ${detail}.`,
};
