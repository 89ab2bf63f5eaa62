// Applying a transition to a leased document: the database side of what the use case decided. Returns the document
// to continue with (advance, skip a number) or undefined when the claim ends.
import type { AppConfig } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import type { GatewayCallRecord } from '../gateway/gateway-client.ts';
import type { Logger } from '../logger.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, message } from '../messages/message.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { type DocumentStep, canMove, isStepForward } from '../db/document-state.ts';
import type { DocumentError, Transition } from './issuing-ports.ts';
import {
  type DocumentPatch,
  type DocumentRow,
  type EmailToQueue,
  type FlowEventToQueue,
  type GatewayCallLog,
  discardLeased,
  finishLeased,
  formatFiscalNumber,
  recordGatewayCalls,
  skipFiscalNumber,
  storePdfAndUpdate,
  updateLeased,
  saveAuthorizedInvoice,
  wakeWaitingNotes,
} from './store/index.ts';

export interface ApplyContext {
  db: Db;
  owner: string;
  /** The worker's lease and retry settings. */
  options: Pick<AppConfig['worker'], 'leaseMs' | 'maxAttempts' | 'retryBaseMs' | 'retryMaxMs'>;
  now: () => Date;
  random: () => number;
  logger: Logger;
  shops: Pick<ShopRepository, 'pause'>;
  /** Gateway calls made for the document and not yet logged; logged with the statement that ends the claim. */
  calls: GatewayCallRecord[];
  /** A stored PDF's link token, for the write-back that follows in the same claim (saves reading it back). */
  storedPdf?: (documentId: string, token: string) => void;
  /** The buyer's e-mail of a completing document (docs/design.md §10); absent: none. */
  buyerEmail?: CompletionEmail;
  /** The shop fires Flow triggers (settings `flowTriggers`, docs/flow.md): a nudge once an event is queued; absent: none. */
  flow?: { queued(): void };
}

/** What to queue, if anything, when a document completes, and a nudge once it is queued. */
export interface CompletionEmail {
  emailFor(doc: DocumentRow): Promise<EmailToQueue | undefined>;
  queued(): void;
}

export async function applyTransition(
  ctx: ApplyContext,
  doc: DocumentRow,
  t: Transition,
  onFinished?: (doc: DocumentRow) => void,
): Promise<DocumentRow | undefined> {
  const { db, owner } = ctx;
  const { leaseMs } = ctx.options;
  const finish = async (patch: DocumentPatch, email?: EmailToQueue, flow?: FlowEventToQueue) => {
    // The declared moves (document-state.ts) are the only ones made; another would be a bug, not a merchant's problem.
    if (patch.status !== undefined && !canMove(doc.status, patch.status)) throw new Error(`no move from ${doc.status} to ${patch.status}`);
    const event = ctx.flow ? flow : undefined;
    const finished = await finishLeased(db, doc.id, owner, patch, takeCalls(ctx, doc), email, event);
    if (finished && event) ctx.flow?.queued();
    return finished;
  };
  // Queued by the statement that ends the claim: after the write-back for an authorized document (docs/flow.md).
  const flowEvent = (event: FlowEventToQueue['event'], reason?: Message): FlowEventToQueue => ({
    documentId: doc.id,
    shop: doc.shop,
    event,
    ...(reason ? { reason } : {}),
  });
  // Only an invoice has a "needs attention" trigger; it fires for a person's turn: needs attention, or attempts used up.
  const attentionEvent = (reason: Message) => (doc.kind === 'invoice' ? flowEvent('invoice_needs_attention', reason) : undefined);
  switch (t.kind) {
    case 'advance': {
      // A step that succeeded is never repeated (document-state.ts): a step back would be a bug.
      if (!isStepForward(doc.step, t.to)) throw new Error(`no step back from ${doc.step} to ${t.to}`);
      const patch = { ...t.patch, ...stepDone(t.to) };
      if (t.to === 'writeback') {
        const stored = await storePdfAndUpdate(db, doc, owner, leaseMs, t.pdf, patch);
        if (stored) ctx.storedPdf?.(doc.id, stored.pdfToken);
        // An authorization recovered with its PDF (a lost answer): its credit notes waited for it too.
        if (stored && t.authorizedInvoice) await wakeWaitingNotes(db, doc.shop, doc.orderGid);
        return stored?.row;
      }
      // An authorized invoice's credit notes waited for it: woken by the statement that saves it.
      if (t.authorizedInvoice) return saveAuthorizedInvoice(db, doc, owner, leaseMs, patch);
      return updateLeased(db, doc, owner, leaseMs, patch);
    }
    case 'skip_number': {
      ctx.logger.warn(
        { documentId: doc.id, shop: doc.shop, fiscalNumber: t.number },
        'fiscal number already used outside the app; skipping it',
      );
      const skipped = await skipFiscalNumber(
        db,
        doc,
        owner,
        leaseMs,
        'gateway answered 102 for a number this app had not sent: used outside the app',
      );
      return skipped && updateLeased(db, skipped, owner, leaseMs, { notice: message('number_used_elsewhere', { number: t.number }) });
    }
    case 'done': {
      const finished = { ...doc, ...t.patch, ...stepDone('done'), status: 'completed' as const };
      ctx.logger.info(
        { documentId: doc.id, kind: doc.kind, shop: doc.shop, order: doc.orderName, fiscalNumber: formatFiscalNumber(doc), worker: owner },
        // Operators follow these lines (docs/operators.md "Operations"): one per completed document.
        doc.kind === 'invoice' ? 'invoice completed' : 'credit note completed',
      );
      // Queued by the statement that completes the document: never completed without it, never twice.
      const email = await ctx.buyerEmail?.emailFor(finished);
      const authorized = flowEvent(doc.kind === 'invoice' ? 'invoice_authorized' : 'credit_note_authorized');
      if (await finish({ ...t.patch, ...stepDone('done'), status: 'completed' }, email, authorized)) {
        onFinished?.(finished);
        if (email) ctx.buyerEmail?.queued();
      }
      return undefined;
    }
    case 'retry': {
      const attempts = doc.attempts + 1;
      const exhausted = attempts >= ctx.options.maxAttempts;
      ctx.logger.warn(
        { documentId: doc.id, shop: doc.shop, step: doc.step, attempts, kind: t.error.kind, code: t.error.code },
        render(t.error.message, 'en'),
      );
      const gaveUp = message('exhausted', {}, t.error.message);
      await finish(
        {
          ...t.patch,
          attempts,
          status: exhausted ? 'failed' : doc.status === 'waiting' ? 'pending' : doc.status,
          nextAttemptAt: exhausted ? ctx.now() : new Date(ctx.now().getTime() + backoffMs(ctx, attempts)),
          ...stoppedBy(t.error),
          ...(exhausted ? { lastError: gaveUp } : {}),
        },
        undefined,
        exhausted ? attentionEvent(gaveUp) : undefined,
      );
      return undefined;
    }
    case 'attention':
      ctx.logger.warn({ documentId: doc.id, shop: doc.shop, kind: t.error.kind, code: t.error.code }, render(t.error.message, 'en'));
      await finish(
        {
          ...t.patch,
          status: 'needs_attention',
          attempts: doc.attempts + 1,
          ...stoppedBy(t.error),
          ...(t.problems ? { problems: t.problems } : {}),
        },
        undefined,
        attentionEvent(t.error.message),
      );
      return undefined;
    case 'pause_shop':
      // The document waits, and so does the rest of the shop's queue, until its settings change.
      await ctx.shops.pause(doc.shop, t.error.message);
      await finish({ ...stoppedBy(t.error), nextAttemptAt: ctx.now() });
      return undefined;
    case 'skipped': {
      const problems = t.problems ? { problems: t.problems } : {};
      await finish({ ...t.patch, status: 'skipped', ...noErrorBut(t.reason), ...problems });
      return undefined;
    }
    case 'wait': {
      const nextAttemptAt = new Date(ctx.now().getTime() + t.retryInMs);
      await finish({ ...t.patch, status: 'waiting', ...noErrorBut(t.reason), nextAttemptAt });
      return undefined;
    }
    case 'discard':
      ctx.logger.warn({ documentId: doc.id, shop: doc.shop, orderGid: doc.orderGid, reason: t.reason }, 'document discarded');
      await recordGatewayCalls(db, takeCalls(ctx, doc));
      await discardLeased(db, doc, owner);
      return undefined;
    case 'lost':
      await recordGatewayCalls(db, takeCalls(ctx, doc));
      return undefined;
  }
}

/** A step went through: on to `step`, attempts and last error cleared. */
function stepDone(step: DocumentStep): DocumentPatch {
  return { step, attempts: 0, ...noErrorBut(null) };
}

/** What the document shows as the reason it stopped. */
function stoppedBy(error: DocumentError): DocumentPatch {
  return { lastErrorKind: error.kind, lastErrorCode: error.code ?? null, lastError: error.message };
}

/** No error; the reason shown is `reason` (why it waits or is skipped), or none. */
function noErrorBut(reason: Message | null): DocumentPatch {
  return { lastErrorKind: null, lastErrorCode: null, lastError: reason };
}

/** Exponential backoff with jitter between half and all of the step. */
function backoffMs(ctx: ApplyContext, attempts: number): number {
  const step = Math.min(ctx.options.retryMaxMs, ctx.options.retryBaseMs * 2 ** (attempts - 1));
  return Math.round(step * (0.5 + ctx.random() / 2));
}

function takeCalls(ctx: ApplyContext, doc: DocumentRow): GatewayCallLog {
  return { shop: doc.shop, documentId: doc.id, records: ctx.calls.splice(0) };
}
