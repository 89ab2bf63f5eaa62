// The bulk actions' world (issue 30 item 3): one shop whose orders went through the whole product — the store
// simulator's webhooks, the app's worker, the sandbox gateway — so `authorized` documents hold the PDFs the gateway
// made, and `stopped` ones (a wrong RUC check digit) wait for a person. The app e-mails through a mail catcher.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { documentEmails, documents } from '../../src/db/schema.ts';
import { type DocumentRow, pdfToken } from '../../src/documents/store/index.ts';
import { pdfUrl } from '../../src/documents/pdf-link.ts';
import { type MailCatcher, startMailCatcher } from '../../sim/demo/mail-catcher.ts';
import { type Harness, startHarness, waitFor } from '../../sim/harness/harness.ts';
import { makePaidOrder } from './order-factory.ts';

export interface BulkWorld {
  readonly h: Harness;
  readonly database: Database;
  readonly catcher: MailCatcher;
  /** Authorized invoices, oldest order first. */
  readonly authorized: DocumentRow[];
  /** Invoices that need attention (the RUC's check digit is wrong). */
  readonly stopped: DocumentRow[];
}

/** Send `count` paid orders from `firstId` (those in `broken` with a wrong check digit) and wait until each has settled. */
async function sendOrders(h: Harness, shop: string, firstId: number, count: number, broken: Set<number>): Promise<void> {
  const ids = Array.from({ length: count }, (_, i) => firstId + i);
  // Ten webhooks at a time, as a busy store sends them.
  for (let i = 0; i < ids.length; i += 10) {
    await Promise.all(
      ids.slice(i, i + 10).map((id) => {
        const order = makePaidOrder({ id, email: `cliente-${id}@example.com` });
        if (broken.has(id)) {
          order.note_attributes = [
            { name: 'ruc', value: '155596713-2-2015' },
            { name: 'dv', value: '58' },
            { name: 'razon_social', value: 'Empresa Ejemplo, S.A.' },
          ];
        }
        return h.simulator.orderPaid(shop, order, h.webhookAddress);
      }),
    );
  }
}

/**
 * A describe block's world: `good` authorized invoices and `bad` stopped ones for `shop`, made before the block's
 * tests (orders numbered from `firstOrderId`); everything closed after them.
 */
export function bulkWorldFor(
  target: { open(): Promise<Database> },
  o: { shop: string; firstOrderId: number; good: number; bad: number },
): BulkWorld {
  let database: Database | undefined;
  let h: Harness | undefined;
  let catcher: MailCatcher | undefined;
  let authorized: DocumentRow[] = [];
  let stopped: DocumentRow[] = [];
  beforeAll(async () => {
    database = await target.open();
    catcher = await startMailCatcher();
    h = await startHarness({ database, env: { SMTP_URL: catcher.url, MAIL_FROM: 'facturas@tienda.example' } });
    await h.installShop(o.shop);
    const total = o.good + o.bad;
    // The stopped ones spread among the others, as they come in a real day.
    const broken = new Set(Array.from({ length: o.bad }, (_, i) => o.firstOrderId + Math.floor(((i + 0.5) * total) / o.bad)));
    await sendOrders(h, o.shop, o.firstOrderId, total, broken);
    const db = database.db;
    const settled = await waitFor(
      async () => {
        const rows = await db.select().from(documents).where(eq(documents.shop, o.shop));
        const done = rows.filter((r) => r.status === 'completed' || r.status === 'needs_attention');
        return rows.length === total && done.length === total && rows;
      },
      120_000,
      `${total} documents to settle`,
    );
    const byOrder = (a: DocumentRow, b: DocumentRow) => a.orderGid.localeCompare(b.orderGid);
    authorized = settled.filter((r) => r.status === 'completed').sort(byOrder);
    stopped = settled.filter((r) => r.status === 'needs_attention').sort(byOrder);
    if (authorized.length !== o.good || stopped.length !== o.bad) throw new Error('the bulk world settled otherwise than planned');
    // Each authorization's own e-mail has gone, so what follows counts only resends.
    await waitFor(
      async () => {
        const sent = await db
          .select()
          .from(documentEmails)
          .where(and(eq(documentEmails.shop, o.shop), eq(documentEmails.status, 'sent')));
        return sent.length === o.good;
      },
      60_000,
      'the authorization e-mails',
    );
  }, 240_000);
  afterAll(async () => {
    await h?.close();
    await catcher?.close();
    await database?.close();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} starts in beforeAll`);
    return value;
  };
  return {
    get h() {
      return need(h, 'the harness');
    },
    get database() {
      return need(database, 'the database');
    },
    get catcher() {
      return need(catcher, 'the mail catcher');
    },
    get authorized() {
      return authorized;
    },
    get stopped() {
      return stopped;
    },
  };
}

/** The PDF link of each document (the address written on its order). */
export async function pdfLinks(world: BulkWorld, shop: string, ids: readonly string[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  for (const id of ids) links.set(id, pdfUrl(world.h.app.url, (await pdfToken(world.database.db, shop, id))!));
  return links;
}

/** A shop's resend e-mails (reason 'resend') of these documents. */
export function resendsOf(world: BulkWorld, ids: readonly string[]) {
  return world.database.db
    .select()
    .from(documentEmails)
    .where(and(eq(documentEmails.reason, 'resend'), inArray(documentEmails.documentId, [...ids])));
}
