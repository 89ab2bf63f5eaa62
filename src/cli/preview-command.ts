// `npm run cli -- preview <order.json> [--settings <file>] [--transactions <file>] [--refund <refund.json> [--credited <note.json> …]]`
// Prints the invoice document an `orders/paid` body maps to (exit 0), or the problems (exit 1); with a
// `refunds/create` body, the credit note's document instead (preview-credit-note.ts), or why there is none (exit 1).
// Bad input — a missing or unreadable file, text that is not JSON, settings that do not validate,
// wrong arguments — is one line on stderr and exit 2. Fiscal number 1, the settings' branch and
// billing point (default 0000 / 001) and the current time stand in for what the pipeline reserves.
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { type MappingSettings, mappingSettingsSchema } from '../../mappers/invoice/mapping-settings.ts';
import type { MappingProblem } from '../../mappers/mapping-problems.ts';
import { render } from '../messages/catalogue.ts';
import { message } from '../messages/message.ts';
import { numberDocument } from '../../mappers/invoice/document-numbering.ts';
import { type OrderTransaction, orderToDraft, parseOrderTransactions } from '../../mappers/invoice/order-to-document.ts';
import { parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import { shopSettingsSchema } from '../shops/shop-settings.ts';
import { CliInputError, parseCommandArgs, processIo, readJsonFile, terminalIo } from './cli-context.ts';
import { previewCreditNote } from './preview-credit-note.ts';

/** The order file's texts reach the terminal only as visible characters. */
const io = terminalIo(processIo);

export const USAGE =
  'usage: npm run cli -- preview <order.json> [--settings <file>] [--transactions <file>] [--refund <refund.json> [--credited <note.json> …]]';

/** Keys that mark a shop settings file (the `mapping` object inside it); otherwise the file is mapping settings. */
const SHOP_SETTINGS_KEYS = ['mapping', 'branchCode', 'billingPoint', 'environment', 'credentials', 'enabled'];

interface PreviewSettings {
  branchCode: string;
  billingPoint: string;
  mapping: MappingSettings;
}

export async function run(args: string[]): Promise<number> {
  try {
    const { orderFile, settingsFile, transactionsFile, refundFile, creditedFiles } = readArgs(args);
    const settings = settingsFile === undefined ? defaultSettings() : readSettings(settingsFile);
    const parsed = parseShopifyOrder(readJsonFile(orderFile, 'order'));
    if (!parsed.ok) return printProblems(ORDER_PROBLEMS, parsed.problems);
    const transactions = readTransactions(transactionsFile ?? siblingTransactions(orderFile));
    if (transactions !== undefined && !transactions.ok) return printProblems(ORDER_PROBLEMS, transactions.problems);
    const result = orderToDraft({
      order: parsed.order,
      settings: settings.mapping,
      ...(transactions?.ok ? { transactions: transactions.transactions } : {}),
    });
    if (!result.ok) return printProblems(ORDER_PROBLEMS, result.problems);
    // As the pipeline would number it: the shop's branch and billing point, number 1, now.
    const numbering = { branchCode: settings.branchCode, billingPoint: settings.billingPoint };
    const now = new Date();
    const invoice = numberDocument(result.draft, { ...numbering, fiscalNumber: 1 }, now);
    if (refundFile === undefined) return printDocument(invoice);
    const note = previewCreditNote({ order: parsed.order, invoice, refundFile, creditedFiles, numbering, mapping: settings.mapping, now });
    if (note.kind === 'problems') return printProblems(REFUND_PROBLEMS, note.problems);
    if (note.kind === 'none') {
      io.err(`No credit note to issue: ${note.reason}`);
      return 1;
    }
    return printDocument(note.document);
  } catch (error) {
    if (!(error instanceof CliInputError)) throw error;
    io.err(`preview: ${error.message}`);
    return 2;
  }
}

interface PreviewArgs {
  orderFile: string;
  settingsFile?: string;
  transactionsFile?: string;
  refundFile?: string;
  creditedFiles: string[];
}

function readArgs(args: string[]): PreviewArgs {
  const parsed = parseCommandArgs(args, { values: ['settings', 'transactions', 'refund'], lists: ['credited'], positionals: 1 }, USAGE);
  const [orderFile] = parsed.positionals;
  if (orderFile === undefined) throw new CliInputError(`missing the order file (${USAGE})`);
  const { settings, transactions, refund } = parsed.values;
  const credited = parsed.lists['credited'] ?? [];
  if (credited.length > 0 && refund === undefined) throw new CliInputError(`--credited goes with --refund (${USAGE})`);
  return {
    orderFile,
    creditedFiles: credited,
    ...(settings === undefined ? {} : { settingsFile: settings }),
    ...(transactions === undefined ? {} : { transactionsFile: transactions }),
    ...(refund === undefined ? {} : { refundFile: refund }),
  };
}

function defaultSettings(): PreviewSettings {
  const shop = shopSettingsSchema.parse({});
  return { branchCode: shop.branchCode, billingPoint: shop.billingPoint, mapping: shop.mapping };
}

/** A shop settings file (branch, billing point, `mapping`) or a mapping settings file on its own. */
function readSettings(file: string): PreviewSettings {
  const json = readJsonFile(file, 'settings');
  const isShop = typeof json === 'object' && json !== null && SHOP_SETTINGS_KEYS.some((k) => k in json);
  if (isShop) {
    const shop = shopSettingsSchema.safeParse(json);
    if (!shop.success) throw new CliInputError(`the settings file ${file} is not valid: ${describe(shop.error)}`);
    return { branchCode: shop.data.branchCode, billingPoint: shop.data.billingPoint, mapping: shop.data.mapping };
  }
  const mapping = mappingSettingsSchema.safeParse(json);
  if (!mapping.success) throw new CliInputError(`the settings file ${file} is not valid: ${describe(mapping.error)}`);
  return { ...defaultSettings(), mapping: mapping.data };
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : 'settings'}: ${i.message}`).join('; ');
}

/** `<order>.transactions.json` next to the order file, when it exists (as the fixtures are laid out). */
function siblingTransactions(orderFile: string): string | undefined {
  const sibling = orderFile.replace(/\.json$/i, '.transactions.json');
  return sibling !== orderFile && existsSync(sibling) ? sibling : undefined;
}

function readTransactions(
  file: string | undefined,
): { ok: true; transactions: OrderTransaction[] } | { ok: false; problems: MappingProblem[] } | undefined {
  if (file === undefined) return undefined;
  return parseOrderTransactions(readJsonFile(file, 'transactions'));
}

const ORDER_PROBLEMS = 'The order cannot be invoiced';
const REFUND_PROBLEMS = 'The refund cannot be credited';

function printDocument(document: unknown): number {
  io.out(JSON.stringify(document, null, 2));
  return 0;
}

function printProblems(what: string, problems: MappingProblem[]): number {
  io.err(`${what} (${problems.length} problem${problems.length === 1 ? '' : 's'}):`);
  for (const p of problems) io.err(`- ${p.code}${p.path ? ` [${p.path}]` : ''}: ${render(message(p.code, p.params), 'en')}`);
  return 1;
}
