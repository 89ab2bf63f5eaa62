// Column types and shared column sets of the schema (schema.ts, schema-series.ts, …).
import { sql } from 'drizzle-orm';
import { customType, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { EMAIL_STATUSES } from './email-state.ts';
import { LANGUAGES } from './languages.ts';

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * JSON kept as the text it arrived as: the order snapshot. Intake has parsed it already, so the database
 * need not parse it again (as jsonb it did, a large share of its CPU per delivery: bench/RESULTS.md); JSON
 * operators still work through a cast (`order_snapshot::json`).
 */
export const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text',
  toDriver: (v) => JSON.stringify(v),
  fromDriver: (v) => JSON.parse(v) as unknown,
});

/** 32 bytes from two v4 UUIDs (244 random bits) as 43 base64url characters; core SQL, so PGlite and PostgreSQL alike. */
export const BUYER_TOKEN_DEFAULT = sql.raw(
  `rtrim(translate(encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=')`,
);

/** A CHECK that a text column holds one of a declared list (the list is ours: no quoting needed beyond ''). */
export const oneOf = (column: string, values: readonly string[]) => sql.raw(`"${column}" in (${values.map((v) => `'${v}'`).join(', ')})`);

export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A queue's attempt counter and lease: who holds the row and until when (documents, e-mails). */
export const queueColumns = () => ({
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
  leaseOwner: text('lease_owner'),
  leaseUntil: tstz('lease_until'),
});

/** When a row was made and last changed. */
export const rowTimes = () => ({
  createdAt: tstz('created_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

/** An e-mail outbox's row (the buyer's, the accountant's): to whom, in which language, and its sending under a lease. */
export const emailOutboxColumns = () => ({
  recipient: text('recipient').notNull(),
  language: text('language', { enum: LANGUAGES }).notNull(),
  status: text('status', { enum: EMAIL_STATUSES }).notNull().default('pending'),
  ...queueColumns(),
  sentAt: tstz('sent_at'),
  /** The Message-ID header, chosen before the first attempt so a repeated send carries the same one. */
  messageId: text('message_id'),
  /** Why the last attempt failed, as a catalogue message { key, params }. */
  lastError: jsonb('last_error'),
  ...rowTimes(),
});
