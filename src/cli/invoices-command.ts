// `npm run cli -- invoices list|show|retry|resend`: read invoices and credit notes, put failed ones back in the queue,
// e-mail one to its buyer again. The running app's worker (or the next start) picks up what is queued here.
import { formatCents } from '../../mappers/fiscal/money.ts';
import { isRetryableByHand, reasonFor } from '../admin/document-view.ts';
import { resendDocument } from '../buyer-email/resend.ts';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES, type DocumentKind, RETRYABLE_STATUSES, type RetryableStatus } from '../db/document-state.ts';
import { findDocument, formatFiscalNumber, listDocuments, retryDocuments, retryShopDocument } from '../documents/store/index.ts';
import { render } from '../messages/catalogue.ts';
import {
  CliFailure,
  CliInputError,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  formatTable,
  normalizeShopDomain,
  openCliContext,
  parseCommandArgs,
  processIo,
  requireDocumentId,
  runSubcommand,
  withContext,
} from './cli-context.ts';
import { correctInvoice, reinvoiceInvoice } from './invoices-correct-command.ts';
import { documentFilter } from '../admin/bulk-selection.ts';
import {
  BULK_RESEND,
  BULK_RETRY,
  type CliSelection,
  FILTER_OPTIONS,
  cliFilters,
  cliIds,
  hasFilters,
  runBulk,
  runPdfs,
} from './invoices-bulk-command.ts';
import { show } from './invoices-show-command.ts';
import { KIND_WORDS, lastError, oneLine, shopStates, summary } from './invoice-output.ts';
import { PANAMA_LABEL, STATUS_WORDS, panamaTime, statusFromWord, statusWord } from './document-words.ts';

export const USAGE = [
  'usage:',
  '  npm run cli -- invoices list [<filters>] [--limit <n>] [--json]',
  '  npm run cli -- invoices show <invoice id> [--json]',
  '  npm run cli -- invoices retry <invoice id> [<invoice id> …] | <filters> [--yes]',
  '  npm run cli -- invoices retry --failed [--status failed|needs_attention] [--shop <domain>]',
  '  npm run cli -- invoices resend <invoice id> [<invoice id> …] | <filters>',
  '  npm run cli -- invoices pdfs <invoice id> [<invoice id> …] | <filters> --out <file.zip>',
  '  npm run cli -- invoices correct <invoice id> --file <client.json> | --clear',
  '  npm run cli -- invoices reinvoice <invoice id> --file <client.json>',
  'filters: [--shop <domain>] [--status <status>] [--kind invoice|credit_note] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--search <order or number>]',
  'several documents: one line each and a summary; exit 1 when any was refused. retry asks first on a terminal (--yes does not)',
  'statuses: Queued (pending), Waiting (waiting), Authorized (completed), "Needs attention" (needs_attention), Failed (failed), Skipped (skipped)',
  "invoices show lists an invoice's credit notes, and a credit note's invoice, reference and refund",
  `times: dd/mm/aaaa hh:mm, ${PANAMA_LABEL} time (UTC-5); --json gives UTC`,
].join('\n');

const RETRYABLE: readonly string[] = RETRYABLE_STATUSES;

export async function run(args: string[]): Promise<number> {
  return runInvoices(args, processIo, () => openCliContext());
}

export async function runInvoices(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  return runSubcommand(io, 'invoices', args, USAGE, open, {
    list,
    show,
    retry,
    resend,
    pdfs,
    correct: correctInvoice,
    reinvoice: reinvoiceInvoice,
  });
}

function optionalShop(values: Record<string, string>): string | undefined {
  if (values['shop'] === undefined) return undefined;
  const shop = normalizeShopDomain(values['shop']);
  if (!shop) throw new CliInputError("--shop must be the store's myshopify.com domain, e.g. tienda.myshopify.com");
  return shop;
}

async function list(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage =
    'invoices list [--shop <domain>] [--status <status>] [--kind invoice|credit_note] [--from/--to YYYY-MM-DD] [--search <text>] [--limit <n>] [--json]';
  const { values, flags } = parseCommandArgs(args, { values: [...FILTER_OPTIONS, 'limit'], flags: ['json'] }, usage);
  const { shop, filters } = cliFilters(values, FILTER_PARSERS);
  const { kind } = filters;
  const where = documentFilter(shop, filters);
  const limit = values['limit'] === undefined ? 50 : Number(values['limit']);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliInputError('--limit must be a whole number from 1 to 10000');

  return withContext(open, io, async (ctx) => {
    const { rows } = await listDocuments(ctx.database.db, { ...where, after: undefined, limit });
    if (flags.has('json')) {
      io.out(JSON.stringify(rows.map(summary), null, 2));
      return EXIT_OK;
    }
    if (rows.length === 0) {
      io.out(kind === 'credit_note' ? 'No credit notes match.' : 'No invoices match.');
      return EXIT_OK;
    }
    const states = await shopStates(ctx, rows);
    const table = formatTable(
      ['ID', 'SHOP', 'ORDER', 'KIND', 'STATUS', 'STEP', 'NUMBER', 'TOTAL', `CREATED (${PANAMA_LABEL.toUpperCase()})`, 'LAST ERROR'],
      rows.map((r) => [
        r.id,
        r.shop,
        r.orderName,
        KIND_WORDS[r.kind],
        statusWord({ ...r, reason: reasonFor(r, states.get(r.shop)!) }),
        r.step,
        r.fiscalNumber === null ? '-' : formatFiscalNumber(r),
        `${formatCents(r.totalCents)} ${r.currency}`,
        panamaTime(r.createdAt),
        oneLine(lastError(r), 60),
      ]),
    );
    for (const line of table) io.out(line);
    return EXIT_OK;
  });
}

async function retry(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage =
    'invoices retry <invoice id> [<invoice id> …] | invoices retry <filters> [--yes] | invoices retry --failed [--status failed|needs_attention] [--shop <domain>]';
  const { positionals, flags, values } = parseCommandArgs(
    args,
    { flags: ['failed', 'yes'], values: [...FILTER_OPTIONS], positionals: MAX_IDS },
    usage,
  );
  if (flags.has('failed')) {
    if (positionals.length > 0) throw new CliInputError(`give invoice ids, filters or --failed, one of them (${usage})`);
    const other = FILTER_OPTIONS.filter((o) => o !== 'shop' && o !== 'status' && values[o] !== undefined);
    if (other.length > 0) throw new CliInputError(`--failed takes only --status and --shop (${usage})`);
  } else {
    if (positionals.length === 0 && !hasFilters(values)) throw new CliInputError(`give invoice ids, filters or --failed (${usage})`);
    const several = selectionOf(positionals, values, usage);
    if (several) return runBulk(BULK_RETRY, several, flags.has('yes'), io, open);
  }
  const shop = optionalShop(values);

  if (flags.has('failed')) {
    // Like the page's button: failed and needing attention, unless --status names one of them.
    const status = optionalStatus(values, RETRYABLE_STATUSES);
    const statuses: RetryableStatus[] = status ? [status] : ['failed', 'needs_attention'];
    return withContext(open, io, async (ctx) => {
      const count = await retryDocuments(ctx.database.db, { statuses, ...(shop ? { shop } : {}) });
      const what = statuses.map((s) => STATUS_WORDS[s].toLowerCase()).join(' or ');
      io.out(`${count} invoice${count === 1 ? '' : 's'} (${what}) back in the queue${shop ? ` for ${shop}` : ''}.`);
      return EXIT_OK;
    });
  }

  const id = requireDocumentId(positionals, usage);
  return withContext(open, io, async (ctx) => {
    const row = await findDocument(ctx.database.db, id);
    if (!row) throw new CliFailure(`no invoice ${id}`);
    const what = row.kind === 'credit_note' ? 'credit note' : 'invoice';
    // Like the page's button: failed and needing attention go back to the queue; waiting or retrying ones go now.
    if (!isRetryableByHand(row)) {
      throw new CliFailure(
        `${what} ${id} is ${statusWord({ ...row, reason: null })}: only failed, needs-attention, waiting or retrying documents can be retried`,
      );
    }
    await retryShopDocument(ctx.database.db, row.shop, id);
    const named = `${what === 'invoice' ? 'Invoice' : 'Credit note'} ${id} (${row.shop} ${row.orderName || row.orderGid})`;
    io.out(RETRYABLE.includes(row.status) ? `${named} is back in the queue.` : `${named} is due now.`);
    const shopRow = await ctx.shops.get(row.shop);
    if (!shopRow?.installed) io.err(`warning: the app is uninstalled from ${row.shop}; the ${what} waits until it is installed again.`);
    else if (!shopRow.enabled) io.err(`warning: invoicing is disabled for ${row.shop}; the ${what} waits until it is enabled.`);
    else if (shopRow.pausedReason)
      io.err(`warning: ${row.shop} is paused (${render(shopRow.pausedReason, 'en')}); save its settings to resume.`);
    return EXIT_OK;
  });
}

async function resend(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices resend <invoice id> [<invoice id> …] | invoices resend <filters>';
  const { positionals, values } = parseCommandArgs(args, { values: [...FILTER_OPTIONS], positionals: MAX_IDS }, usage);
  const several = selectionOf(positionals, values, usage);
  if (several) return runBulk(BULK_RESEND, several, true, io, open);
  const id = requireDocumentId(positionals, usage);
  return withContext(open, io, async (ctx) => {
    const row = await findDocument(ctx.database.db, id);
    if (!row) throw new CliFailure(`no invoice ${id}`);
    // The demo's app sends through its own mail catcher; otherwise the app needs SMTP, as configured here.
    const outcome = await resendDocument(ctx.database.db, row, ctx.config.mail !== undefined || ctx.config.demo);
    if (!outcome.ok) throw new CliFailure(`invoice ${id} cannot be e-mailed: ${outcome.error}`);
    io.out(
      outcome.queued
        ? `The e-mail of invoice ${id} (${row.shop} ${row.orderName}) to ${outcome.email.recipient} is queued; the running app sends it.`
        : `An e-mail of invoice ${id} to ${outcome.email.recipient} is already waiting to be sent; nothing more queued.`,
    );
    return EXIT_OK;
  });
}

/** Ids a command takes at once (a shell line holds some thousands). */
const MAX_IDS = 10_000;

const FILTER_PARSERS = { status: (v: Record<string, string>) => optionalStatus(v, DOCUMENT_STATUSES), kind: optionalKind };

/**
 * Several ids, or the list's filters: a bulk selection. One id alone, and nothing else, is the single action as it
 * always was (undefined here). Ids and filters together are exit 2.
 */
function selectionOf(positionals: readonly string[], values: Record<string, string>, usage: string): CliSelection | undefined {
  const filtered = hasFilters(values);
  if (positionals.length > 0 && filtered) throw new CliInputError(`give invoice ids or filters, not both (${usage})`);
  if (filtered) return cliFilters(values, FILTER_PARSERS);
  if (positionals.length > 1) return { ids: cliIds(positionals) };
  if (positionals.length === 0) throw new CliInputError(`give invoice ids or filters (${usage})`);
  return undefined;
}

async function pdfs(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices pdfs <invoice id> [<invoice id> …] | invoices pdfs <filters>  --out <file.zip>';
  const { positionals, values } = parseCommandArgs(args, { values: [...FILTER_OPTIONS, 'out'], positionals: MAX_IDS }, usage);
  const out = values['out'];
  if (out === undefined || out.trim() === '') throw new CliInputError(`--out <file.zip> is required (${usage})`);
  const { out: _out, ...filterValues } = values;
  const selection = selectionOf(positionals, filterValues, usage) ?? { ids: cliIds(positionals) };
  return runPdfs(selection, out, io, open);
}

/** `--status` as a stored status among `allowed` (the word or the value); undefined when not given. */
function optionalStatus<S extends string>(values: Record<string, string>, allowed: readonly S[]): S | undefined {
  if (values['status'] === undefined) return undefined;
  const status = statusFromWord(values['status']);
  const found = allowed.find((s) => s === status);
  if (found === undefined) {
    const words = allowed.map((s) => (Object.hasOwn(STATUS_WORDS, s) ? `${STATUS_WORDS[s as keyof typeof STATUS_WORDS]} (${s})` : s));
    throw new CliInputError(`--status must be one of ${words.join(', ')}`);
  }
  return found;
}

/** `--kind`: invoice or credit_note (also "credit note", "credit-note"); undefined when not given. */
function optionalKind(values: Record<string, string>): DocumentKind | undefined {
  if (values['kind'] === undefined) return undefined;
  const given = values['kind']
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const found = DOCUMENT_KINDS.find((k) => k === given);
  if (found === undefined) throw new CliInputError(`--kind must be one of ${DOCUMENT_KINDS.join(', ')}`);
  return found;
}
