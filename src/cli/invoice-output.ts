// What the invoices commands print of a document, shared by list and show: the JSON summary (exact, UTC), the last
// error in English from the catalogue, the shops' states, and the small pieces of text for people.
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { ShopState } from '../admin/document-view.ts';
import type { DocumentKind } from '../db/document-state.ts';
import { type DocumentListRow, formatFiscalNumber } from '../documents/store/index.ts';
import { render } from '../messages/catalogue.ts';
import { asMessage } from '../messages/message.ts';
import type { CliContext } from './cli-context.ts';
import { PANAMA_LABEL, panamaTime } from './document-words.ts';

/** How the list's KIND column words a document. */
export const KIND_WORDS: Record<DocumentKind, string> = { invoice: 'invoice', credit_note: 'credit note' };

/** The state of each shop of the rows: a pending invoice of a paused or disabled shop is on hold. */
export async function shopStates(ctx: CliContext, rows: readonly { shop: string }[]): Promise<Map<string, ShopState>> {
  const states = new Map<string, ShopState>();
  for (const shop of new Set(rows.map((r) => r.shop))) {
    const found = await ctx.shops.get(shop);
    states.set(shop, { enabled: found?.enabled ?? false, pausedReason: found?.pausedReason ?? null });
  }
  return states;
}

/** "25/11/2026 02:32 (Panamá)". */
export function labelled(date: Date): string {
  return `${panamaTime(date)} (${PANAMA_LABEL})`;
}

/** The last error in English (the CLI's language), from the message catalogue. */
export function lastError(r: Pick<DocumentListRow, 'lastError'>): string | null {
  const m = asMessage(r.lastError);
  return m ? render(m, 'en') : null;
}

export function summary(r: Omit<DocumentListRow, 'cursorAt'>) {
  return {
    id: r.id,
    kind: r.kind,
    invoiceId: r.invoiceId,
    shop: r.shop,
    orderGid: r.orderGid,
    orderName: r.orderName,
    status: r.status,
    step: r.step,
    fiscalNumber: r.fiscalNumber === null ? null : formatFiscalNumber(r),
    total: formatCents(r.totalCents),
    currency: r.currency,
    test: r.test,
    cufe: r.cufe,
    lastError: lastError(r),
    createdAt: r.createdAt.toISOString(),
  };
}

export function oneLine(text: string | null, max: number): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
