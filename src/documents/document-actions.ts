// What a person may do with a document now, decided in one place for the admin API, the page and the CLI: retry it,
// correct its client, re-issue it to another client, e-mail it again. Each action withheld carries its reason as a
// catalogue message (docs/design.md §9, §10, §11), so what is offered is what the server will accept. Pure: the caller
// reads the facts (the row, its relatives, whether the server can e-mail).
import { type Message, message } from '../messages/message.ts';
import { RETRYABLE_STATUSES } from '../db/document-state.ts';
import { type DocumentRow, formatFiscalNumber } from './store/document-rows.ts';
import type { RelatedDocument, Relatives } from './store/order-statements.ts';

export const DOCUMENT_ACTIONS = ['retry', 'correct_client', 'reissue', 'resend_email'] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

export type ActionVerdict = { allowed: true; reason: null } | { allowed: false; reason: Message };

export type DocumentActions = Record<DocumentAction, ActionVerdict>;

type ActionRow = Pick<DocumentRow, 'id' | 'kind' | 'status' | 'step' | 'cufe' | 'lastErrorKind'>;

/** A relative as the decision needs it: which document, and whether it stands (a skipped note credits nothing). */
export interface RelativeFact {
  id: string;
  status: string;
  /** As people read it ("0000-001-0000000002"); null before it is numbered. */
  fiscalNumber: string | null;
}

export interface ActionFacts {
  row: ActionRow;
  /** The invoice that replaced this one (a re-issue), if any. */
  replacedBy: RelativeFact | null;
  /** An invoice's credit notes, linked or waiting for it. */
  creditNotes: readonly RelativeFact[];
  /** Whether this server can e-mail buyers; undefined when the caller does not know (the e-mail card asks). */
  mailConfigured?: boolean;
}

const allow: ActionVerdict = { allowed: true, reason: null };
const refuse = (key: string, params: Record<string, string> = {}): ActionVerdict => ({ allowed: false, reason: message(key, params) });

/** Retry is offered where it changes something (retryShopDocument); a waiting document looks again at once. */
export function retryVerdict(row: Pick<ActionRow, 'status' | 'lastErrorKind'>): ActionVerdict {
  if (row.status === 'failed' || row.status === 'needs_attention' || row.status === 'waiting') return allow;
  if (row.status === 'pending') return row.lastErrorKind !== null ? allow : refuse('action_retry_queued');
  if (row.status === 'completed') return refuse('action_retry_completed');
  return refuse('action_retry_skipped');
}

/** Only an invoice stopped for a person, before anything was authorized (store/correction-statements.ts checks the same). */
export function isCorrectable(row: Pick<DocumentRow, 'kind' | 'step' | 'cufe' | 'status'>): boolean {
  return (
    row.kind === 'invoice' && row.step === 'send' && row.cufe === null && (RETRYABLE_STATUSES as readonly string[]).includes(row.status)
  );
}

/** Whether the client may be corrected now, or why not. */
export function correctionVerdict(row: Pick<ActionRow, 'kind' | 'status' | 'step' | 'cufe'>): ActionVerdict {
  if (isCorrectable(row)) return allow;
  if (row.kind !== 'invoice') return refuse('action_correct_credit_note');
  if (row.cufe !== null || row.step !== 'send') return refuse('action_correct_authorized');
  return refuse(row.status === 'skipped' ? 'action_correct_skipped' : 'action_correct_in_queue');
}

/**
 * An authorized invoice, not replaced already and with no credit note (a full replacement would invoice refunded goods
 * again). Refuses at least what the replacement's statement refuses (store/replacement-statements.ts).
 */
function reissue(facts: ActionFacts): ActionVerdict {
  const { row } = facts;
  if (row.kind !== 'invoice') return refuse('action_reissue_credit_note');
  if (facts.replacedBy) return refuse('action_reissue_replaced', { number: facts.replacedBy.fiscalNumber ?? '' });
  if (row.cufe === null) return refuse('action_reissue_not_authorized');
  const notes = facts.creditNotes.filter((n) => n.status !== 'skipped');
  if (notes.length > 0) return refuse('action_reissue_has_notes', { count: String(notes.length) });
  return allow;
}

/** Whether the document's e-mail may be sent again (resend.ts also refuses a buyer with no address). */
export function resendVerdict(row: Pick<ActionRow, 'status'>, mailConfigured: boolean | undefined): ActionVerdict {
  if (row.status !== 'completed') return refuse('action_resend_not_authorized');
  if (mailConfigured === false) return refuse('action_resend_no_mail');
  return allow;
}

function resendEmail(facts: ActionFacts): ActionVerdict {
  return resendVerdict(facts.row, facts.mailConfigured);
}

export function documentActions(facts: ActionFacts): DocumentActions {
  return {
    retry: retryVerdict(facts.row),
    correct_client: correctionVerdict(facts.row),
    reissue: reissue(facts),
    resend_email: resendEmail(facts),
  };
}

/** The actions of a row with its relatives read (documentActions' facts). */
export function actionsOf(row: DocumentRow, related: Relatives, mailConfigured?: boolean): DocumentActions {
  const fact = (r: RelatedDocument) => ({
    id: r.id,
    status: r.status,
    fiscalNumber: r.fiscalNumber === null ? null : formatFiscalNumber(r),
  });
  return documentActions({
    row,
    replacedBy: related.replacedBy ? fact(related.replacedBy) : null,
    creditNotes: related.notes.map(fact),
    ...(mailConfigured === undefined ? {} : { mailConfigured }),
  });
}
