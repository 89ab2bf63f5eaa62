// The number series' tables (docs/series.md); only the documents store speaks SQL to them.
import { bigint, check, bigserial, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

import { oneOf, tstz } from './schema-columns.ts';

/**
 * A number series (docs/series.md): the next fiscal number per shop, environment, branch, billing point and document
 * type. Reserved under a row lock, one at a time, so each series is gapless; test documents never take a production
 * number. Only the documents store speaks SQL to it.
 */
export const fiscalSequences = pgTable(
  'fiscal_sequences',
  {
    shop: text('shop').notNull(),
    /** 'pruebas' or 'produccion'. The default only serves rows made before the series were split (drizzle/0006). */
    environment: text('environment').notNull().default('pruebas'),
    branchCode: text('branch_code').notNull(),
    billingPoint: text('billing_point').notNull(),
    documentType: text('document_type').notNull(),
    nextNumber: bigint('next_number', { mode: 'number' }).notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.shop, t.environment, t.branchCode, t.billingPoint, t.documentType] })],
);

/** Numbers passed over, each with its reason (used outside the app, …), in their series. */
export const fiscalSkips = pgTable('fiscal_skips', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  shop: text('shop').notNull(),
  /** The default only serves rows made before the series were split (drizzle/0006). */
  environment: text('environment').notNull().default('pruebas'),
  branchCode: text('branch_code').notNull(),
  billingPoint: text('billing_point').notNull(),
  documentType: text('document_type').notNull(),
  number: bigint('number', { mode: 'number' }).notNull(),
  reason: text('reason').notNull(),
  documentId: uuid('document_id'),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

/**
 * Every move of a series' next number other than by issuing: `set_next` (a person: who, when, from, to) and `split`
 * (the migration that gave each environment its own series, from the shared sequence's next number to its own).
 */
export const fiscalSeriesChanges = pgTable(
  'fiscal_series_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shop: text('shop').notNull(),
    environment: text('environment').notNull(),
    branchCode: text('branch_code').notNull(),
    billingPoint: text('billing_point').notNull(),
    documentType: text('document_type').notNull(),
    kind: text('kind', { enum: ['set_next', 'split'] }).notNull(),
    fromNext: bigint('from_next', { mode: 'number' }).notNull(),
    toNext: bigint('to_next', { mode: 'number' }).notNull(),
    /** Who: `cli:<user>` or `admin:<user id>`; `migration` for a split. */
    changedBy: text('changed_by').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('fiscal_series_changes_series_idx').on(t.shop, t.environment, t.branchCode, t.billingPoint, t.documentType),
    check('fiscal_series_changes_kind_ck', oneOf('kind', ['set_next', 'split'])),
  ],
);
