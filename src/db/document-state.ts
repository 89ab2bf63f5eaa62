// The fiscal document's states, declared once: the database columns, the store's statements, the API's filters,
// the CLI and the page all take their lists and types from here. Beside the schema because its CHECKs hold them:
// a change to a list is a migration (`npm run db:generate`).

/** What a document is. Each kind has its own DGI document type and its own gapless numbering. */
export const DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The DGI's `typeDocument` of each kind (reference §3.2). */
export const DGI_DOCUMENT_TYPE = { invoice: '01', credit_note: '04' } as const satisfies Record<DocumentKind, string>;

/**
 * Who may act next. pending: the worker, when due. waiting: the worker, later — the document depends on something not
 * yet there (a credit note on its invoice). needs_attention and failed: a person (retry, correction, settings).
 * completed and skipped: nobody (skipped documents were never issued: nothing to invoice, test order, …).
 */
export const DOCUMENT_STATUSES = ['pending', 'waiting', 'needs_attention', 'failed', 'completed', 'skipped'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Statuses the worker claims (when their time has come). */
export const CLAIMABLE_STATUSES = ['pending', 'waiting'] as const satisfies readonly DocumentStatus[];

/** Statuses a person can send back to the queue (retry, correction). */
export const RETRYABLE_STATUSES = ['needs_attention', 'failed'] as const satisfies readonly DocumentStatus[];
export type RetryableStatus = (typeof RETRYABLE_STATUSES)[number];

/**
 * What to do next: send (map, number, SendDocument) → pdf (DownloadPDF, store it) → writeback (metafields) → done.
 * A step that succeeded is never repeated: its results are saved before the step advances.
 */
export const DOCUMENT_STEPS = ['send', 'pdf', 'writeback', 'done'] as const;
export type DocumentStep = (typeof DOCUMENT_STEPS)[number];

/** Steps only move forward: `to` comes after `from`. */
export function isStepForward(from: DocumentStep, to: DocumentStep): boolean {
  return DOCUMENT_STEPS.indexOf(to) > DOCUMENT_STEPS.indexOf(from);
}

/** Why a document stopped, as a closed set. Each kind says who acts next. */
export const ERROR_KINDS = [
  /** The source cannot become a correct document as it stands (mapping problems). A person fixes settings or data. */
  'mapping',
  /** The gateway refused the document (109, a repeated 201). A person fixes the data, then retries. */
  'rejected',
  /** The gateway refused the shop's credentials (101). The shop's queue waits for new settings. */
  'credentials',
  /** The gateway or Shopify did not answer usefully; retried automatically. */
  'unavailable',
  /** The gateway may have issued the document without telling us; the next attempt reconciles. */
  'indeterminate',
  /** The number was already used; the document was issued by us but its data could not be recovered. */
  'unrecoverable',
  /** The gateway said "authorized" but its answer (CUFE, QR, PDF, …) does not check out. A person looks it up. */
  'unverified',
  /** Shopify refused the metafields (userErrors). */
  'writeback',
  /** Shopify does not know the order in this shop (or no longer lets the app read it). */
  'order_unconfirmed',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Where each status may go. The store's statements only make these moves. */
export const STATUS_MOVES = {
  pending: ['pending', 'waiting', 'needs_attention', 'failed', 'completed', 'skipped'],
  waiting: ['pending', 'waiting', 'needs_attention', 'failed', 'completed', 'skipped'],
  needs_attention: ['pending'],
  failed: ['pending'],
  completed: [],
  skipped: [],
} as const satisfies Record<DocumentStatus, readonly DocumentStatus[]>;

export function canMove(from: DocumentStatus, to: DocumentStatus): boolean {
  return (STATUS_MOVES[from] as readonly DocumentStatus[]).includes(to);
}
