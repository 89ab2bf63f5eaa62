// The sales book as CSV: UTF-8 with a BOM (Excel then reads accents right), RFC 4180 (CRLF, quotes doubled), and
// text cells that a spreadsheet would run as a formula (=, +, -, @ first) prefixed with an apostrophe. Amounts are
// numbers, never prefixed: "-12.34" is a credit note's amount. Written by csv-stringify, streamed: one batch of
// documents in memory at a time, and the stream waits while its reader is slow.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../db/database.ts';
import { type MonthCursor, type MonthDocumentRow, monthDocumentsBatch } from '../documents/store/index.ts';
import { formatCents } from '../../mappers/fiscal/money.ts';
import { type MonthReportQuery, monthQuery } from './month-report.ts';
import { SALES_BOOK_COLUMNS, type SalesBookRow, salesBookRow } from './sales-book.ts';

/** Documents read per query. */
export const BOOK_BATCH = 500;

/** The month's documents in authorization order, a batch at a time. */
export async function* monthDocuments(db: Db, q: MonthReportQuery, batch = BOOK_BATCH): AsyncGenerator<MonthDocumentRow> {
  const mq = monthQuery(q);
  let after: MonthCursor | undefined;
  for (;;) {
    const rows = await monthDocumentsBatch(db, mq, after, batch);
    yield* rows;
    if (rows.length < batch) return;
    after = rows.at(-1)!.cursor;
  }
}

/** The month's sales book rows, read a batch at a time. */
export async function* salesBookRows(db: Db, q: MonthReportQuery): AsyncGenerator<SalesBookRow> {
  for await (const d of monthDocuments(db, q)) yield salesBookRow(d);
}

/** A CSV writer of sales book rows (a Transform stream: rows in, text out). */
export function salesBookCsvStringifier() {
  return stringify({
    bom: true,
    header: true,
    columns: [...SALES_BOOK_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { number: (cents: number) => formatCents(cents) },
  });
}

/** The month's sales book as a CSV byte stream. */
export function salesBookCsv(db: Db, q: MonthReportQuery): Readable {
  const csv = salesBookCsvStringifier();
  const rows = Readable.from(salesBookRows(db, q));
  rows.on('error', (error) => csv.destroy(error));
  return rows.pipe(csv);
}

/** A whole CSV text of some rows (tests, small outputs). */
export async function csvText(rows: readonly SalesBookRow[]): Promise<string> {
  const csv = salesBookCsvStringifier();
  const chunks: Buffer[] = [];
  csv.on('data', (c: Buffer | string) => chunks.push(Buffer.from(c)));
  const done = new Promise<void>((resolve, reject) => {
    csv.on('end', resolve);
    csv.on('error', reject);
  });
  for (const r of rows) csv.write(r);
  csv.end();
  await done;
  return Buffer.concat(chunks).toString('utf8');
}
