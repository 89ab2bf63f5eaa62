// An invoice's draft: the order (re-read through the Admin API when a person asked for it) confirmed through the
// shop's own Admin API with where its buyer's tax id is kept, its transactions when several gateways paid it, and the
// merchant's correction of the client, mapped by the pure mappers. Returns the draft, or what should happen instead.
import { storedCorrection } from '../../mappers/invoice/client-correction.ts';
import type { DocumentDraft, IssuingPoint } from '../../mappers/invoice/document-numbering.ts';
import type { BuyerFacts, TaxIdSource } from '../../mappers/invoice/invoice-client.ts';
import { needsTransactions, orderToDraft, parseOrderTransactions, type OrderTransaction } from '../../mappers/invoice/order-to-document.ts';
import type { MappingProblem } from '../../mappers/mapping-problems.ts';
import { parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import { message } from '../messages/message.ts';
import type { CreditedNotes, IssuingDeps, IssuingShop, Transition } from './issuing-ports.ts';
import type { DocumentRow } from './store/document-rows.ts';

/** The draft, or what should happen instead; either way the document as this step left it. */
export type DraftOutcome =
  | {
      kind: 'draft';
      doc: DocumentRow;
      draft: DocumentDraft;
      taxIdSource: TaxIdSource | undefined;
      credited?: CreditedNotes;
      /** Where the document is issued from when it is not the order's (a credit note: its invoice's branch and point). */
      point?: IssuingPoint;
    }
  | { kind: 'stop'; doc: DocumentRow; transition: Transition };

export async function invoiceDraft(doc: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<DraftOutcome> {
  let current = doc;
  const stop = (transition: Transition): DraftOutcome => ({ kind: 'stop', doc: current, transition });
  if (doc.test && shop.settings.environment === 'produccion') {
    return stop({ kind: 'skipped', reason: message('test_order_in_production') });
  }
  if (current.refreshSnapshot) {
    // A person asked to retry: the order as Shopify has it now (edited attributes, customer, address) replaces the
    // snapshot taken at intake.
    const fresh = await deps.shopify.readOrder(current.shop, current.orderGid);
    if (!fresh.ok) return stop(adminFailure(fresh, 'reading the order'));
    if (fresh.data === null) return stop(unconfirmed('Shopify has no such order in this shop'));
    const updated = await deps.store.update(current, { snapshot: fresh.data.json, refreshSnapshot: false });
    if (!updated) return stop({ kind: 'lost' });
    current = updated;
  }

  const mapped = await mapOrder(current, shop.settings, deps.shopify);
  if (mapped.kind === 'stop') return stop(mapped.transition);
  return { kind: 'draft', doc: current, draft: mapped.draft, taxIdSource: mapped.taxIdSource };
}

/** What `mapOrder` needs of a document: its order, where it is, and the merchant's correction. */
export type OrderToMap = Pick<DocumentRow, 'shop' | 'orderGid' | 'snapshot' | 'clientOverride'>;

/**
 * The order mapped to an invoice draft with the shop's settings: confirmed through the shop's own Admin API, its
 * buyer's tax id sources and (when several gateways paid it) its transactions asked there. No number, no writes: the
 * backfill's dry run (src/backfill/backfill-dry-run.ts) asks it too, so what it says cannot be invoiced is what the
 * run stops.
 */
export async function mapOrder(
  current: OrderToMap,
  settings: IssuingShop['settings'],
  shopify: Pick<IssuingDeps['shopify'], 'confirmOrder' | 'orderTransactions'>,
): Promise<{ kind: 'draft'; draft: DocumentDraft; taxIdSource: TaxIdSource | undefined } | { kind: 'stop'; transition: Transition }> {
  const stop = (transition: Transition) => ({ kind: 'stop', transition }) as const;
  const parsed = parseShopifyOrder(current.snapshot);
  if (!parsed.ok) return stop(mappingProblems(parsed.problems));

  // The body's shop is only the header's word: the order must be this shop's, asked through the shop's own API, before
  // anything is issued for it. The same answer says where the buyer's tax id is kept (docs/design.md §10).
  const correction = storedCorrection(current.clientOverride);
  const metafield = correction ? null : settings.mapping.customerTaxIdMetafield;
  const confirmed = await shopify.confirmOrder(current.shop, current.orderGid, {
    company: !correction && parsed.order.company !== undefined,
    metafield,
  });
  if (!confirmed.ok) return stop(adminFailure(confirmed, 'confirming the order'));
  if (confirmed.data === null) return stop({ kind: 'discard', reason: 'the shop has no such order (a body signed for another shop?)' });
  const buyer: BuyerFacts = {
    ...(correction ? { correction } : {}),
    ...(confirmed.data.company ? { company: confirmed.data.company } : {}),
    ...(metafield && confirmed.data.customerMetafield
      ? { customerTaxId: { value: confirmed.data.customerMetafield, path: `customer.metafields.${metafield.namespace}.${metafield.key}` } }
      : {}),
  };

  let transactions: OrderTransaction[] | undefined;
  if (needsTransactions(parsed.order)) {
    const fetched = await shopify.orderTransactions(current.shop, current.orderGid);
    if (!fetched.ok) return stop(adminFailure(fetched, "reading the order's payments"));
    const read = parseOrderTransactions(fetched.data);
    if (!read.ok) return stop(mappingProblems(read.problems));
    transactions = read.transactions;
  }

  const mapped = orderToDraft({ order: parsed.order, settings: settings.mapping, buyer, ...(transactions ? { transactions } : {}) });
  if (!mapped.ok) {
    // Only gift cards or tips (left out by the settings): there is no sale to invoice.
    if (mapped.problems.every((p) => p.code === 'nothing_to_invoice')) {
      return stop({ kind: 'skipped', reason: message('nothing_to_invoice'), problems: mapped.problems });
    }
    return stop(mappingProblems(mapped.problems));
  }
  return { kind: 'draft', draft: mapped.draft, taxIdSource: mapped.taxIdSource };
}

/** Needs a person: the first problem is the reason shown; the document keeps them all (with their codes). */
export function mappingProblems(problems: readonly MappingProblem[]): Transition {
  const first = problems[0];
  return {
    kind: 'attention',
    error: { kind: 'mapping', code: undefined, message: first ? message(first.code, first.params) : message('mapping') },
    problems,
  };
}

/** An Admin API call that did not go through: retried when Shopify may answer later, else a person looks. */
export function adminFailure(result: { retryable: boolean; message: string }, what: string): Transition {
  const detail = `${what}: ${result.message}`;
  return result.retryable
    ? { kind: 'retry', error: { kind: 'unavailable', code: undefined, message: message('unavailable', { reason: `Shopify, ${detail}` }) } }
    : unconfirmed(detail);
}

export function unconfirmed(detail: string): Transition {
  return { kind: 'attention', error: { kind: 'order_unconfirmed', code: undefined, message: message('order_unconfirmed', { detail }) } };
}
