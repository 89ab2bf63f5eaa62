// The use case's rules for believing the gateway (docs/gateway-checks.md): an authorization is kept only when it
// checks out, a PDF only when it names its document's CUFE, a 102 skips a number only when StatusDocument confirms
// the number is taken and only a few times per document, and a 201 is the document's fault only when it repeats
// while the gateway authorizes other documents (otherwise it is an incident, waited out).
import { type GatewayDocument, REFERENCE_FIELDS } from '../../mappers/gateway/gateway-document.ts';
import type { StatusOutcome } from '../gateway/gateway-client.ts';
import type { GatewayEnvironment } from '../gateway/gateway-types.ts';
import { type Message, asMessage, message } from '../messages/message.ts';
import { type AuthorizationAnswer, type CheckFailure, authorizationMismatch, cufeIssuer, cufeMismatch } from './answer-checks.ts';
import type { DocumentError, IssuingDeps, Transition } from './issuing-ports.ts';
import { type PdfText, readPdfText } from './pdf-cufe.ts';
import { type DocumentRow, formatFiscalNumber } from './store/document-rows.ts';

/** Numbers one document may skip (102 for numbers used outside the app) before a person decides. */
export const MAX_SKIPS_PER_DOCUMENT = 3;
/** The same 201 this many times, each while others were authorized: the document's fault. */
export const REPEATED_201_LIMIT = 3;
/** The longest wait between two tries during an incident. */
const INCIDENT_MAX_WAIT_MS = 30_000;

const environmentOf = (doc: DocumentRow) => (doc.environment ?? 'pruebas') as GatewayEnvironment;

function unverified(doc: DocumentRow, failure: CheckFailure): Transition {
  const error: DocumentError = {
    kind: 'unverified',
    code: failure.check,
    message: message('answer_unverified', {
      number: formatFiscalNumber(doc),
      document: doc.kind,
      check: failure.check,
      detail: failure.detail,
    }),
  };
  return { kind: 'attention', error };
}

/** An authorization that does not check out stops the document for a person (its number stays); else undefined. */
export async function checkAuthorization(
  doc: DocumentRow,
  answer: AuthorizationAnswer,
  deps: IssuingDeps,
): Promise<Transition | undefined> {
  const sent = doc.document as GatewayDocument;
  const { issuerCufe, held } = await deps.store.authorizationChecks(doc.shop, answer.cufe, doc.id);
  const failure =
    authorizationMismatch(answer, sent, environmentOf(doc), issuerCufe) ??
    (held ? { check: 'cufe_duplicate' as const, detail: '' } : undefined);
  return failure && unverified(doc, failure);
}

/**
 * The CUFE of this document among those its PDF prints (a credit note's PDF also prints its invoice's): the one that
 * names this document as sent, by this shop's issuer, held by no other document. Undefined when none does.
 */
export async function ownCufeInPdf(doc: DocumentRow, pdf: PdfText, deps: IssuingDeps): Promise<string | undefined> {
  const sent = doc.document as GatewayDocument | null;
  if (!sent) return undefined;
  const issuer = await deps.store.shopIssuerCufe(doc.shop, doc.id);
  for (const cufe of pdf.cufes) {
    if (cufeMismatch(cufe, sent, environmentOf(doc))) continue;
    if (issuer !== undefined && cufeIssuer(issuer) !== cufeIssuer(cufe)) continue;
    if (await deps.store.cufeHolder(doc.shop, cufe, doc.id)) continue;
    return cufe;
  }
  return undefined;
}

/**
 * A downloaded PDF is kept only when it prints this document's CUFE. Otherwise it is fetched again once (retry), and
 * if the gateway hands out a wrong PDF again, a person looks (the document is authorized; nothing reaches the buyer).
 */
export async function checkPdf(doc: DocumentRow, pdf: Buffer): Promise<Transition | undefined> {
  const { cufes } = await readPdfText(pdf);
  // Its own CUFE, and no other but the invoices a note references (a note's PDF is not its invoice's, though it
  // prints the invoice's CUFE).
  const allowed = new Set([doc.cufe, ...referencedCufes(doc)]);
  const foreign = cufes.find((c) => !allowed.has(c));
  if (doc.cufe !== null && cufes.includes(doc.cufe) && foreign === undefined) return undefined;
  const shown = foreign ?? cufes[0];
  const detail = shown === undefined ? 'it prints no CUFE' : `it prints CUFE ${shown}`;
  const reason = message('pdf_unverified', { number: formatFiscalNumber(doc), document: doc.kind, detail });
  if (doc.lastErrorCode === 'pdf_mismatch')
    return { kind: 'attention', error: { kind: 'unverified', code: 'pdf_mismatch', message: reason } };
  return { kind: 'retry', error: { kind: 'unavailable', code: 'pdf_mismatch', message: reason } };
}

/** The CUFEs of the documents a credit note references, as it was sent. */
function referencedCufes(doc: DocumentRow): string[] {
  const sent = doc.document as GatewayDocument | null;
  const list = sent?.dataTransaction[REFERENCE_FIELDS.list] ?? [];
  return list.map((r) => r[REFERENCE_FIELDS.cufe]);
}

/**
 * 102 for a number this app never sent: skip it only when StatusDocument says a document holds it, and at most
 * MAX_SKIPS_PER_DOCUMENT times per document; then a person decides.
 */
export async function foreignDuplicate(doc: DocumentRow, status: () => Promise<StatusOutcome>, deps: IssuingDeps): Promise<Transition> {
  const number = formatFiscalNumber(doc);
  const skipped = await deps.store.skipsOf(doc.id);
  if (skipped >= MAX_SKIPS_PER_DOCUMENT) {
    const reason = message('too_many_skips', { count: skipped + 1, number, document: doc.kind });
    return { kind: 'attention', error: { kind: 'unrecoverable', code: '102', message: reason } };
  }
  const outcome = await status();
  switch (outcome.kind) {
    case 'authorized':
      return { kind: 'skip_number', number };
    case 'credentials':
      return {
        kind: 'pause_shop',
        error: { kind: 'credentials', code: outcome.code, message: message('credentials', { gatewayMessage: outcome.message }) },
      };
    case 'unavailable':
      return {
        kind: 'retry',
        error: { kind: 'indeterminate', code: undefined, message: message('indeterminate', { reason: outcome.reason }) },
      };
    case 'other':
      return { kind: 'retry', error: { kind: 'unavailable', code: '102', message: message('duplicate_unconfirmed', { number }) } };
  }
}

/**
 * A 201 for the document just sent. It counts against the document only when the gateway authorized another document
 * since this one's previous 201 (or it is the first): REPEATED_201_LIMIT such answers for the same content and it
 * needs a person. While nothing is authorized between two 201s, the gateway answers 201 to everything: an incident,
 * waited out with growing pauses (no attempt counted), shown on the document.
 */
export function on201(previous: DocumentRow, documentHash: string, rejection: DocumentError, deps: IssuingDeps): Transition {
  const now = deps.clock();
  const sameContent = previous.documentHash === documentHash && previous.repeated201 > 0;
  const streak = sameContent ? previous.repeated201 : 0;
  const last = sameContent ? previous.last201At : null;
  const othersAuthorized = last === null || (deps.pulse?.authorizedSince(last) ?? true);
  if (!othersAuthorized && last !== null) {
    const since = incidentSince(previous) ?? last.toISOString();
    const waitMs = Math.min(INCIDENT_MAX_WAIT_MS, Math.max(250, 2 * (now.getTime() - last.getTime())));
    return { kind: 'wait', reason: message('gateway_incident', { since }), retryInMs: waitMs, patch: { last201At: now } };
  }
  const repeated = streak + 1;
  const patch = { repeated201: repeated, last201At: now };
  if (repeated >= REPEATED_201_LIMIT) return { kind: 'attention', error: rejection, patch };
  return { kind: 'retry', error: rejection, patch };
}

/** When the incident a waiting document shows began. */
function incidentSince(doc: DocumentRow): string | undefined {
  const shown: Message | undefined = asMessage(doc.lastError);
  const since = shown?.key === 'gateway_incident' ? shown.params.since : undefined;
  return typeof since === 'string' ? since : undefined;
}
