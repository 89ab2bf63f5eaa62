// `npm run cli -- shops add|configure|list`: shops without OAuth (a custom app's Admin API token) and
// their settings, for operators. Tokens and credentials are stored encrypted and never printed.
import { render } from '../messages/catalogue.ts';
import { Session } from '@shopify/shopify-api';
import { sessions as sessionsTable } from '../db/schema.ts';
import type { EncryptedSessionStorage } from '../shopify/session-storage.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { describeIssues, settingsInputSchema } from '../shops/shop-settings.ts';
import {
  type CliContext,
  CliFailure,
  CliInputError,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  formatTable,
  openCliContext,
  parseCommandArgs,
  processIo,
  readJsonFile,
  requireShop,
  runSubcommand,
  withContext,
} from './cli-context.ts';

export const USAGE = [
  'usage:',
  '  npm run cli -- shops add --shop <domain> --access-token <token|->     a custom app\'s store ("-" reads the token from stdin)',
  "  npm run cli -- shops configure --shop <domain> --file <settings.json>  replace the shop's settings (see docs/merchants.md)",
  '  npm run cli -- shops list [--json]',
].join('\n');

/** Scopes a custom app needs; its Admin API token does not say which it has. */
export const CUSTOM_APP_SCOPES = 'read_orders,write_orders';

/** The id @shopify/shopify-api gives a shop's offline session (`shopify.session.getOfflineId`). */
export function offlineSessionId(shop: string): string {
  return `offline_${shop}`;
}

export async function run(args: string[]): Promise<number> {
  return runShops(args, processIo, () => openCliContext());
}

export async function runShops(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  return runSubcommand(io, 'shops', args, USAGE, open, { add, configure, list });
}

async function add(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const { values } = parseCommandArgs(args, { values: ['shop', 'access-token'] }, 'shops add --shop <domain> --access-token <token|->');
  const shop = requireShop(values, 'shops add --shop <domain> --access-token <token|->');
  const given = values['access-token'];
  if (given === undefined)
    throw new CliInputError(
      '--access-token is required (the Admin API access token of the store\'s custom app, or "-" to read it from stdin)',
    );
  const token = given === '-' ? (await io.stdin()).trim() : given.trim();
  if (!/^[\x21-\x7e]{16,}$/.test(token)) {
    throw new CliInputError(
      "--access-token is not an Admin API access token (expected the shpat_… token from the custom app's API credentials)",
    );
  }
  return withContext(open, io, async (ctx) => {
    const replaced = await addCustomAppShop(ctx.sessions, ctx.shops, shop, token);
    io.out(`Shop ${shop} added as a custom app: access token stored encrypted${replaced ? ' (it replaces the access the shop had)' : ''}.`);
    const settings = await ctx.shops.get(shop);
    if (!settings?.enabled)
      io.out(`Invoicing is off until the settings are complete: npm run cli -- shops configure --shop ${shop} --file <settings.json>`);
    return EXIT_OK;
  });
}

/** Store a custom app's static token as the shop's offline session and create its settings row. True if it replaced a session. */
export async function addCustomAppShop(
  sessions: EncryptedSessionStorage,
  shops: ShopRepository,
  shop: string,
  accessToken: string,
): Promise<boolean> {
  const id = offlineSessionId(shop);
  const existing = await sessions.loadSession(id);
  // No expiry and no refresh token: a custom app's Admin API token lasts until the app is uninstalled.
  await sessions.storeSession(new Session({ id, shop, state: 'custom-app', isOnline: false, accessToken, scope: CUSTOM_APP_SCOPES }));
  await shops.ensureInstalled(shop);
  return existing !== undefined;
}

async function configure(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'shops configure --shop <domain> --file <settings.json>';
  const { values } = parseCommandArgs(args, { values: ['shop', 'file'] }, usage);
  const shop = requireShop(values, usage);
  const file = values['file'];
  if (file === undefined) throw new CliInputError(`--file is required (${usage})`);
  // Unknown top-level keys are refused: a misspelt "enviroment" must not silently fall back to a default.
  const parsed = settingsInputSchema.strict().safeParse(readJsonFile(file, 'settings'));
  if (!parsed.success) {
    throw new CliInputError(
      `the settings file ${file} is not valid:\n${describeIssues(parsed.error)
        .map((p) => `  - ${p}`)
        .join('\n')}`,
    );
  }
  return withContext(open, io, async (ctx) => {
    const before = await ctx.shops.get(shop);
    if (!before)
      throw new CliFailure(
        `shop ${shop} is not known here: add it first (npm run cli -- shops add --shop ${shop} --access-token …) or install the app from Shopify`,
      );
    const saved = await ctx.shops.saveSettings(shop, parsed.data);
    if (!saved.ok) throw new CliFailure(`settings not saved:\n${saved.problems.map((p) => `  - ${p}`).join('\n')}`);
    const after = (await ctx.shops.get(shop))!;
    io.out(`Settings saved for ${shop}.`);
    io.out(`  environment:   ${after.settings.environment}${switched(before.settings.environment, after.settings.environment)}`);
    io.out(`  branch, point: ${after.settings.branchCode}, ${after.settings.billingPoint}`);
    const located = Object.entries(after.settings.locations);
    if (located.length > 0) io.out(`  locations:     ${located.map(([id, p]) => `${id} → ${p.branchCode}, ${p.billingPoint}`).join('; ')}`);
    io.out(`  credentials:   ${after.credentials ? (parsed.data.credentials ? 'set (new)' : 'set (unchanged)') : 'not set'}`);
    io.out(
      `  invoicing:     ${after.enabled ? 'enabled' : 'disabled'}${after.installed ? '' : ' (the app is uninstalled from this shop)'}`,
    );
    if (before.pausedReason) io.out('  The credentials pause is lifted: waiting invoices continue.');
    return EXIT_OK;
  });
}

async function list(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const { flags } = parseCommandArgs(args, { flags: ['json'] }, 'shops list [--json]');
  return withContext(open, io, async (ctx) => {
    const shops = await ctx.shops.list();
    const access = await accessByShop(ctx);
    const rows = shops.map((s) => ({ ...s, access: access.get(s.shop) ?? 'none' }));
    if (flags.has('json')) {
      io.out(JSON.stringify(rows, null, 2));
      return EXIT_OK;
    }
    if (rows.length === 0) {
      io.out("No shops yet: install the app from Shopify, or add a custom app's store with `shops add`.");
      return EXIT_OK;
    }
    const yes = (b: boolean) => (b ? 'yes' : 'no');
    for (const line of formatTable(
      ['SHOP', 'INSTALLED', 'ENABLED', 'ENVIRONMENT', 'ACCESS', 'PAUSED'],
      rows.map((r) => [
        r.shop,
        yes(r.installed),
        yes(r.enabled),
        r.environment,
        r.access,
        r.pausedReason ? render(r.pausedReason, 'en') : '-',
      ]),
    )) {
      io.out(line);
    }
    return EXIT_OK;
  });
}

/** How the app reaches each shop's Admin API, read without decrypting anything. */
async function accessByShop(ctx: CliContext): Promise<Map<string, string>> {
  const rows = await ctx.database.db
    .select({ id: sessionsTable.id, shop: sessionsTable.shop, expires: sessionsTable.expires, refresh: sessionsTable.refreshTokenEnc })
    .from(sessionsTable);
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.id !== offlineSessionId(r.shop)) continue;
    out.set(r.shop, r.refresh ? 'oauth (expiring token)' : r.expires ? 'oauth (token expires)' : 'static token');
  }
  return out;
}

/** What a change of environment means, said once it is saved (docs/series.md: test and production apart). */
function switched(before: string, after: string): string {
  if (before === after) return '';
  return after === 'produccion'
    ? ' (changed from pruebas: from now on documents are fiscally valid before the DGI, numbered in the production series; `series list` shows where each starts)'
    : ' (changed from produccion: from now on documents go to the test environment and are not fiscally valid)';
}
