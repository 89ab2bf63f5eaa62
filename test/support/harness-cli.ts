// `npm run cli -- invoices …` in the test's process, against a harness's running app: its configuration, database
// and key, as the command would open them beside the deployed app.
import type { CliIo, OpenContext } from '../../src/cli/cli-context.ts';
import { runInvoices } from '../../src/cli/invoices-command.ts';
import type { Harness } from '../../sim/harness/harness.ts';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

/** The invoices command on `h`'s app: each call's exit code and the lines it printed. Closing it leaves the app open. */
export function invoicesCli(h: Harness): (...args: string[]) => Promise<CliRun> {
  const open: OpenContext = async () => ({
    config: h.app.config,
    logger: h.app.logger,
    database: h.app.database,
    box: h.app.box,
    shops: h.app.shops,
    sessions: h.app.sessions,
    newKeyFile: undefined,
    close: async () => {},
  });
  return async (...args) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => '' };
    return { code: await runInvoices(args, io, open), out, err };
  };
}
