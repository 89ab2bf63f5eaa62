// The accountant's e-mail outbox (report_emails): the only SQL on that table. The month's e-mail is queued once per
// shop and month whoever asks first (a unique index and ON CONFLICT DO NOTHING: several processes, restarts); the
// runner claims due rows with a lease (SKIP LOCKED), like the buyer's e-mails.
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/database.ts';
import { rowsOf } from '../db/database.ts';
import { reportEmails, shops } from '../db/schema.ts';
import type { Message } from '../messages/message.ts';
import type { ReportMonth } from './report-month.ts';

export type ReportEmailRow = typeof reportEmails.$inferSelect;

const leaseEnd = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/**
 * Queue `month`'s e-mail for every installed, enabled shop in production with an accountant's address that was
 * installed before the month ended and has none yet. Returns how many were queued by this call.
 */
export async function queueMonthlyEmails(db: Db, month: ReportMonth): Promise<number> {
  const result = await db.execute(sql`
    insert into ${reportEmails} (shop, month, environment, recipient, language, reason)
    select s.shop, ${month.month}, 'produccion', s.settings->>'accountantEmail', 'es', 'monthly'
    from ${shops} s
    where s.installed and s.enabled and s.settings->>'environment' = 'produccion'
      and coalesce(s.settings->>'accountantEmail', '') <> ''
      and s.installed_at < ${month.before.toISOString()}::timestamptz
    on conflict (shop, month) where reason = 'monthly' do nothing
    returning id`);
  return rowsOf(result).length;
}

/** A resend from the page: a new e-mail, or the one already waiting (pressing twice sends once). */
export async function queueReportResend(
  db: Db,
  o: { shop: string; month: string; recipient: string },
): Promise<{ email: ReportEmailRow; queued: boolean }> {
  const [waiting] = await db
    .select()
    .from(reportEmails)
    .where(and(eq(reportEmails.shop, o.shop), eq(reportEmails.month, o.month), eq(reportEmails.status, 'pending')))
    .limit(1);
  if (waiting) return { email: waiting, queued: false };
  const [row] = await db
    .insert(reportEmails)
    .values({ ...o, environment: 'produccion', language: 'es', reason: 'resend' })
    .returning();
  return { email: row!, queued: true };
}

/** Take up to `limit` due e-mails of installed shops and lease them to `owner`. */
export async function claimDueReportEmails(db: Db, o: { owner: string; limit: number; leaseMs: number }): Promise<ReportEmailRow[]> {
  const due = db
    .select({ id: reportEmails.id })
    .from(reportEmails)
    .innerJoin(shops, eq(shops.shop, reportEmails.shop))
    .where(
      and(
        eq(reportEmails.status, 'pending'),
        lte(reportEmails.nextAttemptAt, sql`now()`),
        or(isNull(reportEmails.leaseUntil), lte(reportEmails.leaseUntil, sql`now()`)),
        eq(shops.installed, true),
      ),
    )
    .orderBy(asc(reportEmails.nextAttemptAt))
    .limit(o.limit)
    .for('update', { of: reportEmails, skipLocked: true });
  return db
    .update(reportEmails)
    .set({ leaseOwner: o.owner, leaseUntil: leaseEnd(o.leaseMs), updatedAt: sql`now()` })
    .where(inArray(reportEmails.id, due))
    .returning();
}

/** The attempt's result, written only while `owner` holds the lease; false when it was lost. */
export async function finishReportEmail(
  db: Db,
  id: string,
  owner: string,
  patch: Partial<Pick<ReportEmailRow, 'status' | 'attempts' | 'nextAttemptAt' | 'sentAt' | 'messageId'>> & { lastError?: Message | null },
): Promise<boolean> {
  const done = await db
    .update(reportEmails)
    .set({ ...patch, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(reportEmails.id, id), eq(reportEmails.leaseOwner, owner)))
    .returning({ id: reportEmails.id });
  return done.length > 0;
}

/** A shop's e-mails of a month, newest first. */
export async function reportEmailsOf(db: Db, shop: string, month: string): Promise<ReportEmailRow[]> {
  return db
    .select()
    .from(reportEmails)
    .where(and(eq(reportEmails.shop, shop), eq(reportEmails.month, month)))
    .orderBy(desc(reportEmails.createdAt), desc(reportEmails.id));
}

/** shop/redact: the shop's accountant e-mails. */
export async function deleteShopReportEmails(db: Db | Tx, shop: string): Promise<number> {
  const rows = await db.delete(reportEmails).where(eq(reportEmails.shop, shop)).returning({ id: reportEmails.id });
  return rows.length;
}
