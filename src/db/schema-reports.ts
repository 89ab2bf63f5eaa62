// The accountant's month (docs/reports.md): its totals, kept by the database (only triggers on `documents` write them,
// drizzle/0013_report_month_totals.sql, and only the documents store reads them), and its e-mail outbox.
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { EMAIL_STATUSES, REPORT_EMAIL_REASONS } from './email-state.ts';
import { LANGUAGES } from './languages.ts';
import { emailOutboxColumns, oneOf } from './schema-columns.ts';

const summed = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * Per shop, environment, Panamá month (`YYYY-MM` of the authorization time) and series (branch, billing point,
 * document type): the sums of its authorized documents as the stored documents state them. Items by ITBMS rate code
 * (`00` 0 %, `01` 7 %, `02` 10 %, `03` 15 %); `unreadable` counts items or totals the database could not read as an
 * amount of a known rate (the report then stops rather than guess). `first_number`/`last_number`: the month's lowest
 * and highest fiscal number in the series.
 */
export const reportMonthTotals = pgTable(
  'report_month_totals',
  {
    shop: text('shop').notNull(),
    environment: text('environment').notNull(),
    month: text('month').notNull(),
    branchCode: text('branch_code').notNull(),
    billingPoint: text('billing_point').notNull(),
    documentType: text('document_type').notNull(),
    documents: summed('documents'),
    totalCents: summed('total_cents'),
    base0Cents: summed('base_0_cents'),
    itbms0Cents: summed('itbms_0_cents'),
    base7Cents: summed('base_7_cents'),
    itbms7Cents: summed('itbms_7_cents'),
    base10Cents: summed('base_10_cents'),
    itbms10Cents: summed('itbms_10_cents'),
    base15Cents: summed('base_15_cents'),
    itbms15Cents: summed('itbms_15_cents'),
    unreadable: summed('unreadable'),
    firstNumber: bigint('first_number', { mode: 'number' }),
    lastNumber: bigint('last_number', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.shop, t.environment, t.month, t.branchCode, t.billingPoint, t.documentType] })],
);

/**
 * The accountant's e-mail outbox (src/reports/report-email-runner.ts): the month's sales book to the shop's
 * `accountantEmail`. At most one 'monthly' row per shop and month, whoever claims it first (several processes, a
 * restart across the 1st); resends add rows. Claimed with a lease like the buyer's e-mails.
 */
export const reportEmails = pgTable(
  'report_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shop: text('shop').notNull(),
    /** The calendar month in Panamá time, `YYYY-MM`. */
    month: text('month').notNull(),
    environment: text('environment').notNull(),
    reason: text('reason', { enum: REPORT_EMAIL_REASONS }).notNull(),
    ...emailOutboxColumns(),
  },
  (t) => [
    uniqueIndex('report_emails_monthly_uq')
      .on(t.shop, t.month)
      .where(sql`${t.reason} = 'monthly'`),
    index('report_emails_shop_month_idx').on(t.shop, t.month, t.createdAt),
    index('report_emails_due_idx').on(t.status, t.nextAttemptAt),
    check('report_emails_status_ck', oneOf('status', EMAIL_STATUSES)),
    check('report_emails_reason_ck', oneOf('reason', REPORT_EMAIL_REASONS)),
    check('report_emails_language_ck', oneOf('language', LANGUAGES)),
  ],
);
