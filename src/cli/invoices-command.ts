// `npm run cli -- invoices list|show|retry|resend`: read invoices, put failed ones back in the queue, e-mail one to
// its buyer again. The running app's worker (or the next start) picks up what is queued here.
import { formatCents } from '../../mappers/money.ts';
import type { GatewayDocument } from '../../mappers/gateway-document.ts';
import { resendDocument } from '../delivery/resend.ts';
import { DOCUMENT_STATUSES, RETRYABLE_STATUSES } from '../documents/document-state.ts';
import {
  type DocumentListRow,
  findDocument,
  formatFiscalNumber,
  listDocuments,
  pdfInfo,
  retryDocuments,
} from '../documents/store/index.ts';
import { render } from '../messages/catalogue.ts';
import { asMessage } from '../messages/message.ts';
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
  runSubcommand,
  withContext,
} from './cli-context.ts';
import { correctInvoice } from './invoices-correct-command.ts';

export const USAGE = [
  'usage:',
  '  npm run cli -- invoices list [--shop <domain>] [--status <status>] [--limit <n>] [--json]',
  '  npm run cli -- invoices show <invoice id> [--json]',
  '  npm run cli -- invoices retry <invoice id>',
  '  npm run cli -- invoices retry --failed [--shop <domain>]',
  '  npm run cli -- invoices resend <invoice id>',
  '  npm run cli -- invoices correct <invoice id> --file <client.json> | --clear',
  `statuses: ${DOCUMENT_STATUSES.join(', ')}`,
].join('\n');

export const INVOICE_STATUSES = DOCUMENT_STATUSES;
const RETRYABLE: readonly string[] = RETRYABLE_STATUSES;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function run(args: string[]): Promise<number> {
  return runInvoices(args, processIo, () => openCliContext());
}

export async function runInvoices(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  return runSubcommand(io, 'invoices', args, USAGE, {
    list: (rest) => list(rest, io, open),
    show: (rest) => show(rest, io, open),
    retry: (rest) => retry(rest, io, open),
    resend: (rest) => resend(rest, io, open),
    correct: (rest) => correctInvoice(rest, io, open),
  });
}

function optionalShop(values: Record<string, string>): string | undefined {
  if (values['shop'] === undefined) return undefined;
  const shop = normalizeShopDomain(values['shop']);
  if (!shop) throw new CliInputError("--shop must be the store's myshopify.com domain, e.g. tienda.myshopify.com");
  return shop;
}

function invoiceId(positionals: string[], usage: string): string {
  const [id] = positionals;
  if (id === undefined) throw new CliInputError(`the invoice id is required (${usage})`);
  if (!UUID.test(id)) throw new CliInputError('the invoice id must be a UUID, as `invoices list` prints it');
  return id.toLowerCase();
}

async function list(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices list [--shop <domain>] [--status <status>] [--limit <n>] [--json]';
  const { values, flags } = parseCommandArgs(args, { values: ['shop', 'status', 'limit'], flags: ['json'] }, usage);
  const shop = optionalShop(values);
  const status = values['status'];
  if (status !== undefined && !(INVOICE_STATUSES as readonly string[]).includes(status)) {
    throw new CliInputError(`--status must be one of ${INVOICE_STATUSES.join(', ')}`);
  }
  const limit = values['limit'] === undefined ? 50 : Number(values['limit']);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliInputError('--limit must be a whole number from 1 to 10000');

  return withContext(open, io, async (ctx) => {
    const { rows } = await listDocuments(ctx.database.db, {
      shop,
      status: status as (typeof DOCUMENT_STATUSES)[number] | undefined,
      kind: undefined,
      from: undefined,
      before: undefined,
      search: undefined,
      after: undefined,
      limit,
    });
    if (flags.has('json')) {
      io.out(JSON.stringify(rows.map(summary), null, 2));
      return EXIT_OK;
    }
    if (rows.length === 0) {
      io.out('No invoices match.');
      return EXIT_OK;
    }
    const table = formatTable(
      ['ID', 'SHOP', 'ORDER', 'STATUS', 'STEP', 'NUMBER', 'TOTAL', 'CREATED', 'LAST ERROR'],
      rows.map((r) => [
        r.id,
        r.shop,
        r.orderName,
        r.status,
        r.step,
        r.fiscalNumber === null ? '-' : formatFiscalNumber(r),
        `${formatCents(r.totalCents)} ${r.currency}`,
        r.createdAt.toISOString().slice(0, 19).replace('T', ' '),
        oneLine(lastError(r), 60),
      ]),
    );
    for (const line of table) io.out(line);
    return EXIT_OK;
  });
}

async function show(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices show <invoice id> [--json]';
  const { positionals, flags } = parseCommandArgs(args, { flags: ['json'], positionals: 1 }, usage);
  const id = invoiceId(positionals, usage);
  return withContext(open, io, async (ctx) => {
    const row = await findDocument(ctx.database.db, id);
    if (!row) throw new CliFailure(`no invoice ${id}`);
    const pdf = await pdfInfo(ctx.database.db, id);
    const detail = {
      ...summary(row),
      documentType: row.documentType,
      attempts: row.attempts,
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
      environment: row.environment,
      qr: row.qr,
      protocol: row.protocol,
      receptionDateDgi: row.receptionDateDgi,
      authorizedAt: row.authorizedAt?.toISOString() ?? null,
      writtenBackAt: row.writtenBackAt?.toISOString() ?? null,
      // The link's token is a credential (whoever has it reads the invoice): shown only on the order itself.
      pdf: pdf ? { stored: true, ...pdf } : { stored: false },
      lastErrorKind: row.lastErrorKind,
      lastErrorCode: row.lastErrorCode,
      problems: row.problems,
      notice: row.notice,
      snapshotRedacted: row.snapshotRedacted,
      documentTotals: (row.document as GatewayDocument | null)?.totalsSubTotals ?? null,
    };
    if (flags.has('json')) {
      io.out(JSON.stringify(detail, null, 2));
      return EXIT_OK;
    }
    for (const [key, value] of Object.entries(detail)) {
      if (value === null || value === undefined) continue;
      io.out(`${`${key}:`.padEnd(19)}${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
    }
    return EXIT_OK;
  });
}

async function retry(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices retry <invoice id> | invoices retry --failed [--shop <domain>]';
  const { positionals, flags, values } = parseCommandArgs(args, { flags: ['failed'], values: ['shop'], positionals: 1 }, usage);
  const shop = optionalShop(values);
  if (flags.has('failed') === positionals.length > 0) throw new CliInputError(`give an invoice id or --failed, not both (${usage})`);
  if (!flags.has('failed') && shop) throw new CliInputError('--shop goes with --failed');

  if (flags.has('failed')) {
    return withContext(open, io, async (ctx) => {
      const count = await retryDocuments(ctx.database.db, { statuses: ['failed'], ...(shop ? { shop } : {}) });
      io.out(`${count} failed invoice${count === 1 ? '' : 's'} back in the queue${shop ? ` for ${shop}` : ''}.`);
      return EXIT_OK;
    });
  }

  const id = invoiceId(positionals, usage);
  return withContext(open, io, async (ctx) => {
    const row = await findDocument(ctx.database.db, id);
    if (!row) throw new CliFailure(`no invoice ${id}`);
    if (!RETRYABLE.includes(row.status)) {
      throw new CliFailure(`invoice ${id} is ${row.status}: only failed or needs_attention invoices can be retried`);
    }
    await retryDocuments(ctx.database.db, { ids: [id] });
    io.out(`Invoice ${id} (${row.shop} ${row.orderName}) is back in the queue.`);
    const shopRow = await ctx.shops.get(row.shop);
    if (!shopRow?.installed) io.err(`warning: the app is uninstalled from ${row.shop}; the invoice waits until it is installed again.`);
    else if (!shopRow.enabled) io.err(`warning: invoicing is disabled for ${row.shop}; the invoice waits until it is enabled.`);
    else if (shopRow.pausedReason)
      io.err(`warning: ${row.shop} is paused (${render(shopRow.pausedReason, 'en')}); save its settings to resume.`);
    return EXIT_OK;
  });
}

async function resend(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices resend <invoice id>';
  const { positionals } = parseCommandArgs(args, { positionals: 1 }, usage);
  const id = invoiceId(positionals, usage);
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

/** The last error in English (the CLI's language), from the message catalogue. */
function lastError(r: Pick<DocumentListRow, 'lastError'>): string | null {
  const m = asMessage(r.lastError);
  return m ? render(m, 'en') : null;
}

function summary(r: Omit<DocumentListRow, 'cursorAt'>) {
  return {
    id: r.id,
    kind: r.kind,
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

function oneLine(text: string | null, max: number): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
