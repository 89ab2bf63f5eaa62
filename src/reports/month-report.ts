// Reads a shop's month from the database and hands it to the pure figures (month-figures.ts).
import type { Db } from '../db/database.ts';
import { type MonthQuery, type MonthSeriesRow, monthSeriesTotals, numberRecords, seriesMissingNumbers } from '../documents/store/index.ts';
import { formatFiscalNumber } from '../documents/store/document-rows.ts';
import { UnreadableDocumentError, rateOfCode, zeroByRate } from './document-amounts.ts';
import { type MissingNumberFacts, type MonthFigures, MonthTally, type SeriesFigures, gapRuns } from './month-figures.ts';
import { type ReportEnvironment, type ReportMonth, panamaMonthOf } from './report-month.ts';

/** Missing numbers looked into per series; more are counted as `moreGaps`. */
export const MAX_GAP_NUMBERS = 500;

export interface MonthReportQuery {
  shop: string;
  month: ReportMonth;
  environment: ReportEnvironment;
}

export function monthQuery(q: MonthReportQuery): MonthQuery {
  return { shop: q.shop, environment: q.environment, month: q.month.month, from: q.month.from, before: q.month.before };
}

export async function readMonthFigures(db: Db, q: MonthReportQuery): Promise<MonthFigures> {
  const mq = monthQuery(q);
  const series = await monthSeriesTotals(db, mq);
  const tally = new MonthTally();
  const seriesFigures: SeriesFigures[] = [];
  for (const s of series) {
    if (s.unknownRateItems > 0)
      throw new UnreadableDocumentError(
        `a document of series ${s.branchCode}-${s.billingPoint} type ${s.documentType} has an item of an unknown ITBMS rate code or an amount that is not one`,
      );
    const byRate = zeroByRate();
    for (const [code, sums] of Object.entries(s.byRateCode)) {
      const rate = rateOfCode(code)!;
      byRate[rate].baseCents += sums.baseCents;
      byRate[rate].itbmsCents += sums.itbmsCents;
    }
    tally.add(s.documentType, byRate, s.totalCents, s.count);
    seriesFigures.push(await seriesFiguresOf(db, q, s));
  }
  return tally.figures(q, seriesFigures);
}

/** A series' first and last number and its gaps, each with what is recorded about it. */
async function seriesFiguresOf(db: Db, q: MonthReportQuery, s: MonthSeriesRow): Promise<SeriesFigures> {
  const missing = await seriesMissingNumbers(db, monthQuery(q), s, MAX_GAP_NUMBERS);
  const records = await numberRecords(db, q.shop, s, missing, q.environment);
  const facts = new Map<number, { number: number; skipReasons: string[]; holders: MissingNumberFacts['holders'][number][] }>();
  const factsOf = (n: number) => {
    let f = facts.get(n);
    if (!f) facts.set(n, (f = { number: n, skipReasons: [], holders: [] }));
    return f;
  };
  for (const skip of records.skips) factsOf(skip.number).skipReasons.push(skip.reason);
  for (const h of records.holders) {
    factsOf(h.number).holders.push({
      status: h.status,
      environment: h.environment,
      authorizedMonth: h.authorizedAt ? panamaMonthOf(h.authorizedAt).month : null,
    });
  }
  const number = (n: number) => formatFiscalNumber({ branchCode: s.branchCode, billingPoint: s.billingPoint, fiscalNumber: n });
  return {
    branchCode: s.branchCode,
    billingPoint: s.billingPoint,
    documentType: s.documentType,
    count: s.count,
    first: number(s.firstNumber),
    last: number(s.lastNumber),
    firstNumber: s.firstNumber,
    lastNumber: s.lastNumber,
    gaps: gapRuns(missing, facts, q.environment),
    moreGaps: missing.length >= MAX_GAP_NUMBERS,
  };
}
