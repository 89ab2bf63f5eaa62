// `npm run cli -- …` in the test's process, against a harness's running app: its configuration, database
// and key, as the command would open them beside the deployed app.
import { randomBytes } from 'node:crypto';
import type { CliContext, CliIo, OpenContext } from '../../src/cli/cli-context.ts';
import { loadConfig } from '../../src/config/env.ts';
import type { Database } from '../../src/db/database.ts';
import { silentLogger } from '../../src/logger.ts';
import { createSecretBox } from '../../src/shops/secret-box.ts';
import { ShopRepository } from '../../src/shops/shop-repository.ts';
import { EncryptedSessionStorage } from '../../src/shopify/session-storage.ts';
import { runInvoices } from '../../src/cli/invoices-command.ts';
import type { Harness } from '../../sim/harness/harness.ts';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

/** What a CLI command opens beside `h`'s running app: its configuration, database and key. Closing it leaves the app open. */
export function harnessContext(h: Harness): OpenContext {
  return async () => ({
    config: h.app.config,
    logger: h.app.logger,
    database: h.app.database,
    box: h.app.box,
    shops: h.app.shops,
    sessions: h.app.sessions,
    newKeyFile: undefined,
    close: async () => {},
  });
}

/** The invoices command on `h`'s app: each call's exit code and the lines it printed. */
export function invoicesCli(h: Harness): (...args: string[]) => Promise<CliRun> {
  const open = harnessContext(h);
  return async (...args) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => '' };
    return { code: await runInvoices(args, io, open), out, err };
  };
}

/** What a CLI command opens, on `database` with a fresh key and `shop` installed (the test closes the database). */
export async function cliContextOn(database: Database, shop: string): Promise<CliContext> {
  const box = createSecretBox(randomBytes(32));
  const shops = new ShopRepository(database.db, box);
  await shops.ensureInstalled(shop);
  return {
    config: loadConfig({ NODE_ENV: 'test' }),
    logger: silentLogger,
    database,
    box,
    shops,
    sessions: new EncryptedSessionStorage(database.db, box),
    newKeyFile: undefined,
    close: async () => {},
  };
}
