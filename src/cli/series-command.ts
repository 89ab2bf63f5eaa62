// `npm run cli -- series list|set-next`: a shop's number series (docs/series.md), one per environment, branch, billing
// point and document type: where each stands, its gaps and why, and where a series continues (only forward).
import os from 'node:os';
import CODES from '../../mappers/fiscal/data/dgi-codes.json' with { type: 'json' };
import { type SeriesSummary, listSeries, setNextNumber } from '../documents/store/series-statements.ts';
import { gapReasonText, refusalText, seriesName } from '../documents/series-text.ts';
import { billingPointSchema, branchCodeSchema } from '../shops/shop-settings.ts';
import {
  CliFailure,
  CliInputError,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  formatTable,
  openCliContext,
  parseCommandArgs,
  processIo,
  requireShop,
  runSubcommand,
  withContext,
} from './cli-context.ts';

const SET_NEXT =
  'series set-next --shop <domain> --environment pruebas|produccion --branch <code> --point <point> --type <type> --next <number>';

export const USAGE = [
  'usage:',
  '  npm run cli -- series list --shop <domain> [--json]     every series: last number used, next number, gaps and why',
  `  npm run cli -- ${SET_NEXT}`,
  '      where a series continues (only forward; e.g. after the last number of the system used before)',
].join('\n');

export async function run(args: string[]): Promise<number> {
  return runSeries(args, processIo, () => openCliContext());
}

export async function runSeries(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  return runSubcommand(io, 'series', args, USAGE, open, { list, 'set-next': setNext });
}

/**
 * The JSON of `series list --json`, one object per series: the words of the command's flags (branch, point, type,
 * next), and the settings' and the admin API's names for the same values (branchCode, billingPoint, documentType,
 * nextNumber), so a script may read either.
 */
export function seriesJson(s: SeriesSummary) {
  return {
    environment: s.environment,
    branch: s.branchCode,
    point: s.billingPoint,
    type: s.documentType,
    lastUsed: s.lastUsed,
    next: s.nextNumber,
    gaps: s.gaps.map((g) => ({ ...g.reason, from: g.from, to: g.to, reason: gapReasonText(g.reason) })),
    branchCode: s.branchCode,
    billingPoint: s.billingPoint,
    documentType: s.documentType,
    nextNumber: s.nextNumber,
  };
}

async function list(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'series list --shop <domain> [--json]';
  const { values, flags } = parseCommandArgs(args, { values: ['shop'], flags: ['json'] }, usage);
  const shop = requireShop(values, usage);
  return withContext(open, io, async (ctx) => {
    if (!(await ctx.shops.get(shop))) throw new CliFailure(`shop ${shop} is not known here`);
    const series = await listSeries(ctx.database.db, shop);
    if (flags.has('json')) {
      io.out(JSON.stringify(series.map(seriesJson), null, 2));
      return EXIT_OK;
    }
    if (series.length === 0) {
      io.out(`No series yet for ${shop}: each starts at 1 with its first document (or where set-next puts it).`);
      return EXIT_OK;
    }
    const rows = series.map((s) => [
      s.environment,
      s.branchCode,
      s.billingPoint,
      s.documentType,
      s.lastUsed === null ? '-' : String(s.lastUsed),
      String(s.nextNumber),
      s.gaps.length === 0 ? 'none' : String(s.gaps.reduce((n, g) => n + g.to - g.from + 1, 0)),
    ]);
    for (const line of formatTable(['ENVIRONMENT', 'BRANCH', 'POINT', 'TYPE', 'LAST USED', 'NEXT', 'GAPS'], rows)) io.out(line);
    for (const s of series) {
      for (const g of s.gaps) {
        io.out(`  ${seriesName(s)}: ${g.from === g.to ? g.from : `${g.from}–${g.to}`} ${gapReasonText(g.reason)}`);
      }
    }
    return EXIT_OK;
  });
}

/** Who moved a series from the CLI: the operator's login on this machine. */
function operator(): string {
  try {
    return `cli:${os.userInfo().username}`;
  } catch {
    return 'cli';
  }
}

async function setNext(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const { values } = parseCommandArgs(args, { values: ['shop', 'environment', 'branch', 'point', 'type', 'next'] }, SET_NEXT);
  const shop = requireShop(values, SET_NEXT);
  const key = seriesKeyOf(values);
  const nextText = values['next'];
  if (nextText === undefined) throw new CliInputError(`--next is required (${SET_NEXT})`);
  if (!/^[1-9]\d{0,9}$/.test(nextText)) throw new CliInputError('--next must be a whole number from 1 to 9999999999');
  const next = Number(nextText);
  return withContext(open, io, async (ctx) => {
    if (!(await ctx.shops.get(shop))) throw new CliFailure(`shop ${shop} is not known here`);
    const outcome = await setNextNumber(ctx.database.db, { shop, ...key }, next, operator());
    const name = seriesName(key);
    switch (outcome.kind) {
      case 'refused':
        throw new CliInputError(`refused, nothing changed: ${refusalText(outcome)} in series ${name}`);
      case 'unchanged':
        io.out(`Series ${name} already continues at ${outcome.next}: nothing changed.`);
        return EXIT_OK;
      case 'set':
        io.out(`Series ${name}: the next number is ${outcome.to} (it was ${outcome.from}). Recorded as moved by ${operator()}.`);
        return EXIT_OK;
    }
  });
}

function seriesKeyOf(values: Record<string, string>) {
  const environment = values['environment'];
  if (environment !== 'pruebas' && environment !== 'produccion')
    throw new CliInputError(`--environment must be "pruebas" or "produccion" (${SET_NEXT})`);
  const branch = branchCodeSchema.safeParse(values['branch'] ?? '');
  if (!branch.success) throw new CliInputError('--branch must be 4 letters or digits ("0000" is the head office)');
  const point = billingPointSchema.safeParse(values['point'] ?? '');
  if (!point.success) throw new CliInputError('--point must be 3 digits, not 000');
  const type = values['type'] ?? '';
  if (!Object.hasOwn(CODES.typeDocument, type)) {
    throw new CliInputError(`--type must be a DGI document type: ${Object.keys(CODES.typeDocument).sort().join(', ')}`);
  }
  return { environment, branchCode: branch.data, billingPoint: point.data, documentType: type } as const;
}
