// The invoice worker: claims due invoice rows with a lease and moves each through its steps
// (send → pdf → writeback), recording every step on the row so a restart resumes where it stopped.
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseShopifyOrder } from '../../mappers/shopify-order.ts';
import {
  ORDER_TRANSACTIONS_QUERY,
  needsTransactions,
  orderToDocument,
  parseOrderTransactions,
  type OrderTransaction,
} from '../../mappers/order-to-document.ts';
import type { AppConfig } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import { type GatewayCallRecord, type GatewayClient, createGatewayClient } from '../gateway/gateway-client.ts';
import type { DocumentKey } from '../gateway/gateway-types.ts';
import type { GatewayDocument } from '../../mappers/gateway-document.ts';
import type { Logger } from '../logger.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { writeInvoiceMetafields } from '../shopify/metafield-writer.ts';
import type { Shop, ShopRepository } from '../shops/shop-repository.ts';
import { Slots } from '../slots.ts';
import { type InvoiceError, invoiceError, isRetryable, messages } from './invoice-errors.ts';
import {
  type InvoicePatch,
  type InvoiceRow,
  claimDueInvoices,
  finishLeased,
  pdfTokenFor,
  type GatewayCallLog,
  recordGatewayCalls,
  releaseLease,
  reserveFiscalNumber,
  skipFiscalNumber,
  storePdfAndUpdate,
  updateLeased,
} from './invoice-repository.ts';
import { cufeLookupUrl, extractCufeFromPdf, pdfShowsAmount } from './pdf-cufe.ts';

export type WorkerOptions = Omit<AppConfig['worker'], 'enabled'>;

export interface GatewaySettings {
  baseUrl: string;
  authToken: string;
  authScheme: 'bearer' | 'bare';
  timeoutMs: number;
}

export interface InvoiceWorkerDeps {
  db: Db;
  shops: ShopRepository;
  admin: ShopifyAdmin;
  gateway: GatewaySettings;
  /** Public origin of the app, for PDF links. */
  appUrl: string;
  logger: Logger;
  options: WorkerOptions;
  now?: () => Date;
  random?: () => number;
  /** Sees every gateway call too (metrics). */
  onGatewayCall?: (call: GatewayCallRecord) => void;
}

/** What one step did: go on to the next step with this row, or stop (the row is saved and released). */
type StepResult = { kind: 'next'; row: InvoiceRow } | { kind: 'stop' };
const STOP: StepResult = { kind: 'stop' };

/** How many numbers one claim may skip in a row before it waits (numbers used outside the app). */
const MAX_SKIPS_PER_CLAIM = 25;

export class InvoiceWorker {
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly d: InvoiceWorkerDeps;
  private readonly o: WorkerOptions;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perShop = new Map<string, number>();
  /** The gateway's share of concurrency; the worker holds more invoices so their other work overlaps the calls. */
  readonly gatewaySlots: Slots;
  private readonly claimBatch: number;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private again = false;
  private stopped = true;
  /** Last time the loop ran, for /healthz. */
  lastTickAt: Date | undefined;

  constructor(deps: InvoiceWorkerDeps) {
    this.d = deps;
    this.o = deps.options;
    this.now = deps.now ?? (() => new Date());
    this.random = deps.random ?? Math.random;
    this.gatewaySlots = new Slots(deps.options.gatewayConcurrency);
    this.claimBatch = Math.max(1, Math.floor(deps.options.concurrency / 4));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.o.pollMs);
    this.timer.unref?.();
    this.wake();
  }

  /** Stop claiming and wait for the invoices in hand. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /** Look for due work now (called on a timer, after each invoice, and by the webhook intake). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((error: unknown) => this.d.logger.error({ err: error }, 'invoice worker: claim failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          setImmediate(() => this.wake());
        }
      });
  }

  private async tick(): Promise<void> {
    this.lastTickAt = new Date();
    while (!this.stopped) {
      const capacity = this.o.concurrency - this.inFlight.size;
      // Claim in batches: one claim per finished invoice would be most of the worker's queries. With more
      // invoices in hand than gateway slots, the slots stay busy while a quarter of the places refill.
      if (capacity <= 0 || (this.inFlight.size > 0 && capacity < this.claimBatch)) return;
      const fullShops = [...this.perShop].filter(([, n]) => n >= this.o.shopConcurrency).map(([s]) => s);
      const rows = await claimDueInvoices(this.d.db, { owner: this.owner, limit: capacity, leaseMs: this.o.leaseMs, skipShops: fullShops });
      if (rows.length === 0) return;
      // One read of each shop for the batch: its settings and credentials as of this claim.
      const shopsRead = new Map<string, Promise<Shop | undefined>>();
      for (const row of rows) {
        if ((this.perShop.get(row.shop) ?? 0) >= this.o.shopConcurrency) {
          await releaseLease(this.d.db, row.id, this.owner);
          continue;
        }
        if (!shopsRead.has(row.shop)) shopsRead.set(row.shop, this.d.shops.get(row.shop));
        this.launch(row, shopsRead.get(row.shop)!);
      }
    }
  }

  private launch(row: InvoiceRow, shop: Promise<Shop | undefined>): void {
    this.perShop.set(row.shop, (this.perShop.get(row.shop) ?? 0) + 1);
    const done = this.process(row, shop)
      .catch((error: unknown) => {
        // The lease runs out and another attempt picks the invoice up where its steps stopped.
        this.d.logger.error({ err: error, invoiceId: row.id, shop: row.shop }, 'invoice worker: unexpected error');
      })
      .finally(() => {
        this.inFlight.delete(row.id);
        const n = (this.perShop.get(row.shop) ?? 1) - 1;
        if (n <= 0) this.perShop.delete(row.shop);
        else this.perShop.set(row.shop, n);
        this.wake();
      });
    this.inFlight.set(row.id, done);
  }

  /** Run the invoice's steps until it is done, waits, or needs a person. */
  async process(claimed: InvoiceRow, shopRead: Promise<Shop | undefined>): Promise<void> {
    const shop = await shopRead;
    if (!shop || !shop.enabled || !shop.credentials) {
      await releaseLease(this.d.db, claimed.id, this.owner);
      return;
    }
    const ctx = new StepContext(this, shop, claimed);
    let result: StepResult = { kind: 'next', row: claimed };
    let skips = 0;
    while (result.kind === 'next' && result.row.status === 'pending') {
      const row: InvoiceRow = result.row;
      try {
        result = await this.runStep(row, ctx, skips++);
      } catch (error) {
        // A bug or a database hiccup: count it as an attempt, so a poisoned invoice ends up failed
        // (visible, retryable by hand) instead of crashing its worker again every lease.
        const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
        this.d.logger.error({ err: error, invoiceId: row.id, shop: row.shop, step: row.step }, 'invoice step failed unexpectedly');
        result = await this.retryLater(row, invoiceError('unavailable', `internal error (${detail})`), ctx);
      }
    }
    await ctx.flushCalls();
  }

  private async runStep(row: InvoiceRow, ctx: StepContext, skips: number): Promise<StepResult> {
    switch (row.step) {
      case 'send':
        if (skips > MAX_SKIPS_PER_CLAIM) {
          return this.retryLater(
            row,
            invoiceError('unavailable', 'too many fiscal numbers in a row were already used outside the app'),
            ctx,
          );
        }
        return this.sendStep(row, ctx);
      case 'pdf':
        return this.pdfStep(row, ctx);
      case 'writeback':
        return this.writebackStep(row, ctx);
      default:
        await finishLeased(this.d.db, row.id, this.owner, { status: 'completed' });
        return STOP;
    }
  }

  // ── send ────────────────────────────────────────────────────────────────────────────────

  private async sendStep(row: InvoiceRow, ctx: StepContext): Promise<StepResult> {
    const { shop } = ctx;
    if (row.test && shop.settings.environment === 'produccion') {
      await finishLeased(this.d.db, row.id, this.owner, {
        status: 'skipped',
        lastErrorKind: null,
        lastErrorMessage: messages.testOrderInProduction(),
      });
      return STOP;
    }

    const parsed = parseShopifyOrder(row.orderSnapshot);
    if (!parsed.ok) return this.needsAttention(row, invoiceError('mapping', summarizeProblems(parsed.problems)), ctx, parsed.problems);

    let transactions: OrderTransaction[] | undefined;
    if (needsTransactions(parsed.order)) {
      const fetched = await this.d.admin.graphql<{ order: { transactions: unknown[] } | null }>(row.shop, ORDER_TRANSACTIONS_QUERY, {
        id: row.orderGid,
      });
      if (!fetched.ok) {
        const error = invoiceError(
          fetched.retryable ? 'unavailable' : 'mapping',
          `could not read the order's payments from Shopify: ${fetched.message}`,
        );
        return fetched.retryable ? this.retryLater(row, error, ctx) : this.needsAttention(row, error, ctx);
      }
      const parsedTransactions = parseOrderTransactions(fetched.data.order?.transactions ?? []);
      if (!parsedTransactions.ok)
        return this.needsAttention(
          row,
          invoiceError('mapping', summarizeProblems(parsedTransactions.problems)),
          ctx,
          parsedTransactions.problems,
        );
      transactions = parsedTransactions.transactions;
    }

    const map = (r: InvoiceRow, fiscalNumber: number) =>
      orderToDocument({
        order: parsed.order,
        settings: shop.settings.mapping,
        ...(transactions ? { transactions } : {}),
        numbering: {
          branchCode: r.branchCode ?? shop.settings.branchCode,
          billingPoint: r.billingPoint ?? shop.settings.billingPoint,
          fiscalNumber,
        },
        now: this.now(),
      });

    // Map before reserving: an order that cannot be invoiced must not consume a fiscal number.
    let current = row;
    if (current.fiscalNumber === null) {
      const dryRun = map(current, 1);
      if (!dryRun.ok) {
        // Only gift cards or tips (left out by the settings): there is no sale to invoice.
        if (dryRun.problems.every((p) => p.code === 'nothing_to_invoice')) {
          await finishLeased(this.d.db, current.id, this.owner, {
            status: 'skipped',
            lastErrorKind: null,
            lastErrorMessage: summarizeProblems(dryRun.problems),
            problems: dryRun.problems,
          });
          return STOP;
        }
        return this.needsAttention(current, invoiceError('mapping', summarizeProblems(dryRun.problems)), ctx, dryRun.problems);
      }
      const reserved = await reserveFiscalNumber(this.d.db, current, this.owner, this.o.leaseMs, {
        branchCode: shop.settings.branchCode,
        billingPoint: shop.settings.billingPoint,
      });
      if (!reserved) return STOP;
      current = reserved;
    }
    const mapped = map(current, current.fiscalNumber!);
    if (!mapped.ok) return this.needsAttention(current, invoiceError('mapping', summarizeProblems(mapped.problems)), ctx, mapped.problems);
    const document = mapped.document;
    const documentHash = hashDocument(document);

    // From here on the gateway may hold an invoice with this number: remember that before asking. Inside the
    // gateway slot, so the lease just extended covers the call however long the wait for the slot was.
    const previous = current;
    const sent = await ctx.call(async (gateway) => {
      const sending = await updateLeased(this.d.db, current, this.owner, this.o.leaseMs, {
        sendMayHaveReached: true,
        document,
        documentHash,
        environment: shop.settings.environment,
        problems: null,
      });
      if (!sending) return undefined;
      return {
        sending,
        outcome: await gateway.sendDocument({ credentials: shop.credentials!, environment: shop.settings.environment, document }),
      };
    });
    if (!sent) return STOP;
    const { sending, outcome } = sent;
    switch (outcome.kind) {
      case 'authorized':
        return this.advance(sending, 'pdf', {
          cufe: outcome.cufe,
          qr: outcome.qr,
          protocol: outcome.protocol,
          receptionDateDgi: outcome.receptionDateDgi,
          authorizedAt: this.now(),
        });
      case 'duplicate':
        if (previous.sendMayHaveReached) return this.reconcile(sending, ctx);
        return this.skipNumber(sending);
      case 'rejected': {
        const error = invoiceError('rejected', messages.rejected(outcome.code, outcome.message, outcome.fieldName), outcome.code);
        // A 201 may be a passing fault; the same 201 for the same document again is the document's fault.
        const repeated = outcome.code === '201' && previous.lastErrorCode === '201' && previous.documentHash === documentHash;
        if (outcome.code === '201' && !repeated) return this.retryLater(sending, error, ctx);
        return this.needsAttention(sending, error, ctx);
      }
      case 'credentials':
        return this.pauseShop(sending, ctx, outcome.message, outcome.code);
      case 'unavailable':
        return this.retryLater(sending, invoiceError('unavailable', messages.unavailable(outcome.reason)), ctx);
      case 'indeterminate':
        return this.retryLater(sending, invoiceError('indeterminate', messages.indeterminate(outcome.reason)), ctx);
    }
  }

  /** 102 after an attempt that may have reached the gateway: find out whether the invoice is ours. */
  private async reconcile(row: InvoiceRow, ctx: StepContext): Promise<StepResult> {
    const key = documentKey(row);
    const number = formatFiscalNumber(row);
    const status = await ctx.call((gateway) => gateway.statusDocument({ credentials: ctx.shop.credentials!, key }));
    if (status.kind === 'credentials') return this.pauseShop(row, ctx, status.message, status.code);
    if (status.kind === 'unavailable')
      return this.retryLater(row, invoiceError('indeterminate', messages.indeterminate(status.reason)), ctx);
    if (status.kind === 'other') return this.needsAttention(row, invoiceError('unrecoverable', messages.unrecoverable(number), '102'), ctx);

    const pdf = await ctx.call((gateway) => gateway.downloadPdf({ credentials: ctx.shop.credentials!, key }));
    if (pdf.kind === 'credentials') return this.pauseShop(row, ctx, pdf.message, pdf.code);
    if (pdf.kind === 'unavailable') return this.retryLater(row, invoiceError('indeterminate', messages.indeterminate(pdf.reason)), ctx);
    if (pdf.kind === 'not_found')
      return this.needsAttention(row, invoiceError('unrecoverable', messages.unrecoverable(number), '102'), ctx);

    const cufe = await extractCufeFromPdf(pdf.pdf);
    // The number may also have been taken by someone else after our attempt failed: adopt the gateway's
    // invoice only if its PDF shows this invoice's total.
    const total = (row.document as GatewayDocument | null)?.totalsSubTotals.totalInvoice;
    if (!cufe || !total || !(await pdfShowsAmount(pdf.pdf, total))) {
      return this.needsAttention(row, invoiceError('unrecoverable', messages.unrecoverable(number), '102'), ctx);
    }
    return this.storePdfAndAdvance(row, ctx, pdf.pdf, {
      cufe,
      // The signed QR address is only in the lost answer; the DGI's CUFE lookup is the public equivalent.
      qr: cufeLookupUrl(ctx.shop.settings.environment, cufe),
      protocol: null,
      authorizedAt: this.now(),
      notice: `Recovered after a lost answer: the gateway had already authorized number ${number}; CUFE read from its PDF.`,
    });
  }

  /** 102 for a number this invoice never sent: someone else used it. Skip it (recorded) and take the next. */
  private async skipNumber(row: InvoiceRow): Promise<StepResult> {
    const number = formatFiscalNumber(row);
    this.d.logger.warn(
      { invoiceId: row.id, shop: row.shop, fiscalNumber: number },
      'fiscal number already used outside the app; skipping it',
    );
    const skipped = await skipFiscalNumber(
      this.d.db,
      row,
      this.owner,
      this.o.leaseMs,
      'gateway answered 102 for a number this app had not sent: used outside the app',
    );
    if (!skipped) return STOP;
    const noticed = await updateLeased(this.d.db, skipped, this.owner, this.o.leaseMs, { notice: messages.numberUsedElsewhere(number) });
    return noticed ? { kind: 'next', row: noticed } : STOP;
  }

  // ── pdf ─────────────────────────────────────────────────────────────────────────────────

  private async pdfStep(row: InvoiceRow, ctx: StepContext): Promise<StepResult> {
    const outcome = await ctx.call((gateway) => gateway.downloadPdf({ credentials: ctx.shop.credentials!, key: documentKey(row) }));
    switch (outcome.kind) {
      case 'pdf':
        return this.storePdfAndAdvance(row, ctx, outcome.pdf, {});
      case 'credentials':
        return this.pauseShop(row, ctx, outcome.message, outcome.code);
      case 'not_found':
        // Right after authorization the PDF can lag; keep trying with backoff.
        return this.retryLater(row, invoiceError('unavailable', messages.pdfMissing(`${outcome.code} ${outcome.message}`.trim())), ctx);
      case 'unavailable':
        return this.retryLater(row, invoiceError('unavailable', messages.pdfMissing(outcome.reason)), ctx);
    }
  }

  // ── write-back ──────────────────────────────────────────────────────────────────────────

  private async writebackStep(row: InvoiceRow, ctx: StepContext): Promise<StepResult> {
    const token = ctx.pdfToken ?? (await pdfTokenFor(this.d.db, row.id));
    if (!token) return this.advance(row, 'pdf', {});
    const result = await writeInvoiceMetafields(this.d.admin, row.shop, row.orderGid, {
      cufe: row.cufe ?? '',
      qr_url: row.qr ?? '',
      pdf_url: `${this.d.appUrl}/invoices/${token}.pdf`,
      fiscal_number: formatFiscalNumber(row),
      protocol: row.protocol ?? '',
      authorized_at: (row.authorizedAt ?? this.now()).toISOString(),
    });
    if (result.ok) {
      this.d.logger.info(
        { invoiceId: row.id, shop: row.shop, order: row.orderName, fiscalNumber: formatFiscalNumber(row), worker: this.owner },
        'invoice completed',
      );
      await finishLeased(
        this.d.db,
        row.id,
        this.owner,
        { ...stepDone('done'), status: 'completed', writtenBackAt: this.now() },
        ctx.takeCalls(),
      );
      return STOP;
    }
    const error = invoiceError(result.retryable ? 'unavailable' : 'writeback', messages.writeback(result.message));
    return result.retryable ? this.retryLater(row, error, ctx) : this.needsAttention(row, error, ctx);
  }

  // ── outcomes ────────────────────────────────────────────────────────────────────────────

  private async advance(row: InvoiceRow, step: 'pdf' | 'writeback', patch: InvoicePatch): Promise<StepResult> {
    const next = await updateLeased(this.d.db, row, this.owner, this.o.leaseMs, { ...patch, ...stepDone(step) });
    return next ? { kind: 'next', row: next } : STOP;
  }

  private async storePdfAndAdvance(row: InvoiceRow, ctx: StepContext, pdf: Buffer, patch: InvoicePatch): Promise<StepResult> {
    const stored = await storePdfAndUpdate(this.d.db, row, this.owner, this.o.leaseMs, pdf, { ...patch, ...stepDone('writeback') });
    if (!stored) return STOP;
    ctx.pdfToken = stored.pdfToken;
    return { kind: 'next', row: stored.row };
  }

  private async retryLater(row: InvoiceRow, error: InvoiceError, ctx: StepContext): Promise<StepResult> {
    const attempts = row.attempts + 1;
    const exhausted = attempts >= this.o.maxAttempts;
    this.d.logger.warn({ invoiceId: row.id, shop: row.shop, step: row.step, attempts, kind: error.kind, code: error.code }, error.message);
    await finishLeased(
      this.d.db,
      row.id,
      this.owner,
      {
        attempts,
        status: exhausted ? 'failed' : 'pending',
        nextAttemptAt: exhausted ? this.now() : new Date(this.now().getTime() + this.backoffMs(attempts)),
        lastErrorKind: error.kind,
        lastErrorCode: error.code ?? null,
        lastErrorMessage: exhausted ? messages.exhausted(error.message) : error.message,
      },
      ctx.takeCalls(),
    );
    return STOP;
  }

  /** Exponential backoff with full jitter between half and all of the step. */
  backoffMs(attempts: number): number {
    const step = Math.min(this.o.retryMaxMs, this.o.retryBaseMs * 2 ** (attempts - 1));
    return Math.round(step * (0.5 + this.random() / 2));
  }

  private async needsAttention(row: InvoiceRow, error: InvoiceError, ctx: StepContext, problems?: unknown): Promise<StepResult> {
    if (isRetryable(error.kind)) throw new Error('retryable errors go through retryLater');
    this.d.logger.warn({ invoiceId: row.id, shop: row.shop, kind: error.kind, code: error.code }, error.message);
    await finishLeased(
      this.d.db,
      row.id,
      this.owner,
      {
        status: 'needs_attention',
        attempts: row.attempts + 1,
        lastErrorKind: error.kind,
        lastErrorCode: error.code ?? null,
        lastErrorMessage: error.message,
        ...(problems ? { problems } : {}),
      },
      ctx.takeCalls(),
    );
    return STOP;
  }

  /** 101: the invoice waits, and so does the rest of the shop's queue, until its settings change. */
  private async pauseShop(row: InvoiceRow, ctx: StepContext, gatewayMessage: string, code: string): Promise<StepResult> {
    const message = messages.credentials(gatewayMessage);
    await this.d.shops.pause(row.shop, message);
    await finishLeased(
      this.d.db,
      row.id,
      this.owner,
      { lastErrorKind: 'credentials', lastErrorCode: code, lastErrorMessage: message, nextAttemptAt: this.now() },
      ctx.takeCalls(),
    );
    return STOP;
  }

  gatewayFor(onCall: (c: GatewayCallRecord) => void): GatewayClient {
    return createGatewayClient({
      ...this.d.gateway,
      onCall: (c) => {
        onCall(c);
        this.d.onGatewayCall?.(c);
      },
    });
  }

  get db(): Db {
    return this.d.db;
  }
}

/** Per-invoice context: the shop, and a gateway client whose calls are written to the audit table. */
class StepContext {
  readonly shop: Shop;
  private readonly gateway: GatewayClient;
  private readonly worker: InvoiceWorker;
  private readonly invoice: InvoiceRow;
  private calls: GatewayCallRecord[] = [];
  /** The stored PDF's link token, once this attempt has stored it (saves reading it back). */
  pdfToken: string | undefined;

  constructor(worker: InvoiceWorker, shop: Shop, invoice: InvoiceRow) {
    this.worker = worker;
    this.shop = shop;
    this.invoice = invoice;
    this.gateway = worker.gatewayFor((c) => this.calls.push(c));
  }

  /** Talk to the gateway once a gateway slot is free. */
  call<T>(task: (gateway: GatewayClient) => Promise<T>): Promise<T> {
    return this.worker.gatewaySlots.run(() => task(this.gateway));
  }

  /** The calls made so far, handed over to be logged (with the statement that finishes a step). */
  takeCalls(): GatewayCallLog {
    const records = this.calls;
    this.calls = [];
    return { shop: this.invoice.shop, invoiceId: this.invoice.id, records };
  }

  async flushCalls(): Promise<void> {
    await recordGatewayCalls(this.worker.db, this.takeCalls());
  }
}

/** A step went through: on to `step`, attempts and last error cleared. */
function stepDone(step: 'pdf' | 'writeback' | 'done'): InvoicePatch {
  return { step, attempts: 0, lastErrorKind: null, lastErrorCode: null, lastErrorMessage: null };
}

export function documentKey(row: InvoiceRow): DocumentKey {
  const doc = row.document as GatewayDocument | null;
  return {
    codeBranchIssuing: row.branchCode ?? '',
    numberDocumentFiscal: String(row.fiscalNumber ?? '').padStart(10, '0'),
    pointBillingFiscal: row.billingPoint ?? '',
    typeDocument: doc?.dataTransaction.typeDocument ?? row.documentType,
    typeEmission: doc?.dataTransaction.typeEmission ?? '01',
  };
}

/** "0000-001-0000000042": branch, billing point and number, as merchants read it. */
export function formatFiscalNumber(row: Pick<InvoiceRow, 'branchCode' | 'billingPoint' | 'fiscalNumber'>): string {
  return `${row.branchCode ?? '????'}-${row.billingPoint ?? '???'}-${String(row.fiscalNumber ?? '').padStart(10, '0')}`;
}

function hashDocument(document: GatewayDocument): string {
  const { dateBroadcast: _d, ...data } = document.dataTransaction;
  return createHash('sha256')
    .update(JSON.stringify({ ...document, dataTransaction: data }))
    .digest('hex');
}

function summarizeProblems(problems: { message: string }[]): string {
  return problems.map((p) => p.message).join(' ');
}
