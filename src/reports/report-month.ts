// The accountant's month: a calendar month in Panamá time (UTC−5 all year, no daylight saving), as the DGI and
// Form 430 count it. A document belongs to the month of its authorization time read in Panamá.

/** Panamá is five hours behind UTC all year. */
export const PANAMA_OFFSET_MS = 5 * 60 * 60 * 1000;

/** The documents' environments: production (the default of every report) and the DGI's test environment. */
export const REPORT_ENVIRONMENTS = ['produccion', 'pruebas'] as const;
export type ReportEnvironment = (typeof REPORT_ENVIRONMENTS)[number];

export interface ReportMonth {
  /** `YYYY-MM`. */
  month: string;
  year: number;
  /** 1–12. */
  monthNumber: number;
  /** 00:00 of the 1st in Panamá, as an instant (inclusive). */
  from: Date;
  /** 00:00 of the next month's 1st in Panamá (exclusive). */
  before: Date;
}

const MONTH = /^(\d{4})-(\d{2})$/;

/** Why a month cannot be reported, in words that name what is wrong. */
export type MonthProblem = { ok: false; error: string };

/**
 * `2026-11` → the month's bounds. Refused: text that is not `YYYY-MM`, a month number outside 1–12, a year outside
 * 2000–2999, and a month that has not begun yet in Panamá at `now` (the current month is allowed: its figures so far).
 */
export function parseReportMonth(text: string, now: Date): { ok: true; month: ReportMonth } | MonthProblem {
  const match = MONTH.exec(text);
  if (!match) return { ok: false, error: 'the month must be written YYYY-MM, e.g. 2026-11' };
  const year = Number(match[1]);
  const monthNumber = Number(match[2]);
  if (monthNumber < 1 || monthNumber > 12) return { ok: false, error: 'the month must be from 01 to 12' };
  if (year < 2000 || year > 2999) return { ok: false, error: 'the year must be from 2000 to 2999' };
  const month = monthBounds(year, monthNumber);
  if (month.from.getTime() > now.getTime()) return { ok: false, error: `${month.month} has not begun yet (Panamá time)` };
  return { ok: true, month };
}

export function monthBounds(year: number, monthNumber: number): ReportMonth {
  const from = new Date(Date.UTC(year, monthNumber - 1, 1) + PANAMA_OFFSET_MS);
  const before = new Date(Date.UTC(year, monthNumber, 1) + PANAMA_OFFSET_MS);
  return { month: `${year}-${String(monthNumber).padStart(2, '0')}`, year, monthNumber, from, before };
}

/** The Panamá calendar day of an instant, `YYYY-MM-DD`. */
export function panamaDate(at: Date): string {
  return new Date(at.getTime() - PANAMA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The month an instant falls in, in Panamá. */
export function panamaMonthOf(at: Date): ReportMonth {
  const local = new Date(at.getTime() - PANAMA_OFFSET_MS);
  return monthBounds(local.getUTCFullYear(), local.getUTCMonth() + 1);
}

/** The month before the one `at` falls in (Panamá): what the e-mail of the 1st sends. */
export function previousPanamaMonth(at: Date): ReportMonth {
  const current = panamaMonthOf(at);
  return current.monthNumber === 1 ? monthBounds(current.year - 1, 12) : monthBounds(current.year, current.monthNumber - 1);
}

export function isReportEnvironment(value: string): value is ReportEnvironment {
  return (REPORT_ENVIRONMENTS as readonly string[]).includes(value);
}
