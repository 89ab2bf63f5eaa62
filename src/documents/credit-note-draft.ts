// A credit note's draft (docs/design.md §9): its invoice first — the note waits until the invoice is authorized, and is not
// made at all for an order that has no invoice and will have none — then the refund confirmed through the shop's own
// Admin API, then the pure mapping against the invoice and the notes already issued against it.
import type { DocumentDraft } from '../../mappers/invoice/document-numbering.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { fullCreditNote } from '../../mappers/credit-note/full-credit-note.ts';
import { type CreditNoteResult, refundToCreditNote } from '../../mappers/credit-note/refund-to-credit-note.ts';
import { parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import { parseShopifyRefund } from '../../mappers/shopify/shopify-refund.ts';
import { message } from '../messages/message.ts';
import { adminFailure, type DraftOutcome, mappingProblems } from './invoice-draft.ts';
import type { IssuingDeps, IssuingShop, Transition } from './issuing-ports.ts';
import type { DocumentRow } from './store/document-rows.ts';
import { REPLACEMENT_PREFIX } from './store/replacement-statements.ts';

/** How long a note waits for an invoice that does not exist yet before a person is asked to look. */
const WAIT_FOR_INVOICE_MS = 7 * 24 * 3600 * 1000;
/** Asked again soon at first (orders/paid usually comes right behind the refund), then every few minutes. */
function waitStepMs(waitedMs: number): number {
  return waitedMs < 60_000 ? 5_000 : waitedMs < 10 * 60_000 ? 30_000 : 5 * 60_000;
}

export async function creditNoteDraft(doc: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<DraftOutcome> {
  let current = doc;
  const stop = (transition: Transition): DraftOutcome => ({ kind: 'stop', doc: current, transition });

  // A replacement's note credits the invoice it names; a refund's, the order's current invoice.
  const replacement = current.sourceKey.startsWith(REPLACEMENT_PREFIX);
  const invoice =
    replacement && current.invoiceId
      ? await deps.store.documentById(current.invoiceId)
      : await deps.store.currentInvoice(current.shop, current.orderGid);
  if (!invoice) {
    const refused = await deps.store.orderWasRefused(current.shop, current.orderGid);
    if (refused) return stop({ kind: 'skipped', reason: message('no_invoice', { why: refused }) });
    if (deps.clock().getTime() - current.createdAt.getTime() > WAIT_FOR_INVOICE_MS) {
      return stop({
        kind: 'attention',
        error: { kind: 'mapping', code: 'no_invoice', message: message('no_invoice', { why: 'none arrived' }) },
      });
    }
    return stop(waitForInvoice(current, current.orderName || current.orderGid, deps.clock()));
  }
  if (invoice.status === 'skipped') return stop({ kind: 'skipped', reason: message('no_invoice', { why: 'skipped' }) });
  const invoiceDocument = invoice.document as GatewayDocument | null;
  if (invoice.cufe === null || invoiceDocument === null) return stop(waitForInvoice(current, invoice.orderName, deps.clock()));

  if (current.invoiceId !== invoice.id || current.orderName !== invoice.orderName) {
    const linked = await deps.store.update(current, { invoiceId: invoice.id, orderName: invoice.orderName });
    if (!linked) return stop({ kind: 'lost' });
    current = linked;
  }

  const notes = await deps.store.notesAgainst(invoice.id, current.id);
  const credited = notes.map((n) => n.document as GatewayDocument);
  if (replacement) {
    const full = fullCreditNote({ invoice: { document: invoiceDocument, cufe: invoice.cufe }, credited, settings: shop.settings.mapping });
    return outcomeOf(full, current, invoice, notes, stop);
  }

  // The refund must be this shop's, asked through the shop's own API, before anything is issued for it.
  const confirmed = await deps.shopify.confirmRefund(current.shop, current.sourceKey);
  if (!confirmed.ok) return stop(adminFailure(confirmed, 'confirming the refund'));
  if (!confirmed.data) return stop({ kind: 'discard', reason: 'the shop has no such refund (a body signed for another shop?)' });

  const refund = parseShopifyRefund(current.snapshot);
  if (!refund.ok) return stop(mappingProblems(refund.problems));
  const order = parseShopifyOrder(invoice.snapshot);
  if (!order.ok) return stop(mappingProblems(order.problems));
  const result = refundToCreditNote({
    refund: refund.refund,
    order: order.order,
    invoice: { document: invoiceDocument, cufe: invoice.cufe },
    credited,
    settings: shop.settings.mapping,
  });
  return outcomeOf(result, current, invoice, notes, stop);
}

/** What the mapping's answer means for the note. */
function outcomeOf(
  result: CreditNoteResult,
  current: DocumentRow,
  invoice: DocumentRow,
  notes: readonly DocumentRow[],
  stop: (t: Transition) => DraftOutcome,
): DraftOutcome {
  switch (result.kind) {
    case 'draft':
      return {
        kind: 'draft',
        doc: current,
        draft: result.draft satisfies DocumentDraft,
        // The note's client is the invoice's.
        taxIdSource: invoice.taxIdSource ?? undefined,
        credited: { invoiceId: invoice.id, noteIds: notes.map((n) => n.id) },
        // Numbered in its invoice's branch and point, in its own type's series (docs/series.md).
        ...(invoice.branchCode && invoice.billingPoint
          ? { point: { branchCode: invoice.branchCode, billingPoint: invoice.billingPoint } }
          : {}),
      };
    case 'nothing':
      return stop({ kind: 'skipped', reason: message(`credit_${result.reason}`) });
    case 'wait':
      return stop({ kind: 'wait', reason: message(result.reason), retryInMs: 5 * 60_000 });
    case 'problems':
      return stop(mappingProblems(result.problems));
  }
}

/** It waits, visibly; the invoice's authorization wakes it at once (the runner), this is the fallback. */
function waitForInvoice(doc: DocumentRow, orderName: string, now: Date): Transition {
  const retryInMs = waitStepMs(now.getTime() - doc.createdAt.getTime());
  return { kind: 'wait', reason: message('waiting_for_invoice', { orderName }), retryInMs };
}
