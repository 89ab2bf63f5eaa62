// What the fault suite verifies after each scenario (test/soak/fault-injection.test.ts), against the database, the
// sandbox gateway's registry and the store simulator's metafields: every order invoiced once, every refund credited
// once, no fiscal number used twice or skipped without a reason in either sequence, no document sent again after its
// success was saved.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { Database } from '../../src/db/database.ts';
import { documents, fiscalSkips } from '../../src/db/schema.ts';
import { type DocumentRow, documentCalls } from '../../src/documents/store/index.ts';
import type { IssuedDocumentSummary } from '../../sim/sandbox/issued-documents.ts';
import type { SandboxStats } from '../../sim/sandbox/sandbox-gateway.ts';
import type { RunningSandbox } from '../../sim/sandbox/sandbox-server.ts';
import type { RestRefund, StoreSimulator } from '../../sim/store-simulator/store-simulator.ts';
import { lastErrorText } from './documents.ts';
import { refundGid, refundedCents } from './fault-refunds.ts';

const INVOICE_KEYS = ['authorized_at', 'buyer_url', 'cufe', 'fiscal_number', 'pdf_url', 'protocol', 'qr_url'];

export interface Verified {
  orders: number;
  highestNumber: number;
  skipped: number;
  /** Invoices recovered after a lost answer: the protocol number was only in that answer. */
  recovered: number;
}

export interface VerifiedNotes {
  notes: number;
  highestNumber: number;
  skipped: number;
  /** Notes recovered after a lost answer (102, then StatusDocument and the PDF). */
  recovered: number;
  /** SendDocument requests for notes beyond one per note (resent before any success was saved). */
  resent: number;
}

type SendDocumentLog = { at: number; company: string; type: string; number: number }[];

/**
 * Every SendDocument the sandbox receives, with the time it arrived, to check that nothing is sent again once its
 * success is saved. Wraps the gateway in place (the HTTP server calls `gateway.handle`).
 */
export function recordSendDocuments(sandbox: RunningSandbox): SendDocumentLog {
  const log: SendDocumentLog = [];
  const gateway = sandbox.gateway;
  const handle = gateway.handle.bind(gateway);
  gateway.handle = (operation, body, authorization) => {
    if (operation === 'SendDocument') {
      const b = body as { Company?: string; document?: { dataTransaction?: { typeDocument?: string; numberDocumentFiscal?: string } } };
      const data = b.document?.dataTransaction;
      log.push({ at: Date.now(), company: b.Company ?? '', type: data?.typeDocument ?? '', number: Number(data?.numberDocumentFiscal) });
    }
    return handle(operation, body, authorization);
  };
  return log;
}

/** SendDocument requests for a completed document that arrived after its authorization was saved: must be none. */
async function sentAfterSuccess(database: Database, log: SendDocumentLog, shop: string, rows: readonly DocumentRow[]): Promise<string[]> {
  const found = rows.flatMap((row) =>
    log
      .filter((s) => s.company === shop && s.type === row.documentType && s.number === row.fiscalNumber)
      .filter((s) => s.at > row.authorizedAt!.getTime())
      .map((s) => ({ row, late: s.at - row.authorizedAt!.getTime() })),
  );
  // With what the app logged of its calls for it, to tell a second sender from a clock's disagreement.
  return Promise.all(
    found.map(async ({ row, late }) => {
      const calls = await documentCalls(database.db, row.id);
      const sends = log.filter((s) => s.company === shop && s.type === row.documentType && s.number === row.fiscalNumber);
      return (
        `${row.documentType} ${row.fiscalNumber} sent ${late} ms after its success (authorized ${row.authorizedAt!.toISOString()}; ` +
        `sandbox saw ${sends.map((s) => new Date(s.at).toISOString()).join(', ')}; app logged ` +
        `${calls.map((c) => `${c.createdAt.toISOString()} ${c.operation} ${c.outcome}`).join(', ')})`
      );
    }),
  );
}

/** Numbers 1…highest of one sequence each issued once or skipped once with a reason; returns highest and skipped. */
async function numbersUsedOnce(database: Database, shop: string, type: string, issued: readonly IssuedDocumentSummary[]) {
  const byNumber = new Map(issued.map((d) => [Number(d.numberDocumentFiscal), d]));
  expect(byNumber.size, `type ${type}: a number issued twice`).toBe(issued.length);
  const skips = await database.db
    .select()
    .from(fiscalSkips)
    .where(and(eq(fiscalSkips.shop, shop), eq(fiscalSkips.documentType, type)));
  for (const s of skips) expect(s.reason.length).toBeGreaterThan(10);
  const skipped = skips.map((s) => s.number);
  expect(new Set(skipped).size).toBe(skipped.length);
  for (const n of skipped) expect(byNumber.has(n), `type ${type} number ${n} both skipped and issued`).toBe(false);
  const used = [...byNumber.keys(), ...skipped].sort((a, b) => a - b);
  const highestNumber = used.at(-1) ?? 0;
  expect(used).toEqual(Array.from({ length: highestNumber }, (_, i) => i + 1));
  return { byNumber, highestNumber, skipped: skipped.length };
}

const rowsOf = (database: Database, shop: string, kind: 'invoice' | 'credit_note') =>
  database.db
    .select()
    .from(documents)
    .where(and(eq(documents.shop, shop), eq(documents.kind, kind)));

/**
 * Every order authorized exactly once (the gateway holds one invoice per order for the shop, at the invoice's
 * number, with its CUFE and total), numbers 1…highest each either issued once or skipped with a reason, and every
 * order's metafields written. With `log`, no invoice was sent again after its success was saved.
 */
export async function verifyExactlyOnce(
  database: Database,
  sandbox: RunningSandbox,
  simulator: StoreSimulator,
  shop: string,
  orderIds: number[],
  log?: SendDocumentLog,
): Promise<Verified> {
  const rows = await rowsOf(database, shop, 'invoice');
  expect(rows).toHaveLength(orderIds.length);
  expect(rows.filter((r) => r.status !== 'completed').map((r) => `${r.orderName}: ${r.status} ${lastErrorText(r)}`)).toEqual([]);
  expect(new Set(rows.map((r) => r.orderGid))).toEqual(new Set(orderIds.map((id) => `gid://shopify/Order/${id}`)));

  const issued = sandbox.gateway.documents().filter((d) => d.company === shop && d.typeDocument === '01');
  expect(issued).toHaveLength(orderIds.length);
  const { byNumber, highestNumber, skipped } = await numbersUsedOnce(database, shop, '01', issued);
  for (const row of rows) {
    const doc = byNumber.get(row.fiscalNumber!);
    expect(doc, `invoice ${row.orderName} number ${row.fiscalNumber} at the gateway`).toBeDefined();
    expect(doc!.cufe).toBe(row.cufe);
    expect(doc!.totalInvoice).toBe(formatCents(row.totalCents));
  }
  if (log) expect(await sentAfterSuccess(database, log, shop, rows)).toEqual([]);

  let recovered = 0;
  for (const row of rows) {
    // The order's notes have a metafield of their own (checked with the notes).
    const fields = simulator.metafields(row.orderGid, shop).filter((f) => f.key !== 'credit_notes');
    // Shopify refuses a blank value: an invoice recovered after a lost answer has no protocol number to write.
    const expected = row.protocol ? INVOICE_KEYS : INVOICE_KEYS.filter((k) => k !== 'protocol');
    if (!row.protocol) recovered++;
    expect(fields.map((f) => f.key).sort(), `metafields of ${row.orderName}`).toEqual(expected);
    expect(fields.find((f) => f.key === 'cufe')?.value).toBe(row.cufe);
  }
  return { orders: rows.length, highestNumber, skipped, recovered };
}

/**
 * Every refund has exactly one authorized note: its total the refund's to the cent, its reference the CUFE of its
 * order's invoice; type-04 numbers used once; no note sent again after its success was saved; the order's
 * credit_notes metafield lists its notes.
 */
export async function verifyNotes(
  database: Database,
  sandbox: RunningSandbox,
  simulator: StoreSimulator,
  shop: string,
  refunds: readonly RestRefund[],
  log: SendDocumentLog,
): Promise<VerifiedNotes> {
  const notes = await rowsOf(database, shop, 'credit_note');
  const invoices = new Map((await rowsOf(database, shop, 'invoice')).map((r) => [r.id, r]));
  expect(notes.filter((r) => r.status !== 'completed').map((r) => `${r.sourceKey}: ${r.status} ${lastErrorText(r)}`)).toEqual([]);
  expect(notes.map((n) => n.sourceKey).sort()).toEqual(refunds.map(refundGid).sort());

  const issued = sandbox.gateway.documents().filter((d) => d.company === shop && d.typeDocument === '04');
  expect(issued).toHaveLength(refunds.length);
  const { byNumber, highestNumber, skipped } = await numbersUsedOnce(database, shop, '04', issued);
  const bySource = new Map(notes.map((n) => [n.sourceKey, n]));
  for (const refund of refunds) {
    const note = bySource.get(refundGid(refund))!;
    const invoice = invoices.get(note.invoiceId!);
    expect(invoice?.orderGid, `the invoice of ${note.sourceKey}`).toBe(`gid://shopify/Order/${String(refund['order_id'])}`);
    const doc = byNumber.get(note.fiscalNumber!);
    expect(doc, `note ${note.sourceKey} number ${note.fiscalNumber} at the gateway`).toBeDefined();
    expect(doc!.cufe).toBe(note.cufe);
    expect([doc!.totalInvoice, note.totalCents]).toEqual([formatCents(refundedCents(refund)), refundedCents(refund)]);
    expect(doc!.reference?.cufe).toBe(invoice!.cufe);
  }
  expect(await sentAfterSuccess(database, log, shop, notes)).toEqual([]);

  const byOrder = Map.groupBy(notes, (n) => n.orderGid);
  for (const [orderGid, ofOrder] of byOrder) {
    const field = simulator.metafields(orderGid, shop).find((f) => f.key === 'credit_notes');
    const listed = JSON.parse(field?.value ?? '[]') as { cufe: string; amount: string; refund_id: string }[];
    expect(listed.map((l) => [l.refund_id, l.cufe, l.amount]).sort(), `credit_notes of ${orderGid}`).toEqual(
      ofOrder.map((n) => [n.sourceKey, n.cufe, formatCents(n.totalCents)]).sort(),
    );
  }
  const sends = log.filter((s) => s.company === shop && s.type === '04').length;
  return { notes: notes.length, highestNumber, skipped, recovered: notes.filter((n) => !n.protocol).length, resent: sends - notes.length };
}

export function injectedLine(stats: SandboxStats): string {
  const i = stats.injected;
  const calls = stats.requests.SendDocument + stats.requests.DownloadPDF + stats.requests.StatusDocument;
  const faults = i.error201 + i.http5xx + i.drop + i.authorizeThenLate;
  return `${faults} faults in ${calls} gateway calls (${Math.round((faults / Math.max(1, calls)) * 100)} %): ${i.error201} × 201, ${i.http5xx} × 5xx, ${i.drop} dropped, ${i.authorizeThenLate} authorized then answered late`;
}

export function verifiedLine(v: Verified): string {
  return `${v.orders} orders authorized once each, numbers 1…${v.highestNumber} used once (${v.skipped} skipped with a reason), metafields written (${v.recovered} recovered without protocol)`;
}

export function notesLine(v: VerifiedNotes): string {
  return `${v.notes} notes, one per refund, totals to the cent, referencing their invoice's CUFE, type-04 numbers 1…${v.highestNumber} used once (${v.skipped} skipped with a reason), none sent again after its success (${v.resent} resends before one; ${v.recovered} recovered without protocol), credit_notes metafields listing them`;
}
