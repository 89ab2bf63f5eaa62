// `npm run cli -- reports month`: the accountant's month of a shop (docs/reports.md): its figures as JSON, the sales
// book as CSV or XLSX, or a ZIP of the month's PDFs with the CSV. JSON and CSV go to standard output unless --out
// names a file; XLSX and ZIP need --out when standard output is a terminal.
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readMonthFigures } from '../reports/month-report.ts';
import { readReportRequest } from '../reports/report-request.ts';
import { salesBookCsv } from '../reports/sales-book-csv.ts';
import { writeMonthXlsx } from '../reports/sales-book-xlsx.ts';
import { writeMonthZip } from '../reports/month-zip.ts';
import {
  CliFailure,
  CliInputError,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  openCliContext,
  parseCommandArgs,
  processIo,
  requireShop,
  runSubcommand,
  withContext,
} from './cli-context.ts';

const MONTH_USAGE =
  'reports month --shop <shop> --month YYYY-MM [--environment produccion|pruebas] [--format json|csv|xlsx|zip] [--out FILE]';

export const USAGE = [
  'usage:',
  `  npm run cli -- ${MONTH_USAGE}`,
  "the month's figures (json, the default), the sales book (csv, xlsx) or its PDFs with the book (zip), from the",
  'documents authorized in that calendar month in Panamá time (UTC-5); production documents unless --environment pruebas',
].join('\n');

/** Where the bytes go: standard output by default; tests give their own. */
export interface ReportsIo extends CliIo {
  stdout?: Writable & { isTTY?: boolean };
  now?: () => Date;
}

export async function run(args: string[]): Promise<number> {
  return runReports(args, processIo, () => openCliContext());
}

export async function runReports(args: readonly string[], io: ReportsIo, open: OpenContext): Promise<number> {
  return runSubcommand(io, 'reports', args, USAGE, open, { month: (rest, _io, o) => month(rest, io, o) });
}

async function month(args: readonly string[], io: ReportsIo, open: OpenContext): Promise<number> {
  const { values } = parseCommandArgs(args, { values: ['shop', 'month', 'environment', 'format', 'out'] }, MONTH_USAGE);
  const shop = requireShop(values, MONTH_USAGE);
  if (values['month'] === undefined) throw new CliInputError(`--month is required (${MONTH_USAGE})`);
  const read = readReportRequest(
    { month: values['month'], environment: values['environment'], format: values['format'] },
    (io.now ?? (() => new Date()))(),
  );
  if (!read.ok) throw new CliInputError(`--${read.field}: ${read.error.replace(/^(month|environment|format) /, '')}`);
  const { request } = read;
  const file = values['out'];
  const stdout = io.stdout ?? process.stdout;
  if (file === undefined && (request.format === 'xlsx' || request.format === 'zip') && stdout.isTTY)
    throw new CliInputError(`--format ${request.format} writes a binary file: give --out FILE`);

  return withContext(open, io, async (ctx) => {
    if (!(await ctx.shops.get(shop))) {
      throw new CliFailure(`shop ${shop} is not known here (npm run cli -- shops list shows the shops)`);
    }
    const q = { shop, month: request.month, environment: request.environment };
    const db = ctx.database.db;
    const out: Writable = file === undefined ? stdout : fs.createWriteStream(file);
    switch (request.format) {
      case 'json': {
        const figures = await readMonthFigures(db, q);
        await writeAll(out, `${JSON.stringify(figures, null, 2)}\n`, file !== undefined);
        break;
      }
      case 'csv':
        await pipeline(salesBookCsv(db, q), out);
        break;
      case 'xlsx':
        await writeMonthXlsx(db, q, await readMonthFigures(db, q), out);
        if (file !== undefined) await finished(out);
        break;
      case 'zip':
        await writeMonthZip(db, q, out);
        break;
    }
    if (file !== undefined) io.err(`wrote ${file}`);
    return EXIT_OK;
  });
}

async function writeAll(out: Writable, text: string, end: boolean): Promise<void> {
  await new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
  if (end) {
    out.end();
    await finished(out);
  }
}

function finished(out: Writable): Promise<void> {
  if (out.writableFinished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
  });
}
