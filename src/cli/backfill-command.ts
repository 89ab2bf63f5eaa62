// `npm run cli -- backfill`: invoice a range of past paid orders (docs/backfill.md). A dry run says what would happen;
// the run starts the shop's backfill, reads its orders itself (it holds the reader's lease, so reading goes on without
// an app worker) and shows a progress line until every document has settled; the app's worker issues them. On the
// embedded database the app cannot run meanwhile: the command stops once the orders are read and the app issues them
// when it starts. `--cancel` stops the running backfill.
import { randomBytes } from 'node:crypto';
import readline from 'node:readline/promises';
import { BackfillReadError, type DryRun, dryRunBackfill, dryRunJson } from '../backfill/backfill-dry-run.ts';
import { endSettled, readOne } from '../backfill/backfill-runner.ts';
import { type BackfillProgress, backfillProgress, cancelBackfill, checkBackfill, startBackfill } from '../backfill/backfill-service.ts';
import { backfillById } from '../backfill/backfill-store.ts';
import { grantedScopesOf } from '../admin/backfill-api.ts';
import { IntakeBatcher } from '../documents/intake-batcher.ts';
import { formatCents } from '../../mappers/fiscal/money.ts';
import { render } from '../messages/catalogue.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { adminForConfig } from '../shopify/admin-for-config.ts';
import {
  type CliContext,
  CliFailure,
  CliInputError,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  openCliContext,
  parseCommandArgs,
  processIo,
  requireShop,
  runCommand,
  terminalIo,
  withContext,
} from './cli-context.ts';

export const USAGE =
  'backfill --shop <shop> --from YYYY-MM-DD --to YYYY-MM-DD [--dry-run] [--json] [--yes]  |  backfill --shop <shop> --cancel [--json]';

export interface BackfillIo extends CliIo {
  /** Whether standard input is a terminal (then the run asks before issuing). */
  interactive?: boolean;
  ask?: (question: string) => Promise<string>;
  now?: () => Date;
  /** The Admin API (tests give the harness's); built from the configuration otherwise. */
  admin?: (ctx: CliContext) => ShopifyAdmin;
  /** How often the progress line is redrawn. */
  pollMs?: number;
}

export async function run(args: string[]): Promise<number> {
  const io: BackfillIo = {
    ...processIo,
    interactive: process.stdin.isTTY === true,
    ask: async (q) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(q);
      } finally {
        rl.close();
      }
    },
  };
  return runBackfill(args, io, () => openCliContext());
}

export async function runBackfill(args: readonly string[], given: BackfillIo, open: OpenContext): Promise<number> {
  const io: BackfillIo = { ...given, ...terminalIo(given) };
  return runCommand(io, 'backfill', async () => {
    const { values, flags } = parseCommandArgs(
      args,
      { values: ['shop', 'from', 'to'], flags: ['dry-run', 'json', 'yes', 'cancel'] },
      USAGE,
    );
    const shop = requireShop(values, USAGE);
    const json = flags.has('json');
    if (flags.has('cancel')) return withContext(open, io, (ctx) => cancel(ctx, io, shop, json));
    if (values['from'] === undefined || values['to'] === undefined) throw new CliInputError(`--from and --to are required (${USAGE})`);
    const now = (io.now ?? (() => new Date()))();
    return withContext(open, io, async (ctx) => {
      const checkDeps = { shops: ctx.shops, grantedScopes: grantedScopesOf(ctx.sessions) };
      const purpose = flags.has('dry-run') ? 'dry_run' : 'start';
      const checked = await checkBackfill(checkDeps, shop, { from: values['from'], to: values['to'] }, now, purpose);
      if (!checked.ok) {
        const text = `${checked.refusal.field && checked.refusal.field !== 'range' ? `--${checked.refusal.field}: ` : ''}${render(checked.refusal.error, 'en')}`;
        if (checked.refusal.status === 400) throw new CliInputError(text);
        throw new CliFailure(text);
      }
      const admin = adminOf(ctx, io);
      let dry: DryRun;
      try {
        dry = await dryRunBackfill({ db: ctx.database.db, admin }, shop, checked.shop.settings, checked.range);
      } catch (error) {
        if (error instanceof BackfillReadError) throw new CliFailure(`cannot read the shop's orders: ${error.message}`);
        throw error;
      }
      const figures = dryRunJson(dry, (m) => render(m, 'en'));
      if (purpose === 'dry_run') {
        if (json) io.out(JSON.stringify(figures));
        else printDryRun(io, checked.range, dry);
        return EXIT_OK;
      }
      if (!json) printDryRun(io, checked.range, dry);
      if (io.interactive && !flags.has('yes') && io.ask) {
        const answer = await io.ask(`Issue ${dry.toInvoice} invoices dated today (the moment each is sent)? [y/N] `);
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.err('nothing started');
          return EXIT_OK;
        }
      }
      const started = await startBackfill(ctx.database.db, shop, checked.range, dry.toInvoice + dry.cannotInvoice.length);
      if (!started.ok) throw new CliFailure(render(started.refusal.error, 'en'));
      const id = started.backfill.id;
      if (!json) io.err(started.attached ? `attached to the running backfill ${id}` : `backfill ${id} started`);
      const owner = `cli:${process.pid}:${randomBytes(4).toString('hex')}`;
      const db = ctx.database.db;
      await readOne(
        { db, admin, intake: new IntakeBatcher(db), logger: ctx.logger, owner, leaseMs: ctx.config.worker.leaseMs },
        () => false,
        id,
      );
      const final = await follow(ctx, io, id, json, ctx.database.kind === 'pglite');
      if (json) io.out(JSON.stringify({ ...figures, backfill: final }));
      return final.status === 'failed' ? 1 : EXIT_OK;
    });
  });
}

function adminOf(ctx: CliContext, io: BackfillIo): ShopifyAdmin {
  if (io.admin) return io.admin(ctx);
  if (!ctx.config.shopify)
    throw new CliFailure(
      'the backfill reads orders through the Admin API: set SHOPIFY_API_KEY, SHOPIFY_API_SECRET and SHOPIFY_APP_URL as for the app',
    );
  return adminForConfig(ctx.config.shopify, { config: ctx.config, db: ctx.database.db, sessions: ctx.sessions, logger: ctx.logger });
}

function printDryRun(io: CliIo, range: { from: string; to: string }, d: DryRun): void {
  io.out(`paid orders ${range.from} to ${range.to} (Panamá): ${d.orders}, total ${formatCents(d.totalCents)}`);
  io.out(`already invoiced (skipped): ${d.alreadyInvoiced}`);
  io.out(`to invoice: ${d.toInvoice} (dated the moment each is sent, not the order's date)`);
  io.out(`cannot be invoiced: ${d.cannotInvoice.length}`);
  for (const c of d.cannotInvoice) io.out(`  ${c.order}: ${render(c.reason, 'en')}`);
}

/** The progress line until every document has settled (on the embedded database: until the orders are read). */
async function follow(ctx: CliContext, io: BackfillIo, id: string, quiet: boolean, readOnly: boolean): Promise<BackfillProgress> {
  const db = ctx.database.db;
  for (;;) {
    await endSettled(db, ctx.logger);
    const row = await backfillById(db, id);
    if (!row) throw new CliFailure(`backfill ${id} is gone`);
    const p = await backfillProgress(db, row, new Date());
    if (!quiet) io.err(progressLine(p));
    if (p.status !== 'running') return p;
    if (readOnly && p.read) {
      if (!quiet)
        io.err(`${p.total} documents enqueued; the app issues them when it starts (the embedded database serves one process at a time)`);
      return p;
    }
    await new Promise((r) => setTimeout(r, io.pollMs ?? 1000));
  }
}

export function progressLine(p: BackfillProgress): string {
  const left = p.secondsLeft === null ? '…' : `${Math.floor(p.secondsLeft / 60)}m${String(p.secondsLeft % 60).padStart(2, '0')}s`;
  return `${p.status} ${p.done}/${p.total} settled · read ${p.ordersRead} orders${p.read ? '' : ' so far'} · time left ${left}`;
}

async function cancel(ctx: CliContext, io: CliIo, shop: string, json: boolean): Promise<number> {
  const cancelled = await cancelBackfill(ctx.database.db, shop);
  if (!cancelled.ok) throw new CliFailure(render(cancelled.refusal.error, 'en'));
  const p = await backfillProgress(ctx.database.db, cancelled.backfill, new Date());
  if (json) io.out(JSON.stringify({ removed: cancelled.removed, backfill: p }));
  else io.out(`backfill ${p.id} cancelled; ${cancelled.removed} documents not yet sent removed; ${p.total} stay and go on`);
  return EXIT_OK;
}
