// A series, its gaps and a refused move in words, for the CLI and the admin API's error text (English; the admin page
// words them in its own language from the same facts).
import type { GapReason } from './store/series-statements.ts';

/** `produccion 0000-001 type 01`. */
export function seriesName(s: { environment: string; branchCode: string; billingPoint: string; documentType: string }): string {
  return `${s.environment} ${s.branchCode}-${s.billingPoint} type ${s.documentType}`;
}

/** A gap's reason, for people (English, as the CLI speaks). */
export function gapReasonText(reason: GapReason): string {
  switch (reason.kind) {
    case 'skipped':
      return `skipped: ${reason.detail}`;
    case 'set_next':
      return `next number moved from ${reason.fromNext} to ${reason.toNext} by ${reason.by} at ${reason.at}`;
    case 'other_environment':
      return 'used by the other environment while both shared one sequence';
    case 'unknown':
      return 'no record of why';
  }
}

/** Why a next number was refused, for people. */
export function refusalText(o: { next: number; lastUsed: number | null; lastReserved: number | null; nextNumber: number }): string {
  if (o.lastUsed !== null && o.next <= o.lastUsed)
    return `${o.next} is at or below ${o.lastUsed}, a number already used (the series continues at ${Math.max(o.nextNumber, o.lastUsed + 1)})`;
  return `${o.next} is at or below ${o.lastReserved ?? o.nextNumber - 1}, a number already reserved (the series continues at ${o.nextNumber}; it only moves forward)`;
}
