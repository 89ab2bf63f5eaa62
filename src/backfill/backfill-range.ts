// A backfill's range: Panama days (UTC−5 all year), both included, checked before anything starts. Pure.
import { PANAMA_OFFSET_MS, panamaDate } from '../reports/report-month.ts';
import { type Message, message } from '../messages/message.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
/** A year, leap day included. */
export const MAX_RANGE_DAYS = 366;
/** Shopify shows an app the orders of the last 60 days unless it holds read_all_orders. */
export const RECENT_ORDER_DAYS = 60;
export const ALL_ORDERS_SCOPE = 'read_all_orders';

export interface BackfillRange {
  /** YYYY-MM-DD, Panama. */
  from: string;
  to: string;
  /** 00:00 of `from` in Panama (inclusive). */
  startsAt: Date;
  /** 00:00 of the day after `to` in Panama (exclusive). */
  endsBefore: Date;
  days: number;
}

export type RangeReading = { ok: true; range: BackfillRange } | { ok: false; field: 'from' | 'to' | 'range'; error: Message };

/** The instant a Panama day starts, or undefined when the text is not a real YYYY-MM-DD day. */
function dayStart(text: string): Date | undefined {
  const m = DAY.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(year, month - 1, day);
  const back = new Date(utc);
  if (year < 2000 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return new Date(utc + PANAMA_OFFSET_MS);
}

/** `from`/`to` as typed → the range; refused when unreadable, reversed, in the future (Panama's today) or over a year. */
export function readBackfillRange(from: unknown, to: unknown, now: Date): RangeReading {
  const fromText = typeof from === 'string' ? from.trim() : '';
  const toText = typeof to === 'string' ? to.trim() : '';
  const startsAt = dayStart(fromText);
  if (!startsAt) return { ok: false, field: 'from', error: message('backfill_day_format', { field: 'from' }) };
  const toStart = dayStart(toText);
  if (!toStart) return { ok: false, field: 'to', error: message('backfill_day_format', { field: 'to' }) };
  const today = panamaDate(now);
  if (fromText > today) return { ok: false, field: 'from', error: message('backfill_future', { field: 'from', day: fromText, today }) };
  if (toText > today) return { ok: false, field: 'to', error: message('backfill_future', { field: 'to', day: toText, today }) };
  if (fromText > toText) return { ok: false, field: 'range', error: message('backfill_reversed', { from: fromText, to: toText }) };
  const days = Math.round((toStart.getTime() - startsAt.getTime()) / DAY_MS) + 1;
  if (days > MAX_RANGE_DAYS) return { ok: false, field: 'range', error: message('backfill_too_long', { days, max: MAX_RANGE_DAYS }) };
  return { ok: true, range: { from: fromText, to: toText, startsAt, endsBefore: new Date(toStart.getTime() + DAY_MS), days } };
}

/** Shopify's search for the range's paid orders (timestamps quoted: they hold colons). */
export function backfillSearchQuery(range: Pick<BackfillRange, 'startsAt' | 'endsBefore'>): string {
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `financial_status:paid created_at:>='${iso(range.startsAt)}' created_at:<'${iso(range.endsBefore)}'`;
}

/** Whether the range reaches further back than the 60 days Shopify shows without read_all_orders. */
export function needsAllOrders(range: Pick<BackfillRange, 'startsAt'>, now: Date): boolean {
  return range.startsAt.getTime() < now.getTime() - RECENT_ORDER_DAYS * DAY_MS;
}

/** The range of a stored backfill (its days were checked when it started). */
export function storedRange(from: string, to: string): Pick<BackfillRange, 'startsAt' | 'endsBefore'> {
  const startsAt = dayStart(from);
  const toStart = dayStart(to);
  if (!startsAt || !toStart) throw new Error(`backfill range ${from}..${to} is not two days`);
  return { startsAt, endsBefore: new Date(toStart.getTime() + DAY_MS) };
}
