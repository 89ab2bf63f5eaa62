// The invoices a privacy request is about: the orders it lists, and any other order of the same customer
// (by Shopify customer id or e-mail address) that we hold for that shop.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/database.ts';
import { invoices } from '../db/schema.ts';
import type { DataSubject } from './compliance-payloads.ts';

export type CustomerInvoiceRow = typeof invoices.$inferSelect;

export async function findCustomerInvoices(db: Db | Tx, shop: string, subject: DataSubject): Promise<CustomerInvoiceRow[]> {
  // Stored as text: the JSON operators need the cast.
  const snapshot = sql`${invoices.orderSnapshot}::json`;
  const matches = [
    subject.orderGids.length > 0 ? inArray(invoices.orderGid, subject.orderGids) : undefined,
    subject.customerId !== undefined ? sql`${snapshot}->'customer'->>'id' = ${subject.customerId}` : undefined,
    subject.email !== undefined
      ? or(
          sql`lower(${snapshot}->>'email') = ${subject.email}`,
          sql`lower(${snapshot}->>'contact_email') = ${subject.email}`,
          sql`lower(${snapshot}->'customer'->>'email') = ${subject.email}`,
        )
      : undefined,
  ].filter((m) => m !== undefined);
  if (matches.length === 0) return [];
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.shop, shop), or(...matches)))
    .orderBy(invoices.createdAt);
}
