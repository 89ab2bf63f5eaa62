// The runner: polls for due documents, claims them with a lease, keeps the per-shop and gateway limits, runs the use
// case step by step and applies each transition under the lease. It decides nothing about documents itself.
import type { AppConfig } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import type { GatewayCallRecord, GatewayClient } from '../gateway/gateway-client.ts';
import type { Logger } from '../logger.ts';
import type { Shop, ShopRepository } from '../shops/shop-repository.ts';
import { Slots } from '../slots.ts';
import { PollLoop } from '../poll-loop.ts';
import { issueStep, type StepOutcome } from './issue-document.ts';
import type { ShopifyOrders } from '../shopify/shopify-orders.ts';
import type { IssuingDeps } from './issuing-ports.ts';
import { applyTransition } from './apply-transition.ts';
import {
  type DocumentRow,
  type EmailToQueue,
  claimDue,
  currentInvoice,
  findDocument,
  notesAgainst,
  orderWasRefused,
  pdfTokenFor,
  releaseLease,
  reserveFiscalNumber,
  skipFiscalNumber,
  updateLeased,
  completedNotes,
  authorizationChecks,
  cufeHolder,
  saveNoteIfCreditedUnchanged,
  shopIssuerCufe,
  skipsOf,
} from './store/index.ts';

export type RunnerOptions = Omit<AppConfig['worker'], 'enabled'>;

export interface RunnerDeps {
  db: Db;
  shops: Pick<ShopRepository, 'get' | 'pause'>;
  shopify: ShopifyOrders;
  /** The process's one gateway client. */
  gateway: GatewayClient;
  /** Public origin of the app, for PDF links. */
  appUrl: string;
  logger: Logger;
  options: RunnerOptions;
  now?: () => Date;
  random?: () => number;
  /** A document was authorized or finished (metrics, time to invoice). */
  onFinished?: (doc: DocumentRow) => void;
  /** The buyer's e-mail of a completing document, by the shop's settings as of the claim (src/buyer-email/). */
  buyerEmail?: {
    emailFor(doc: DocumentRow, shop: Shop): Promise<EmailToQueue | undefined>;
    queued(): void;
  };
  /** A Flow event was queued (docs/flow.md): the Flow runner's nudge. Events are queued for shops with `flowTriggers` on. */
  flow?: { queued(): void };
}

/** How many numbers one claim may skip in a row before it waits (numbers used outside the app). */
const MAX_SKIPS_PER_CLAIM = 25;

export class DocumentRunner extends PollLoop {
  private readonly d: RunnerDeps;
  private readonly o: RunnerOptions;
  private readonly now: () => Date;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perShop = new Map<string, number>();
  /** The gateway's share of concurrency; the runner holds more documents so their other work overlaps the calls. */
  readonly gatewaySlots: Slots;
  private readonly claimBatch: number;
  /** When this process last saw the gateway authorize a document: tells a document's 201 from an incident's. */
  private lastAuthorizedAt: number | undefined;
  /** Last time the loop ran and its claims went through, for /healthz. */
  lastTickAt: Date | undefined;

  constructor(deps: RunnerDeps) {
    super(deps.options.pollMs, (error) => deps.logger.error({ err: error }, 'document runner: claim failed'));
    this.d = deps;
    this.o = deps.options;
    this.now = deps.now ?? (() => new Date());
    this.gatewaySlots = new Slots(deps.options.gatewayConcurrency);
    this.claimBatch = Math.max(1, Math.floor(deps.options.concurrency / 4));
  }

  /** Stop claiming and wait for the documents in hand. */
  override async stop(): Promise<void> {
    await super.stop();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  get busy(): number {
    return this.inFlight.size;
  }

  protected async tick(): Promise<void> {
    const started = new Date();
    await this.claimAndLaunch();
    // Only a tick whose claims went through counts for /healthz: a worker whose every claim fails (database errors,
    // a full disk) is not alive, however often it tries.
    this.lastTickAt = started;
  }

  private async claimAndLaunch(): Promise<void> {
    while (!this.stopped) {
      const capacity = this.o.concurrency - this.inFlight.size;
      // Claim in batches: one claim per finished document would be most of the runner's queries. With more documents
      // in hand than gateway slots, the slots stay busy while a quarter of the places refill.
      if (capacity <= 0 || (this.inFlight.size > 0 && capacity < this.claimBatch)) return;
      // The claim keeps each shop within its share here: documents only finish while it runs, never start.
      const rows = await claimDue(this.d.db, {
        owner: this.owner,
        limit: capacity,
        leaseMs: this.o.leaseMs,
        shopLimit: this.o.shopConcurrency,
        held: this.perShop,
      });
      if (rows.length === 0) return;
      // One read of each shop for the batch: its settings and credentials as of this claim.
      const shopsRead = new Map<string, Promise<Shop | undefined>>();
      for (const row of rows) {
        // Still being worked on here while its lease ran out (a slow step on a loaded machine): the claim just renewed
        // the lease for that work. A second run of it would send the document again after the first saved its success.
        if (this.inFlight.has(row.id)) continue;
        if (!shopsRead.has(row.shop)) shopsRead.set(row.shop, this.d.shops.get(row.shop));
        this.launch(row, shopsRead.get(row.shop)!);
      }
    }
  }

  private launch(row: DocumentRow, shop: Promise<Shop | undefined>): void {
    this.perShop.set(row.shop, (this.perShop.get(row.shop) ?? 0) + 1);
    const done = this.process(row, shop)
      .catch((error: unknown) => {
        // The lease runs out and another attempt picks the document up where its steps stopped.
        this.d.logger.error({ err: error, documentId: row.id, shop: row.shop }, 'document runner: unexpected error');
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

  /** Run the document's steps until it is done, waits, or needs a person. */
  private async process(claimed: DocumentRow, shopRead: Promise<Shop | undefined>): Promise<void> {
    const shop = await shopRead;
    if (!shop || !shop.enabled || !shop.credentials) {
      await releaseLease(this.d.db, claimed.id, this.owner);
      return;
    }
    const calls: GatewayCallRecord[] = [];
    const pdfTokens = new Map<string, string>();
    const deps = this.issuingDeps(calls, pdfTokens);
    const ctx = {
      storedPdf: (id: string, token: string) => pdfTokens.set(id, token),
      db: this.d.db,
      owner: this.owner,
      options: this.o,
      now: this.now,
      random: this.d.random ?? Math.random,
      logger: this.d.logger,
      shops: this.d.shops,
      calls,
      ...(this.d.buyerEmail ? { buyerEmail: completionEmail(this.d.buyerEmail, shop) } : {}),
      ...(this.d.flow && shop.settings.flowTriggers.enabled ? { flow: this.d.flow } : {}),
    };
    let doc: DocumentRow | undefined = claimed;
    let skips = 0;
    while (doc) {
      let outcome: StepOutcome;
      try {
        outcome = doc.step === 'send' && skips > MAX_SKIPS_PER_CLAIM ? { doc, next: tooManySkips() } : await issueStep(doc, shop, deps);
      } catch (error) {
        // A bug or a database hiccup: count it as an attempt, so a poisoned document ends up failed (visible,
        // retryable by hand) instead of crashing its runner again every lease. The reason never carries SQL.
        this.d.logger.error({ err: error, documentId: doc.id, shop: doc.shop, step: doc.step }, 'document step failed unexpectedly');
        outcome = { doc, next: internalError(doc.step) };
      }
      if (outcome.next.kind === 'skip_number') skips++;
      doc = await applyTransition(ctx, outcome.doc, outcome.next, this.d.onFinished);
      // Stopping: the step in hand is saved; the next one is for whoever claims the document after the restart, so
      // shutdown waits for at most one gateway call's deadline per document.
      if (doc && this.stopped) {
        await releaseLease(this.d.db, doc.id, this.owner);
        return;
      }
    }
  }

  private issuingDeps(calls: GatewayCallRecord[], pdfTokens: ReadonlyMap<string, string>): IssuingDeps {
    const { db } = this.d;
    const { owner } = this;
    const { leaseMs } = this.o;
    const observe = (c: GatewayCallRecord) => {
      calls.push(c);
      if (c.operation === 'SendDocument' && c.outcome === 'authorized') this.lastAuthorizedAt = this.now().getTime();
    };
    const gateway = this.d.gateway;
    const client: GatewayClient = {
      sendDocument: (req) => gateway.sendDocument(req, observe),
      downloadPdf: (req) => gateway.downloadPdf(req, observe),
      statusDocument: (req) => gateway.statusDocument(req, observe),
    };
    return {
      store: {
        update: (doc, patch) => updateLeased(db, doc, owner, leaseMs, patch),
        markSending: (doc, patch, credited) =>
          credited ? saveNoteIfCreditedUnchanged(db, doc, owner, leaseMs, patch, credited) : updateLeased(db, doc, owner, leaseMs, patch),
        reserveNumber: (doc, numbering) => reserveFiscalNumber(db, doc, owner, leaseMs, numbering),
        releaseNumber: (doc, reason) => skipFiscalNumber(db, doc, owner, leaseMs, reason),
        pdfToken: async (id) => pdfTokens.get(id) ?? pdfTokenFor(db, id),
        documentById: (id) => findDocument(db, id),
        currentInvoice: (shop, orderGid) => currentInvoice(db, shop, orderGid),
        notesAgainst: (invoiceId, except) => notesAgainst(db, invoiceId, except),
        orderWasRefused: (shop, orderGid) => orderWasRefused(db, shop, orderGid),
        completedNotes: (shop, orderGid) => completedNotes(db, shop, orderGid),
        cufeHolder: (shop, cufe, exceptId) => cufeHolder(db, shop, cufe, exceptId),
        shopIssuerCufe: (shop, exceptId) => shopIssuerCufe(db, shop, exceptId),
        authorizationChecks: (shop, cufe, exceptId) => authorizationChecks(db, shop, cufe, exceptId),
        skipsOf: (id) => skipsOf(db, id),
      },
      gateway: {
        run: (task) => this.gatewaySlots.run(() => task(client)),
        runLeased: (doc, task) => {
          const asked = performance.now();
          return this.gatewaySlots.run(async () => {
            // The lease is at least twice the gateway's time-out: after a wait of under a quarter of it, what is left
            // covers a whole call. A longer wait (a gateway slow for everyone) renews it first.
            if (performance.now() - asked > leaseMs / 4 && !(await updateLeased(db, doc, owner, leaseMs, {}))) return undefined;
            return task(client);
          });
        },
      },
      shopify: this.d.shopify,
      clock: this.now,
      appUrl: this.d.appUrl,
      pulse: { authorizedSince: (at) => this.lastAuthorizedAt !== undefined && this.lastAuthorizedAt > at.getTime() },
    };
  }
}

function completionEmail(hook: NonNullable<RunnerDeps['buyerEmail']>, shop: Shop) {
  return { emailFor: (doc: DocumentRow) => hook.emailFor(doc, shop), queued: () => hook.queued() };
}

function tooManySkips() {
  return {
    kind: 'retry' as const,
    error: {
      kind: 'unavailable' as const,
      code: undefined,
      message: { key: 'unavailable', params: { reason: 'too many fiscal numbers in a row were already used outside the app' } },
    },
  };
}

function internalError(step: string) {
  return {
    kind: 'retry' as const,
    error: {
      kind: 'unavailable' as const,
      code: undefined,
      message: { key: 'unavailable', params: { reason: `internal error at step ${step}` } },
    },
  };
}
