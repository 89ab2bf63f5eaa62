// Fakes of the use case's ports (src/documents/issuing-ports.ts), each an object that `satisfies` its interface so the
// compiler catches drift. They share one journal: every store write and read, gateway slot and call, and Admin API
// call, in the order made. The gateway answers only what a test queued (a call with nothing queued fails the test),
// and `unused()` lists what was queued and never asked for.
import type { GatewayClient, PdfOutcome, SendOutcome, StatusOutcome } from '../../src/gateway/gateway-client.ts';
import type { AdminResult } from '../../src/shopify/admin-client.ts';
import type { CreditedNotes, GatewayAccess, IssuingDeps, IssuingStore } from '../../src/documents/issuing-ports.ts';
import type { ShopifyOrders } from '../../src/shopify/shopify-orders.ts';
import type { OrderBuyer } from '../../src/shopify/order-queries.ts';
import type { DocumentPatch, DocumentRow } from '../../src/documents/store/index.ts';
import { APP_URL, CLAIMED_AT, NEXT_NUMBER } from './issuing-factories.ts';

/** One call through a port: its name and arguments (the document in hand is left out: there is one). */
export type Call = [string, ...unknown[]];

/** What the fake store holds and how it behaves; a test changes it before the step. */
export interface StoreState {
  /** The number reserveNumber hands out next. */
  nextNumber: number;
  /** The store's writes fail from this one on (1 = the first), as when another worker took the lease. */
  leaseLostAtWrite: number | undefined;
  writes: number;
  pdfTokens: Map<string, string>;
  completedNotes: DocumentRow[];
  /** Another note of the invoice was saved first: markSending answers 'stale'. */
  staleNotes: boolean;
  /** CUFEs other documents of the shop hold (document id by CUFE). */
  cufeHolders: Map<string, string>;
  /** A CUFE of the shop's completed documents (its issuer), if any. */
  issuerCufe: string | undefined;
  /** Numbers the document has skipped so far. */
  skips: number;
}

function fakeStore(journal: Call[], state: StoreState) {
  const write = () => ++state.writes < (state.leaseLostAtWrite ?? Infinity);
  return {
    async update(doc: DocumentRow, patch: DocumentPatch) {
      journal.push(['store.update', patch]);
      if (!write()) return undefined;
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return { ...doc, ...changes } as DocumentRow;
    },
    async markSending(doc: DocumentRow, patch: DocumentPatch, credited?: CreditedNotes) {
      journal.push(credited ? ['store.markSending', patch, credited] : ['store.markSending', patch]);
      if (!write()) return undefined;
      if (state.staleNotes) return 'stale' as const;
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return { ...doc, ...changes } as DocumentRow;
    },
    async reserveNumber(doc: DocumentRow, numbering: { environment: string; branchCode: string; billingPoint: string }) {
      journal.push(['store.reserveNumber', numbering]);
      // As the real statement: a document that has a number keeps it, and gets none.
      if (!write() || doc.fiscalNumber !== null) return undefined;
      return { ...doc, ...numbering, fiscalNumber: state.nextNumber++, sendMayHaveReached: false };
    },
    async releaseNumber(doc: DocumentRow, reason: string) {
      journal.push(['store.releaseNumber', reason]);
      if (!write()) return undefined;
      return { ...doc, fiscalNumber: null, sendMayHaveReached: false };
    },
    // Reads for the checks of the gateway's answers; not journaled (they change nothing).
    async cufeHolder(_shop: string, cufe: string, exceptId: string) {
      const id = state.cufeHolders.get(cufe);
      return id !== undefined && id !== exceptId ? { id } : undefined;
    },
    async shopIssuerCufe() {
      return state.issuerCufe;
    },
    async authorizationChecks(_shop: string, cufe: string, exceptId: string) {
      const id = state.cufeHolders.get(cufe);
      return { issuerCufe: state.issuerCufe, held: id !== undefined && id !== exceptId };
    },
    async skipsOf() {
      return state.skips;
    },
    async pdfToken(documentId: string) {
      journal.push(['store.pdfToken', documentId]);
      return state.pdfTokens.get(documentId);
    },
    async documentById(id: string) {
      journal.push(['store.documentById', id]);
      return undefined;
    },
    async currentInvoice(shop: string, orderGid: string) {
      journal.push(['store.currentInvoice', shop, orderGid]);
      return undefined;
    },
    async notesAgainst(invoiceId: string, except: string) {
      journal.push(['store.notesAgainst', invoiceId, except]);
      return [];
    },
    async orderWasRefused(shop: string, orderGid: string) {
      journal.push(['store.orderWasRefused', shop, orderGid]);
      return undefined;
    },
    async completedNotes(shop: string, orderGid: string) {
      journal.push(['store.completedNotes', shop, orderGid]);
      return state.completedNotes.map((n) => ({ ...n, pdfToken: state.pdfTokens.get(n.id) ?? null }));
    },
  } satisfies IssuingStore;
}

/** Answers queued per gateway operation, taken first in, first out. */
export interface GatewayScript {
  send: SendOutcome[];
  pdf: PdfOutcome[];
  status: StatusOutcome[];
}

function next<T>(queue: T[], operation: string): T {
  const answer = queue.shift();
  if (!answer) throw new Error(`the gateway was asked ${operation} and no answer was queued`);
  return answer;
}

function fakeGatewayClient(journal: Call[], script: GatewayScript) {
  return {
    async sendDocument(req) {
      journal.push(['gateway.SendDocument', req]);
      return next(script.send, 'SendDocument');
    },
    async downloadPdf(req) {
      journal.push(['gateway.DownloadPDF', req]);
      return next(script.pdf, 'DownloadPDF');
    },
    async statusDocument(req) {
      journal.push(['gateway.StatusDocument', req]);
      return next(script.status, 'StatusDocument');
    },
  } satisfies GatewayClient;
}

/** One gateway slot per task, taken and released in the journal, as the runner's Slots do. */
function fakeGatewayAccess(journal: Call[], client: GatewayClient) {
  const run: GatewayAccess['run'] = async (task) => {
    journal.push(['slot.take']);
    try {
      return await task(client);
    } finally {
      journal.push(['slot.release']);
    }
  };
  // The slot came at once: the lease the document was just saved under still holds.
  return { run, runLeased: (_doc, task) => run(task) } satisfies GatewayAccess;
}

/** The Admin API's answers; each defaults to success. */
export interface ShopifyScript {
  confirmOrder: AdminResult<OrderBuyer | null>;
  confirmRefund: AdminResult<boolean>;
  readOrder: AdminResult<{ text: string; json: unknown } | null>;
  orderTransactions: AdminResult<unknown[]>;
  writeInvoiceMetafields: AdminResult<unknown>;
  writeCreditNotesMetafield: AdminResult<unknown>;
}

function fakeShopifyOrders(journal: Call[], script: ShopifyScript) {
  return {
    async confirmOrder(shop, orderGid, want) {
      journal.push(['shopify.confirmOrder', shop, orderGid, want]);
      return script.confirmOrder;
    },
    async confirmRefund(shop, refundGid) {
      journal.push(['shopify.confirmRefund', shop, refundGid]);
      return script.confirmRefund;
    },
    async readOrder(shop, orderGid) {
      journal.push(['shopify.readOrder', shop, orderGid]);
      return script.readOrder;
    },
    async orderTransactions(shop, orderGid) {
      journal.push(['shopify.orderTransactions', shop, orderGid]);
      return script.orderTransactions;
    },
    async writeInvoiceMetafields(shop, orderGid, values) {
      journal.push(['shopify.writeInvoiceMetafields', shop, orderGid, values]);
      return script.writeInvoiceMetafields;
    },
    async writeCreditNotesMetafield(shop, orderGid, notes) {
      journal.push(['shopify.writeCreditNotesMetafield', shop, orderGid, notes]);
      return script.writeCreditNotesMetafield;
    },
  } satisfies ShopifyOrders;
}

/** The use case's world: its dependencies, what they will answer, and the journal of what it asked. */
export function issuingWorld() {
  const journal: Call[] = [];
  const clock = { now: CLAIMED_AT };
  const store: StoreState = {
    nextNumber: NEXT_NUMBER,
    leaseLostAtWrite: undefined,
    writes: 0,
    pdfTokens: new Map(),
    completedNotes: [],
    staleNotes: false,
    cufeHolders: new Map(),
    issuerCufe: undefined,
    skips: 0,
  };
  const gateway: GatewayScript = { send: [], pdf: [], status: [] };
  const shopify: ShopifyScript = {
    confirmOrder: { ok: true, data: { company: undefined, customerMetafield: undefined } },
    confirmRefund: { ok: true, data: true },
    readOrder: { ok: true, data: null },
    orderTransactions: { ok: true, data: [] },
    writeInvoiceMetafields: { ok: true, data: { written: 7 } },
    writeCreditNotesMetafield: { ok: true, data: { written: 1 } },
  };
  const deps: IssuingDeps = {
    store: fakeStore(journal, store),
    gateway: fakeGatewayAccess(journal, fakeGatewayClient(journal, gateway)),
    shopify: fakeShopifyOrders(journal, shopify),
    clock: () => clock.now,
    appUrl: APP_URL,
  };
  return {
    deps,
    journal,
    clock,
    store,
    gateway,
    shopify,
    /** Gateway answers queued and never asked for. */
    unused: () => [...gateway.send, ...gateway.pdf, ...gateway.status],
  };
}
export type IssuingWorld = ReturnType<typeof issuingWorld>;
