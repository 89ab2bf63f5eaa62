// `invoices retry|resend <id> <id> …` and `invoices retry|resend|pdfs` with the list's filters (docs/operators.md,
// "Bulk actions"): each document through the page's decision (documents/bulk-actions.ts), one line per document and a
// summary; exit 1 when any was refused. `invoices pdfs … --out FILE.zip` writes their PDFs as the page's ZIP does.
import fs from 'node:fs';
import { isUuid } from '../admin/list-params.ts';
import { type BulkFilters, documentFilter } from '../admin/bulk-selection.ts';
import { leftOutNote } from '../admin/bulk-api.ts';
import { calendarDate } from '../admin/request-guards.ts';
import type { DocumentKind, DocumentStatus } from '../db/document-state.ts';
import { type BulkOutcome, resendOne, retryOne } from '../admin/bulk-outcomes.ts';
import { type BulkRow, bulkRowsByFilter, bulkRowsByIds, formatFiscalNumber } from '../documents/store/index.ts';
import { render } from '../messages/catalogue.ts';
import { message } from '../messages/message.ts';
import { writePdfsZip } from '../reports/pdfs-zip.ts';
import {
  type CliContext,
  CliInputError,
  type CliIo,
  EXIT_FAILED,
  EXIT_OK,
  type OpenContext,
  normalizeShopDomain,
  withContext,
} from './cli-context.ts';

/** The list's filters as `invoices list` takes them. */
export const FILTER_OPTIONS = ['shop', 'status', 'kind', 'from', 'to', 'search'] as const;

/** A selection: ids as given, or the filters (every shop's documents without --shop). */
export type CliSelection = { ids: string[] } | { shop: string | undefined; filters: BulkFilters };

/** Documents a filter may select from the CLI at once (the page's limit is 500; an operator may need a whole day). */
export const MAX_CLI_DOCUMENTS = 10_000;

export function hasFilters(values: Record<string, string>): boolean {
  return FILTER_OPTIONS.some((o) => values[o] !== undefined);
}

/** `--status`, `--kind`, `--from`, `--to`, `--search`, `--shop` as the list's filters; bad values are exit 2. */
export function cliFilters(
  values: Record<string, string>,
  parse: { status(v: Record<string, string>): DocumentStatus | undefined; kind(v: Record<string, string>): DocumentKind | undefined },
): { shop: string | undefined; filters: BulkFilters } {
  let shop: string | undefined;
  if (values['shop'] !== undefined) {
    shop = normalizeShopDomain(values['shop']);
    if (!shop) throw new CliInputError("--shop must be the store's myshopify.com domain, e.g. tienda.myshopify.com");
  }
  const date = (name: 'from' | 'to') => {
    const given = values[name];
    if (given === undefined) return undefined;
    const parsed = calendarDate.safeParse(given);
    if (!parsed.success) throw new CliInputError(`--${name} ${parsed.error.issues[0]?.message ?? 'must be a date like 2026-03-01'}`);
    return parsed.data;
  };
  const from = date('from');
  const to = date('to');
  if (from && to && from > to) throw new CliInputError('--to must not be before --from');
  const search = values['search']?.trim();
  if (search !== undefined && (search.length > 100 || /\p{Cc}/u.test(search)))
    throw new CliInputError('--search must be at most 100 characters, without control characters');
  return { shop, filters: { status: parse.status(values), kind: parse.kind(values), from, to, q: search || undefined } };
}

/** Ids as `invoices list` prints them (UUIDs); exit 2 naming the first that is not one. */
export function cliIds(positionals: readonly string[]): string[] {
  const bad = positionals.find((p) => !isUuid(p));
  if (bad !== undefined) throw new CliInputError('each invoice id must be a UUID, as `invoices list` prints it');
  return [...new Set(positionals.map((p) => p.toLowerCase()))];
}

async function selectedRows(ctx: CliContext, sel: CliSelection): Promise<{ rows: BulkRow[]; missing: string[] }> {
  const db = ctx.database.db;
  if ('ids' in sel) {
    const rows = await bulkRowsByIds(db, sel.ids);
    const found = new Set(rows.map((r) => r.id));
    return { rows, missing: sel.ids.filter((i) => !found.has(i)) };
  }
  const rows = await bulkRowsByFilter(db, documentFilter(sel.shop, sel.filters), MAX_CLI_DOCUMENTS + 1);
  if (rows.length > MAX_CLI_DOCUMENTS)
    throw new CliInputError(`more than ${MAX_CLI_DOCUMENTS} documents match; narrow the filters (--shop, --status, --kind, --from, --to)`);
  return { rows, missing: [] };
}

const KIND = { invoice: 'invoice', credit_note: 'credit note' } as const;

/** "invoice 0f…  tienda.myshopify.com #1001  0000-001-0000000007" */
function named(row: BulkRow): string {
  const number = row.fiscalNumber === null ? '-' : formatFiscalNumber(row);
  return `${KIND[row.kind]} ${row.id}  ${row.shop} ${row.orderName || row.orderGid}  ${number}`;
}

interface BulkCommand {
  name: 'retry' | 'resend';
  /** Past tense for the lines: "retried", "queued". */
  done: string;
  act(ctx: CliContext, row: BulkRow): Promise<BulkOutcome>;
  /** What a done line adds. */
  said(outcome: BulkOutcome & { done: true }, row: BulkRow): string;
}

export const BULK_RETRY: BulkCommand = {
  name: 'retry',
  done: 'retried',
  act: (ctx, row) => retryOne(ctx.database.db, row),
  said: (_o, row) => (row.status === 'failed' || row.status === 'needs_attention' ? 'back in the queue' : 'due now'),
};

export const BULK_RESEND: BulkCommand = {
  name: 'resend',
  done: 'resent',
  // The demo's app sends through its own mail catcher; otherwise the app needs SMTP, as configured here.
  act: (ctx, row) => resendOne(ctx.database.db, row, ctx.config.mail !== undefined || ctx.config.demo),
  said: (o) => (o.queued ? 'e-mail queued; the running app sends it' : 'an e-mail was already waiting; nothing more queued'),
};

/** Run `command` on each selected document; retry asks first on a terminal when more than one (unless --yes). */
export async function runBulk(command: BulkCommand, sel: CliSelection, yes: boolean, io: CliIo, open: OpenContext): Promise<number> {
  return withContext(open, io, async (ctx) => {
    const { rows, missing } = await selectedRows(ctx, sel);
    if (rows.length === 0 && missing.length === 0) {
      io.out('No documents match.');
      return EXIT_OK;
    }
    if (command.name === 'retry' && rows.length > 1 && !yes && io.confirm) {
      const question = `Retry ${rows.length} documents: those stopped are sent to the gateway again, and those authorized are issued. Go on? [y/N] `;
      if (!(await io.confirm(question))) {
        io.out('Nothing retried.');
        return EXIT_FAILED;
      }
    }
    let done = 0;
    const refused = missing.length;
    for (const id of missing) io.out(`refused  ${id}  ${render(message('bulk_not_found'), 'en')}`);
    let refusedHere = 0;
    for (const row of rows) {
      const outcome = await command.act(ctx, row);
      if (outcome.done) {
        done++;
        io.out(`${command.done.padEnd(7)}  ${named(row)}  ${command.said(outcome, row)}`);
      } else {
        refusedHere++;
        io.out(`refused  ${named(row)}  ${render(outcome.reason, 'en')}`);
      }
    }
    const total = refused + refusedHere;
    io.out(`${done} ${command.done}, ${total} refused (of ${rows.length + missing.length}).`);
    return total > 0 ? EXIT_FAILED : EXIT_OK;
  });
}

/** `invoices pdfs`: the selected documents' PDFs in one ZIP at `out`; exit 1 when any had none (named in the ZIP). */
export async function runPdfs(sel: CliSelection, out: string, io: CliIo, open: OpenContext): Promise<number> {
  return withContext(open, io, async (ctx) => {
    const { rows, missing } = await selectedRows(ctx, sel);
    const zipped = rows.filter((r) => r.hasPdf);
    const noPdf = render(message('bulk_no_pdf'), 'en');
    const leftOut = [
      ...missing.map((id) => ({ id, order: null, fiscalNumber: null, reason: render(message('bulk_not_found'), 'en') })),
      ...rows
        .filter((r) => !r.hasPdf)
        .map((r) => ({
          id: r.id,
          order: r.orderName,
          fiscalNumber: r.fiscalNumber === null ? null : formatFiscalNumber(r),
          reason: noPdf,
        })),
    ];
    for (const l of leftOut) io.out(`left out  ${l.id}  ${l.order ?? ''}  ${l.reason}`);
    if (zipped.length === 0) {
      io.out(rows.length + missing.length === 0 ? 'No documents match; no file written.' : 'None has a PDF; no file written.');
      return EXIT_FAILED;
    }
    const note =
      leftOut.length === 0
        ? undefined
        : leftOutNote(
            leftOut.map((l) => ({ ...l, kind: null, code: '' })),
            'en',
          );
    // Written beside, then renamed: a failure never leaves a short ZIP under the name asked for.
    const partial = `${out}.partial`;
    try {
      await writePdfsZip(ctx.database.db, zipped, fs.createWriteStream(partial, { mode: 0o600 }), note);
      fs.renameSync(partial, out);
    } catch (error) {
      fs.rmSync(partial, { force: true });
      throw error;
    }
    io.out(`${zipped.length} PDF${zipped.length === 1 ? '' : 's'} written to ${out}, ${leftOut.length} left out.`);
    return leftOut.length > 0 ? EXIT_FAILED : EXIT_OK;
  });
}
