// How the CLI words an invoice: the admin page's status words (src/admin/public/i18n.js, in English like
// the rest of the CLI) and times in Panama's time, labelled, as the page shows them.
import type { DocumentReason } from '../admin/document-view.ts';

/** The page's word for each state (`status.*` in i18n.js); a test holds the two together. */
export const STATUS_WORDS = {
  pending: 'Queued',
  retrying: 'Retrying',
  onHold: 'On hold',
  needs_attention: 'Needs attention',
  failed: 'Failed',
  completed: 'Authorized',
  authorizedFinishing: 'Authorized',
  skipped: 'Skipped',
  waiting: 'Waiting',
} as const;

/** The reasons that wait for the merchant (settings), not for the gateway: on hold, not retrying. */
const HOLD_REASONS = new Set(['paused', 'disabled', 'credentials']);

/** The word the page's badge shows for an invoice (document-status.js, statusBadge). */
export function statusWord(inv: { status: string; cufe: string | null; reason: Pick<DocumentReason, 'kind'> | null }): string {
  switch (inv.status) {
    case 'completed':
    case 'needs_attention':
    case 'failed':
    case 'skipped':
    case 'waiting':
      return STATUS_WORDS[inv.status];
    case 'pending':
      if (inv.cufe !== null) return `${STATUS_WORDS.authorizedFinishing} (saving PDF and order)`;
      if (inv.reason && HOLD_REASONS.has(inv.reason.kind)) return STATUS_WORDS.onHold;
      return inv.reason ? STATUS_WORDS.retrying : STATUS_WORDS.pending;
    default:
      return inv.status;
  }
}

/**
 * `--status`: today's values (completed, needs_attention, …) and the words the CLI prints (Authorized,
 * "needs attention", Queued…), in any case, with spaces, hyphens or underscores.
 */
export function statusFromWord(text: string): string | undefined {
  const key = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const byWord: Record<string, string> = {
    queued: 'pending',
    pending: 'pending',
    authorized: 'completed',
    completed: 'completed',
    needs_attention: 'needs_attention',
    failed: 'failed',
    skipped: 'skipped',
    waiting: 'waiting',
  };
  return Object.hasOwn(byWord, key) ? byWord[key] : undefined;
}

/** What labels a time shown in Panama's time (UTC−05:00 all year). */
export const PANAMA_LABEL = 'Panamá';

const panamaFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'America/Panama',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** 2026-11-25T07:32:23Z → "25/11/2026 02:32": dd/mm/aaaa hh:mm in Panama, as the page shows times. */
export function panamaTime(date: Date): string {
  return panamaFormat.format(date).replace(',', '');
}
