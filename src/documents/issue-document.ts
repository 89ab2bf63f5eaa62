// Issuing one claimed document, one step at a time: send (draft, number, SendDocument), pdf (DownloadPDF), writeback
// (metafields on the order). Each call decides what should happen next and returns it as a Transition; the runner
// saves it. Reads top to bottom; every gateway answer has its branch.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../mappers/fiscal/canonical-json.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { numberDocument } from '../../mappers/invoice/document-numbering.ts';
import { invoicePointFor, orderLocationId } from '../../mappers/invoice/issuing-point.ts';
import { formatCents, parseCents } from '../../mappers/fiscal/money.ts';
import type { SendOutcome } from '../gateway/gateway-client.ts';
import type { DocumentKey, GatewayCredentials, GatewayEnvironment } from '../gateway/gateway-types.ts';
import { cufeLookupUrl, readPdfText, showsAmount } from './pdf-cufe.ts';
import { checkAuthorization, checkPdf, foreignDuplicate, on201, ownCufeInPdf } from './answer-rules.ts';
import { buyerUrl } from './buyer-link.ts';
import { pdfUrl } from './pdf-link.ts';
import { type Message, message } from '../messages/message.ts';
import { creditNoteDraft } from './credit-note-draft.ts';
import { type DraftOutcome, invoiceDraft } from './invoice-draft.ts';
import type { CreditedNotes, DocumentError, IssuingDeps, IssuingShop, Transition } from './issuing-ports.ts';
import type { CreditNoteMetafieldEntry } from '../shopify/metafield-writer.ts';
import { type DocumentRow, formatFiscalNumber } from './store/document-rows.ts';
import type { CompletedNote } from './store/order-statements.ts';

/** What a step decided, and the document as the step left it (it may have saved a number or the document sent). */
export interface StepOutcome {
  doc: DocumentRow;
  next: Transition;
}

/** Do the document's current step and say what should happen next. */
export async function issueStep(doc: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<StepOutcome> {
  switch (doc.step) {
    case 'send':
      return sendStep(doc, shop, deps);
    case 'pdf':
      return { doc, next: await pdfStep(doc, shop, deps) };
    case 'writeback':
      return { doc, next: await writebackStep(doc, deps) };
    case 'done':
      return { doc, next: { kind: 'done', patch: {} } };
  }
}

// ── send ────────────────────────────────────────────────────────────────────────────────────────

async function sendStep(claimed: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<StepOutcome> {
  const prepared = await prepareSend(claimed, shop, deps);
  if (prepared.kind === 'stop') return { doc: prepared.doc, next: prepared.transition };
  const { doc, document, environment, credited } = prepared;
  const documentHash = hashDocument(document);

  // From here on the gateway may hold a document with this number: remember that before asking. Saved before the wait
  // for a gateway slot, so a slot's time is the call's alone; the slot renews the lease if the wait ate into it.
  const previous = doc;
  const patch = {
    sendMayHaveReached: true,
    document,
    documentHash,
    environment,
    problems: null,
    taxIdSource: prepared.taxIdSource,
    // A note's total is known once it is mapped (the intake only had the refund's money).
    ...(doc.kind === 'credit_note' ? { totalCents: parseCents(document.totalsSubTotals.totalInvoice) ?? doc.totalCents } : {}),
  };
  const sending = await deps.store.markSending(doc, patch, credited);
  if (!sending) return { doc, next: { kind: 'lost' } };
  // Another note of the same invoice was saved first: map again against it, in a moment.
  if (sending === 'stale') return { doc, next: { kind: 'wait', reason: message('waiting_for_other_note'), retryInMs: 200 } };
  const outcome = await deps.gateway.runLeased(sending, (gateway) =>
    gateway.sendDocument({ credentials: credentials(shop), environment, document }),
  );
  if (!outcome) return { doc: sending, next: { kind: 'lost' } };
  return { doc: sending, next: await sendOutcome(sending, previous, documentHash, outcome, shop, deps) };
}

type Prepared =
  | { kind: 'stop'; doc: DocumentRow; transition: Transition }
  | {
      kind: 'send';
      doc: DocumentRow;
      document: GatewayDocument;
      environment: GatewayEnvironment;
      taxIdSource: DocumentRow['taxIdSource'];
      credited?: CreditedNotes;
    };

/** The document to send: the one already sent under this number when the gateway may hold it, else a fresh draft. */
async function prepareSend(claimed: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<Prepared> {
  const resend = sentBefore(claimed);
  if (resend) return { kind: 'send', doc: claimed, ...resend, taxIdSource: claimed.taxIdSource };

  const drafted: DraftOutcome =
    claimed.kind === 'invoice' ? await invoiceDraft(claimed, shop, deps) : await creditNoteDraft(claimed, shop, deps);
  if (drafted.kind === 'stop') return stopBeforeSending(drafted.doc, drafted.transition, deps);
  let doc = drafted.doc;

  // Numbered for the other environment and never sent (the process stopped in between, then the shop switched): that
  // number stays a skip in its own series, and the document is numbered in the shop's environment (docs/series.md).
  const environment = shop.settings.environment;
  if (doc.fiscalNumber !== null && !doc.sendMayHaveReached && doc.environment !== null && doc.environment !== environment) {
    const released = await deps.store.releaseNumber(
      doc,
      `numbered for ${doc.environment}, never sent; the shop switched to ${environment}`,
    );
    if (!released) return { kind: 'stop', doc, transition: { kind: 'lost' } };
    doc = released;
  }
  // Map before reserving: a document that cannot be issued must not consume a fiscal number. Its series: the
  // shop's environment, and the branch and point of its invoice (a note) or of the order's location (docs/series.md).
  if (doc.fiscalNumber === null) {
    const reserved = await deps.store.reserveNumber(doc, {
      environment: shop.settings.environment,
      ...(drafted.point ?? invoicePointFor(orderLocationId(doc.snapshot), shop.settings.locations, shop.settings)),
    });
    if (!reserved) return { kind: 'stop', doc, transition: { kind: 'lost' } };
    doc = reserved;
  }
  const numbered = numberDocument(
    drafted.draft,
    { branchCode: doc.branchCode!, billingPoint: doc.billingPoint!, fiscalNumber: doc.fiscalNumber! },
    deps.clock(),
  );
  // Mapped again at a person's request under a number the gateway may hold: still that emission, on its date (a 102
  // then adopts the gateway's document, and notes reference it by its date).
  const dateBroadcast = sentBefore({ ...doc, refreshSnapshot: false })?.document.dataTransaction.dateBroadcast;
  const document = dateBroadcast ? { ...numbered, dataTransaction: { ...numbered.dataTransaction, dateBroadcast } } : numbered;
  return {
    kind: 'send',
    doc,
    document,
    environment: shop.settings.environment,
    taxIdSource: drafted.taxIdSource ?? null,
    ...(drafted.credited ? { credited: drafted.credited } : {}),
  };
}

/**
 * A draft that stopped. A number reserved by an earlier attempt and never sent (a note mapped again after another note
 * of its invoice went first, now over what is left to credit) is given up as a recorded skip when the document will
 * not be sent as it stands: skipped, removed, or a credit note stopped for a person (nothing a person fixes makes an
 * over-credit or a refund that does not add up sendable; it is issued by hand). An invoice stopped for a person keeps
 * its number: fixing the order or the client sends it under that number, and the series stays contiguous.
 */
async function stopBeforeSending(doc: DocumentRow, transition: Transition, deps: IssuingDeps): Promise<Prepared> {
  const givesUp =
    transition.kind === 'skipped' || transition.kind === 'discard' || (transition.kind === 'attention' && doc.kind === 'credit_note');
  if (!givesUp || doc.fiscalNumber === null || doc.sendMayHaveReached) return { kind: 'stop', doc, transition };
  const released = await deps.store.releaseNumber(
    doc,
    `reserved, never sent: the ${doc.kind.replace('_', ' ')} stopped before sending (${stopReason(transition)})`,
  );
  if (!released) return { kind: 'stop', doc, transition: { kind: 'lost' } };
  return { kind: 'stop', doc: released, transition };
}

const stopReason = (t: Transition): string =>
  t.kind === 'attention' ? t.error.message.key : t.kind === 'skipped' ? t.reason.key : t.kind === 'discard' ? t.reason : t.kind;

/**
 * A document sent before under its number (an answer lost, the process killed) may be at the gateway: it goes again
 * as it was, same content and issue date, so that what the gateway holds is what we keep (a note references its
 * invoice's issue date; the content may have been mapped against other notes since). Not when a person asked for a
 * fresh read of the order: the new draft is what they want issued (on the first one's date), and a 102 is then
 * reconciled on the total.
 */
function sentBefore(doc: DocumentRow): { document: GatewayDocument; environment: GatewayEnvironment } | undefined {
  if (!doc.sendMayHaveReached || doc.refreshSnapshot || doc.fiscalNumber === null || doc.document === null) return undefined;
  const document = doc.document as GatewayDocument;
  if (Number(document.dataTransaction.numberDocumentFiscal) !== doc.fiscalNumber) return undefined;
  return { document, environment: (doc.environment ?? 'pruebas') as GatewayEnvironment };
}

/** What a SendDocument answer means for the document (docs/design.md §5). */
async function sendOutcome(
  sending: DocumentRow,
  previous: DocumentRow,
  documentHash: string,
  outcome: SendOutcome,
  shop: IssuingShop,
  deps: IssuingDeps,
): Promise<Transition> {
  switch (outcome.kind) {
    case 'authorized': {
      // Believed only when it checks out (docs/gateway-checks.md); else a person looks, the number kept.
      const unbelieved = await checkAuthorization(sending, outcome, deps);
      if (unbelieved) return unbelieved;
      return {
        kind: 'advance',
        to: 'pdf',
        patch: {
          cufe: outcome.cufe,
          qr: outcome.qr,
          protocol: outcome.protocol,
          receptionDateDgi: outcome.receptionDateDgi,
          authorizedAt: deps.clock(),
        },
        authorizedInvoice: sending.kind === 'invoice',
      };
    }
    case 'duplicate':
      if (previous.sendMayHaveReached) return reconcile(sending, shop, deps);
      return foreignDuplicate(
        sending,
        () => deps.gateway.run((gateway) => gateway.statusDocument({ credentials: credentials(shop), key: documentKey(sending) })),
        deps,
      );
    case 'rejected': {
      const error = failed(
        'rejected',
        'rejected',
        {
          code: outcome.code,
          gatewayMessage: outcome.message,
          document: sending.kind,
          ...(outcome.fieldName ? { field: outcome.fieldName } : {}),
        },
        outcome.code,
      );
      // A 201 may be a passing fault, or the gateway's incident; repeated while others are authorized, the document's.
      if (outcome.code === '201') return on201(previous, documentHash, error, deps);
      return { kind: 'attention', error };
    }
    case 'credentials':
      return { kind: 'pause_shop', error: failed('credentials', 'credentials', { gatewayMessage: outcome.message }, outcome.code) };
    case 'unavailable':
      return { kind: 'retry', error: failed('unavailable', 'unavailable', { reason: outcome.reason }) };
    case 'indeterminate':
      return { kind: 'retry', error: failed('indeterminate', 'indeterminate', { reason: outcome.reason }) };
  }
}

/** 102 after an attempt that may have reached the gateway: find out whether the document is ours. */
async function reconcile(doc: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<Transition> {
  const key = documentKey(doc);
  const number = formatFiscalNumber(doc);
  const unrecoverable: Transition = {
    kind: 'attention',
    error: failed('unrecoverable', 'unrecoverable', { number, document: doc.kind }, '102'),
  };
  const status = await deps.gateway.run((gateway) => gateway.statusDocument({ credentials: credentials(shop), key }));
  if (status.kind === 'credentials')
    return { kind: 'pause_shop', error: failed('credentials', 'credentials', { gatewayMessage: status.message }, status.code) };
  if (status.kind === 'unavailable') return { kind: 'retry', error: failed('indeterminate', 'indeterminate', { reason: status.reason }) };
  if (status.kind === 'other') return unrecoverable;

  const pdf = await deps.gateway.run((gateway) => gateway.downloadPdf({ credentials: credentials(shop), key }));
  if (pdf.kind === 'credentials')
    return { kind: 'pause_shop', error: failed('credentials', 'credentials', { gatewayMessage: pdf.message }, pdf.code) };
  if (pdf.kind === 'unavailable') return { kind: 'retry', error: failed('indeterminate', 'indeterminate', { reason: pdf.reason }) };
  if (pdf.kind === 'not_found') return unrecoverable;

  // The PDF's own CUFE (a note's PDF prints its invoice's too), naming this document as sent. The number may also have
  // been taken by someone else after our attempt failed: adopt the gateway's document only if it shows our total.
  const read = await readPdfText(pdf.pdf);
  const cufe = await ownCufeInPdf(doc, read, deps);
  const total = (doc.document as GatewayDocument | null)?.totalsSubTotals.totalInvoice;
  if (!cufe || !total || !showsAmount(read, total)) return unrecoverable;
  return {
    kind: 'advance',
    to: 'writeback',
    pdf: pdf.pdf,
    patch: {
      cufe,
      // The signed QR address is only in the lost answer; the DGI's CUFE lookup is the public equivalent.
      qr: cufeLookupUrl(shop.settings.environment, cufe),
      protocol: null,
      authorizedAt: deps.clock(),
      notice: message('recovered_after_lost_answer', { number }),
    },
    authorizedInvoice: doc.kind === 'invoice',
  };
}

// ── pdf ─────────────────────────────────────────────────────────────────────────────────────────

async function pdfStep(doc: DocumentRow, shop: IssuingShop, deps: IssuingDeps): Promise<Transition> {
  const outcome = await deps.gateway.run((gateway) => gateway.downloadPdf({ credentials: credentials(shop), key: documentKey(doc) }));
  switch (outcome.kind) {
    case 'pdf':
      // Kept only when it is this document's: it prints this CUFE (docs/gateway-checks.md).
      return (await checkPdf(doc, outcome.pdf)) ?? { kind: 'advance', to: 'writeback', pdf: outcome.pdf, patch: {} };
    case 'credentials':
      return { kind: 'pause_shop', error: failed('credentials', 'credentials', { gatewayMessage: outcome.message }, outcome.code) };
    case 'not_found':
      // Right after authorization the PDF can lag; keep trying with backoff.
      return { kind: 'retry', error: failed('unavailable', 'pdf_missing', { detail: `${outcome.code} ${outcome.message}`.trim() }) };
    case 'unavailable':
      return { kind: 'retry', error: failed('unavailable', 'pdf_missing', { detail: outcome.reason }) };
  }
}

// ── write-back ──────────────────────────────────────────────────────────────────────────────────

async function writebackStep(doc: DocumentRow, deps: IssuingDeps): Promise<Transition> {
  const token = await deps.store.pdfToken(doc.id);
  // The statement that moved the document to writeback stored its PDF, and steps never go back to fetch it again:
  // without it the row was changed outside the app's moves, which a person must see (the runner counts it an error).
  if (!token) throw new Error(`document ${doc.id} is at writeback without its stored PDF`);
  const written =
    doc.kind === 'invoice'
      ? await deps.shopify.writeInvoiceMetafields(doc.shop, doc.orderGid, {
          cufe: doc.cufe ?? '',
          qr_url: doc.qr ?? '',
          pdf_url: pdfUrl(deps.appUrl, token),
          fiscal_number: formatFiscalNumber(doc),
          protocol: doc.protocol ?? '',
          authorized_at: (doc.authorizedAt ?? deps.clock()).toISOString(),
          buyer_url: buyerUrl(deps.appUrl, doc.buyerToken),
        })
      : await writeNotes(doc, token, deps);
  if (written.ok) return { kind: 'done', patch: { writtenBackAt: deps.clock() } };
  if (written.retryable) return { kind: 'retry', error: failed('unavailable', 'writeback', { detail: written.message }) };
  return { kind: 'attention', error: failed('writeback', 'writeback', { detail: written.message }) };
}

/** The order's `credit_notes` metafield: every completed note of the order, and this one. */
async function writeNotes(doc: DocumentRow, token: string, deps: IssuingDeps) {
  const others = (await deps.store.completedNotes(doc.shop, doc.orderGid)).filter((n) => n.id !== doc.id);
  const entries = others.map((n) => noteEntry(n, n.pdfToken, deps.appUrl));
  return deps.shopify.writeCreditNotesMetafield(doc.shop, doc.orderGid, [...entries, noteEntry(doc, token, deps.appUrl)]);
}

function noteEntry(n: Omit<CompletedNote, 'pdfToken'>, token: string | null, appUrl: string): CreditNoteMetafieldEntry {
  return {
    fiscal_number: formatFiscalNumber(n),
    cufe: n.cufe ?? '',
    pdf_url: pdfUrl(appUrl, token) ?? '',
    amount: formatCents(n.totalCents),
    refund_id: n.sourceKey,
  };
}

// ── helpers ─────────────────────────────────────────────────────────────────────────────────────

function failed(kind: DocumentError['kind'], key: string, params: Message['params'], code?: string): DocumentError {
  return { kind, code, message: message(key, params) };
}

function credentials(shop: IssuingShop): GatewayCredentials {
  if (!shop.credentials) throw new Error(`shop ${shop.shop} has no gateway credentials`);
  return shop.credentials;
}

/** Identifies an issued document for DownloadPDF and StatusDocument. */
export function documentKey(doc: DocumentRow): DocumentKey {
  const sent = doc.document as GatewayDocument | null;
  return {
    codeBranchIssuing: doc.branchCode ?? '',
    numberDocumentFiscal: String(doc.fiscalNumber ?? '').padStart(10, '0'),
    pointBillingFiscal: doc.billingPoint ?? '',
    typeDocument: sent?.dataTransaction.typeDocument ?? doc.documentType,
    typeEmission: sent?.dataTransaction.typeEmission ?? '01',
  };
}

/**
 * The document without its broadcast time: a repeated 201 for the same content is the content's fault. Canonical, so a
 * document read back from the database (jsonb reorders keys) and sent again hashes as it did when first sent.
 */
function hashDocument(document: GatewayDocument): string {
  const { dateBroadcast: _d, ...data } = document.dataTransaction;
  return createHash('sha256')
    .update(canonicalJson({ ...document, dataTransaction: data }))
    .digest('hex');
}
