// Reads a shop's month from the database and hands it to the pure figures (month-figures.ts).
import type { Db } from '../db/database.ts';
import {
  type MonthQuery,
  monthRateSums,
  monthSeries,
  monthTypeTotals,
  numberRecords,
  seriesMissingNumbers,
} from '../documents/store/index.ts';
import { formatFiscalNumber } from '../documents/store/document-rows.ts';
import { type AmountsByRate, UnreadableDocumentError, rateOfCode, zeroByRate } from './document-amounts.ts';
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
  return { shop: q.shop, environment: q.environment, from: q.month.from, before: q.month.before };
}

export async function readMonthFigures(db: Db, q: MonthReportQuery): Promise<MonthFigures> {
  const mq = monthQuery(q);
  const [rateSums, typeTotals, series] = await Promise.all([monthRateSums(db, mq), monthTypeTotals(db, mq), monthSeries(db, mq)]);
  const byType = new Map<string, AmountsByRate>();
  for (const r of rateSums) {
    const rate = rateOfCode(r.rateCode);
    if (rate === undefined) throw new UnreadableDocumentError(`a document of type ${r.documentType} has an unknown ITBMS rate code`);
    const sums = byType.get(r.documentType) ?? zeroByRate();
    sums[rate].baseCents += r.baseCents;
    sums[rate].itbmsCents += r.itbmsCents;
    byType.set(r.documentType, sums);
  }
  const tally = new MonthTally();
  for (const t of typeTotals) tally.add(t.documentType, byType.get(t.documentType) ?? zeroByRate(), t.totalCents, t.count);
  const seriesFigures: SeriesFigures[] = [];
  for (const s of series) {
    const missing = await seriesMissingNumbers(db, mq, s, MAX_GAP_NUMBERS);
    const records = await numberRecords(db, q.shop, s, missing);
    const facts = new Map<number, MissingNumberFacts>();
    const factsOf = (n: number) => {
      let f = facts.get(n);
      if (!f) facts.set(n, (f = { number: n, skipReasons: [], holders: [] }));
      return f as { number: number; skipReasons: string[]; holders: MissingNumberFacts['holders'][number][] };
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
    seriesFigures.push({
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
    });
  }
  return tally.figures(q, seriesFigures);
}
