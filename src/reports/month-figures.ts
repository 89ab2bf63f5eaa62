// The month's figures as Form 430 reads them (docs/reports.md): per ITBMS rate the base and the tax of invoices, of
// credit notes and net; counts and totals; each series' first and last number and its gaps with their reasons.
// Pure: fed with what the stored documents say (src/documents/store/report-statements.ts reads them).
import { type AmountsByRate, ITBMS_RATES, type ItbmsRate, type RateAmounts, zeroByRate } from './document-amounts.ts';
import type { ReportEnvironment, ReportMonth } from './report-month.ts';

export interface KindFigures {
  count: number;
  baseCents: number;
  itbmsCents: number;
  totalCents: number;
}

export interface RateFigures {
  rate: ItbmsRate;
  invoices: RateAmounts;
  creditNotes: RateAmounts;
  net: RateAmounts;
}

/** Why a number inside a series' month is not among the month's documents. */
export type GapReason =
  | { kind: 'skipped'; detail: string }
  | { kind: 'other_month'; month: string }
  | { kind: 'other_environment'; environment: string }
  | { kind: 'not_authorized'; status: string }
  | { kind: 'unrecorded' };

export interface SeriesGap {
  /** First and last missing number of a run with one reason. */
  from: number;
  to: number;
  reason: GapReason;
}

export interface SeriesFigures {
  branchCode: string;
  billingPoint: string;
  documentType: string;
  count: number;
  first: string;
  last: string;
  firstNumber: number;
  lastNumber: number;
  gaps: SeriesGap[];
  /** True when more gaps were found than are listed (see docs/reports.md). */
  moreGaps: boolean;
}

export interface MonthFigures {
  shop: string;
  month: string;
  environment: ReportEnvironment;
  /** The month's bounds as UTC instants: from (inclusive) and before (exclusive), 00:00 Panamá. */
  from: string;
  before: string;
  currency: 'USD';
  rates: RateFigures[];
  invoices: KindFigures;
  creditNotes: KindFigures;
  net: Omit<KindFigures, 'count'>;
  series: SeriesFigures[];
}

/** A credit note is type 04; every other type is an invoice (the documents table's own rule). */
export function isCreditNoteType(documentType: string): boolean {
  return documentType === '04';
}

/** Sums documents (or groups of them) into invoices' and notes' figures, exact in cents. */
export class MonthTally {
  private readonly invoices = { count: 0, totalCents: 0, byRate: zeroByRate() };
  private readonly notes = { count: 0, totalCents: 0, byRate: zeroByRate() };

  /** Add `count` documents of one type whose amounts add up to these (one document: count 1). */
  add(documentType: string, byRate: AmountsByRate, totalCents: number, count = 1): void {
    const into = isCreditNoteType(documentType) ? this.notes : this.invoices;
    into.count += count;
    into.totalCents += totalCents;
    for (const rate of ITBMS_RATES) {
      into.byRate[rate].baseCents += byRate[rate].baseCents;
      into.byRate[rate].itbmsCents += byRate[rate].itbmsCents;
    }
  }

  figures(meta: { shop: string; month: ReportMonth; environment: ReportEnvironment }, series: SeriesFigures[]): MonthFigures {
    const invoices = kindFigures(this.invoices);
    const creditNotes = kindFigures(this.notes);
    return {
      shop: meta.shop,
      month: meta.month.month,
      environment: meta.environment,
      from: meta.month.from.toISOString(),
      before: meta.month.before.toISOString(),
      currency: 'USD',
      rates: ITBMS_RATES.map((rate) => {
        const i = this.invoices.byRate[rate];
        const n = this.notes.byRate[rate];
        return {
          rate,
          invoices: { ...i },
          creditNotes: { ...n },
          net: { baseCents: i.baseCents - n.baseCents, itbmsCents: i.itbmsCents - n.itbmsCents },
        };
      }),
      invoices,
      creditNotes,
      net: {
        baseCents: invoices.baseCents - creditNotes.baseCents,
        itbmsCents: invoices.itbmsCents - creditNotes.itbmsCents,
        totalCents: invoices.totalCents - creditNotes.totalCents,
      },
      series,
    };
  }
}

function kindFigures(t: { count: number; totalCents: number; byRate: AmountsByRate }): KindFigures {
  let baseCents = 0;
  let itbmsCents = 0;
  for (const rate of ITBMS_RATES) {
    baseCents += t.byRate[rate].baseCents;
    itbmsCents += t.byRate[rate].itbmsCents;
  }
  return { count: t.count, baseCents, itbmsCents, totalCents: t.totalCents };
}

/** What is known about one number missing from a series' month: skips recorded for it, documents holding it. */
export interface MissingNumberFacts {
  number: number;
  skipReasons: readonly string[];
  holders: readonly { status: string; environment: string | null; authorizedMonth: string | null }[];
}

/**
 * The reason of one missing number, the most telling first: a recorded skip; a document of this series authorized
 * in another month; one of another environment (the sequence is shared today); one not authorized yet; none.
 */
export function gapReason(facts: MissingNumberFacts | undefined, environment: ReportEnvironment): GapReason {
  if (!facts) return { kind: 'unrecorded' };
  if (facts.skipReasons.length > 0) return { kind: 'skipped', detail: facts.skipReasons[0]! };
  const authorized = facts.holders.find((h) => h.authorizedMonth !== null && h.environment === environment);
  if (authorized) return { kind: 'other_month', month: authorized.authorizedMonth! };
  const elsewhere = facts.holders.find((h) => h.environment !== null && h.environment !== environment);
  if (elsewhere) return { kind: 'other_environment', environment: elsewhere.environment! };
  const pending = facts.holders[0];
  if (pending) return { kind: 'not_authorized', status: pending.status };
  return { kind: 'unrecorded' };
}

/** Missing numbers with their reasons, consecutive numbers with the same reason joined into one run. */
export function gapRuns(
  missing: readonly number[],
  facts: ReadonlyMap<number, MissingNumberFacts>,
  environment: ReportEnvironment,
): SeriesGap[] {
  const runs: SeriesGap[] = [];
  for (const number of [...missing].sort((a, b) => a - b)) {
    const reason = gapReason(facts.get(number), environment);
    const last = runs.at(-1);
    if (last && last.to === number - 1 && JSON.stringify(last.reason) === JSON.stringify(reason)) last.to = number;
    else runs.push({ from: number, to: number, reason });
  }
  return runs;
}
