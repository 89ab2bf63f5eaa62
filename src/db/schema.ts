// One schema, PostgreSQL dialect, for PGlite and PostgreSQL alike. Migrations: `npm run db:generate`.
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { EMAIL_REASONS, EMAIL_STATUSES } from './email-state.ts';
import { TAX_ID_SOURCES } from '../../mappers/invoice/invoice-client.ts';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES, DOCUMENT_STEPS, ERROR_KINDS } from './document-state.ts';
import { LANGUAGES } from './languages.ts';
import { BUYER_REQUEST_OUTCOMES } from './buyer-request-state.ts';

import { BUYER_TOKEN_DEFAULT, bytea, emailOutboxColumns, jsonText, oneOf, queueColumns, rowTimes, tstz } from './schema-columns.ts';
import { fiscalSequences, fiscalSeriesChanges, fiscalSkips } from './schema-series.ts';
import { reportEmails, reportMonthTotals } from './schema-reports.ts';

import { backfills } from './schema-backfill.ts';
import { flowEvents } from './schema-flow.ts';

export { backfills, fiscalSequences, fiscalSeriesChanges, fiscalSkips, flowEvents, reportEmails, reportMonthTotals };

/** Shopify offline sessions. Tokens are stored encrypted (AES-256-GCM), never in plain text. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    shop: text('shop').notNull(),
    state: text('state').notNull(),
    isOnline: boolean('is_online').notNull().default(false),
    scope: text('scope'),
    expires: tstz('expires'),
    accessTokenEnc: text('access_token_enc').notNull(),
    refreshTokenEnc: text('refresh_token_enc'),
    refreshTokenExpires: tstz('refresh_token_expires'),
    userId: bigint('user_id', { mode: 'number' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    accountOwner: boolean('account_owner'),
    locale: text('locale'),
    collaborator: boolean('collaborator'),
    emailVerified: boolean('email_verified'),
  },
  (t) => [index('sessions_shop_idx').on(t.shop)],
);

/** One row per shop: settings (validated as a whole), encrypted gateway credentials, state. */
export const shops = pgTable('shops', {
  shop: text('shop').primaryKey(),
  settings: jsonb('settings')
    .notNull()
    .default(sql`'{}'::jsonb`),
  credentialsEnc: text('credentials_enc'),
  enabled: boolean('enabled').notNull().default(false),
  installed: boolean('installed').notNull().default(true),
  /** Set when the gateway refuses the shop's credentials (101): its queue waits for a settings change. A catalogue message. */
  pausedReason: jsonb('paused_reason'),
  settingsVersion: integer('settings_version').notNull().default(0),
  installedAt: tstz('installed_at').notNull().defaultNow(),
  uninstalledAt: tstz('uninstalled_at'),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

/**
 * The fiscal document is the job: one row per invoice or credit note. `step` is what to do next
 * (send → pdf → writeback → done); `status` says whether the worker may do it (pending, waiting) or a person must look
 * first. The statuses, steps and kinds are declared in src/db/document-state.ts; only the documents store
 * (src/documents/store/) speaks SQL to this table.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shop: text('shop').notNull(),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull().default('invoice'),
    /** What makes the document unique within its shop and kind: the order GID of an invoice, the refund GID of a note. */
    sourceKey: text('source_key').notNull(),
    orderGid: text('order_gid').notNull(),
    orderName: text('order_name').notNull(),
    /** The DGI's typeDocument ('01', '04'): numbering runs per type. */
    documentType: text('document_type').notNull().default('01'),
    /** A credit note's invoice. */
    invoiceId: uuid('invoice_id'),
    /** An invoice that replaces another (re-issued to the right buyer). */
    replacesId: uuid('replaces_id'),
    step: text('step', { enum: DOCUMENT_STEPS }).notNull().default('send'),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull().default('pending'),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    test: boolean('test').notNull().default(false),
    /** The webhook body the document comes from (the order of an invoice, the refund of a note), as it arrived. */
    snapshot: jsonText('snapshot').notNull(),
    snapshotRedacted: boolean('snapshot_redacted').notNull().default(false),
    /** Re-read the order through the Admin API before mapping it again (set by a manual retry). */
    refreshSnapshot: boolean('refresh_snapshot').notNull().default(false),
    /** The merchant's correction of the client block (docs/design.md §10), applied over what the order says. */
    clientOverride: jsonb('client_override'),
    /** The backfill that enqueued it (docs/backfill.md); null for a live order's. Claimed after the live ones. */
    backfillId: uuid('backfill_id'),
    /** Where the client's RUC came from, when the client is a taxpayer. */
    taxIdSource: text('tax_id_source', { enum: TAX_ID_SOURCES }),

    /** Attempts at the current step; reset when the step advances or a person retries. */
    ...queueColumns(),

    environment: text('environment'),
    branchCode: text('branch_code'),
    billingPoint: text('billing_point'),
    fiscalNumber: bigint('fiscal_number', { mode: 'number' }),
    /** True once a SendDocument with this number may have reached the gateway: a 102 then means "maybe ours". */
    sendMayHaveReached: boolean('send_may_have_reached').notNull().default(false),
    document: jsonb('document'),
    /** Hash of the document without its broadcast time: tells a repeated 201 for the same document. */
    documentHash: text('document_hash'),
    /**
     * The same 201 for the same document, in a row, each while the gateway authorized other documents: at three it is
     * the document's fault (docs/gateway-checks.md). `last201At`: when the last of them came.
     */
    repeated201: integer('repeated_201').notNull().default(0),
    last201At: tstz('last_201_at'),

    cufe: text('cufe'),
    qr: text('qr'),
    protocol: text('protocol'),
    receptionDateDgi: text('reception_date_dgi'),
    authorizedAt: tstz('authorized_at'),
    writtenBackAt: tstz('written_back_at'),

    lastErrorKind: text('last_error_kind', { enum: ERROR_KINDS }),
    /** The gateway's code (101, 109, …) or the mapping problem's code. */
    lastErrorCode: text('last_error_code'),
    /** The reason as a catalogue message { key, params } (src/messages/), rendered in Spanish or English when shown. */
    lastError: jsonb('last_error'),
    problems: jsonb('problems'),
    /** Something the merchant should know about a document that went through (a catalogue message). */
    notice: jsonb('notice'),
    /** The buyer's page link's only credential (docs/buyer-page.md), made by the database for every row. */
    buyerToken: text('buyer_token').notNull().default(BUYER_TOKEN_DEFAULT),

    ...rowTimes(),
  },
  (t) => [
    uniqueIndex('documents_shop_kind_source_uq').on(t.shop, t.kind, t.sourceKey),
    // Claiming walks each shop's work in turn (fair between shops), live orders before backfilled ones: only the rows
    // the worker may take.
    index('documents_shop_due_idx')
      .on(t.shop, sql`(${t.backfillId} is not null)`, t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'waiting')`),
    index('documents_shop_created_idx').on(t.shop, t.createdAt),
    // The admin list filtered by status, newest first (the counts come from document_counts).
    index('documents_shop_status_created_idx').on(t.shop, t.status, t.createdAt),
    // The admin's search box looks documents up by order name or fiscal number within the shop.
    index('documents_shop_order_name_idx').on(t.shop, t.orderName),
    index('documents_shop_fiscal_number_idx').on(t.shop, t.fiscalNumber),
    // An order's documents (its invoice and notes), and a note's invoice.
    index('documents_shop_order_idx').on(t.shop, t.orderGid),
    index('documents_invoice_idx').on(t.invoiceId),
    // A backfill's progress: its documents by status.
    index('documents_backfill_idx')
      .on(t.backfillId, t.status)
      .where(sql`${t.backfillId} is not null`),
    // The accountant's month (src/reports/): a shop's authorized documents of an environment by authorization time.
    index('documents_shop_authorized_idx')
      .on(t.shop, t.environment, t.authorizedAt, t.id)
      .where(sql`${t.authorizedAt} is not null`),
    // Type and environment last: the search box finds "0000-001-0000000042" through the first four columns. Each
    // environment numbers apart (docs/series.md).
    uniqueIndex('documents_buyer_token_uq').on(t.buyerToken),
    uniqueIndex('documents_fiscal_number_uq').on(t.shop, t.branchCode, t.billingPoint, t.fiscalNumber, t.documentType, t.environment),
    // A CUFE names one document: a gateway answering another document's CUFE never completes a second (docs/gateway-checks.md).
    uniqueIndex('documents_shop_cufe_uq')
      .on(t.shop, t.cufe)
      .where(sql`${t.cufe} is not null`),
    check('documents_kind_ck', oneOf('kind', DOCUMENT_KINDS)),
    check('documents_status_ck', oneOf('status', DOCUMENT_STATUSES)),
    check('documents_step_ck', oneOf('step', DOCUMENT_STEPS)),
    check('documents_kind_type_ck', sql`(${t.kind} = 'invoice') = (${t.documentType} <> '04')`),
  ],
);

/**
 * How many documents each shop has per kind, status and step, kept exact by statement triggers on `documents`
 * (drizzle/0003): the admin's counts and the metrics read a few rows instead of counting a million.
 */
export const documentCounts = pgTable(
  'document_counts',
  {
    shop: text('shop').notNull(),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull(),
    step: text('step', { enum: DOCUMENT_STEPS }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.shop, t.kind, t.status, t.step] })],
);

export const documentPdfs = pgTable('document_pdfs', {
  documentId: uuid('document_id')
    .primaryKey()
    .references(() => documents.id, { onDelete: 'cascade' }),
  /** ≥128 random bits, base64url: the PDF link's only credential. */
  token: text('token').notNull().unique(),
  sha256: text('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

/**
 * The buyer e-mail outbox: one row per e-mail to send, claimed by the e-mail runner with a lease. At most one
 * 'authorized' e-mail per document (queued with the document's completion); resends add rows.
 */
export const documentEmails = pgTable(
  'document_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    shop: text('shop').notNull(),
    reason: text('reason', { enum: EMAIL_REASONS }).notNull(),
    ...emailOutboxColumns(),
  },
  (t) => [
    uniqueIndex('document_emails_authorized_uq')
      .on(t.documentId)
      .where(sql`${t.reason} = 'authorized'`),
    // One resend waiting per document: Reenviar pressed many times at once queues one e-mail.
    uniqueIndex('document_emails_pending_resend_uq')
      .on(t.documentId)
      .where(sql`${t.reason} = 'resend' and ${t.status} = 'pending'`),
    index('document_emails_document_idx').on(t.documentId, t.createdAt),
    index('document_emails_due_idx').on(t.status, t.nextAttemptAt),
    check('document_emails_status_ck', oneOf('status', EMAIL_STATUSES)),
    check('document_emails_reason_ck', oneOf('reason', EMAIL_REASONS)),
    check('document_emails_language_ck', oneOf('language', LANGUAGES)),
  ],
);

/**
 * The buyer's request for an invoice to their company (docs/buyer-page.md): one per invoice, by the primary key, written
 * in the transaction that acts on it. What happened, not the client (that is the invoice's or the replacement's).
 */
export const buyerRequests = pgTable(
  'buyer_requests',
  {
    invoiceId: uuid('invoice_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    shop: text('shop').notNull(),
    outcome: text('outcome', { enum: BUYER_REQUEST_OUTCOMES }).notNull(),
    /** The language the buyer read the page in. */
    language: text('language', { enum: LANGUAGES }).notNull(),
    /** A re-issue's credit note and new invoice. */
    creditNoteId: uuid('credit_note_id'),
    replacementId: uuid('replacement_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('buyer_requests_shop_idx').on(t.shop, t.createdAt),
    check('buyer_requests_outcome_ck', oneOf('outcome', BUYER_REQUEST_OUTCOMES)),
    check('buyer_requests_language_ck', oneOf('language', LANGUAGES)),
  ],
);

/** Every webhook delivery we accepted or refused with 200: audit trail and duplicate count. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: text('webhook_id').notNull(),
    eventId: text('event_id'),
    topic: text('topic').notNull(),
    shop: text('shop').notNull(),
    orderGid: text('order_gid'),
    triggeredAt: text('triggered_at'),
    outcome: text('outcome').notNull(),
    receivedAt: tstz('received_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_shop_idx').on(t.shop, t.receivedAt),
    // The reconciliation sweep looks up the deliveries of a page of orders.
    index('webhook_deliveries_order_idx').on(t.shop, t.orderGid),
  ],
);

/** One row per gateway call, secrets removed. */
export const gatewayCalls = pgTable(
  'gateway_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id'),
    shop: text('shop').notNull(),
    operation: text('operation').notNull(),
    outcome: text('outcome').notNull(),
    code: text('code'),
    message: text('message'),
    durationMs: integer('duration_ms').notNull(),
    request: jsonb('request'),
    response: jsonb('response'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('gateway_calls_document_idx').on(t.documentId, t.createdAt)],
);

/**
 * The reconciliation sweep's lease per shop: one sweep per shop at a time across processes, and not
 * again before the interval has passed (several processes share the work). Nothing personal here.
 */
export const reconcileSweeps = pgTable('reconcile_sweeps', {
  shop: text('shop')
    .primaryKey()
    .references(() => shops.shop, { onDelete: 'cascade' }),
  leaseOwner: text('lease_owner'),
  leaseUntil: tstz('lease_until'),
  lastStartedAt: tstz('last_started_at'),
  lastFinishedAt: tstz('last_finished_at'),
  /** Orders the last finished sweep enqueued, and why it stopped early (if it did). */
  lastEnqueued: integer('last_enqueued').notNull().default(0),
  lastError: text('last_error'),
});

/** Privacy requests (customers/data_request, customers/redact, shop/redact) and what we did. */
export const complianceRequests = pgTable('compliance_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  topic: text('topic').notNull(),
  shop: text('shop').notNull(),
  payload: jsonb('payload').notNull(),
  result: jsonb('result'),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

export const schema = {
  sessions,
  shops,
  documents,
  documentCounts,
  documentPdfs,
  documentEmails,
  reportEmails,
  reportMonthTotals,
  buyerRequests,
  fiscalSequences,
  fiscalSkips,
  fiscalSeriesChanges,
  webhookDeliveries,
  gatewayCalls,
  complianceRequests,
  reconcileSweeps,
  backfills,
};
