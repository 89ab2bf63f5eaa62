// `npm run cli -- <command> [args…]`: a tiny dispatcher. Each command is a module exporting
// `run(args): Promise<number>` (the exit code); add one by adding a line to COMMANDS.

export interface CliCommand {
  run(args: string[]): Promise<number>;
}

interface CommandEntry {
  /** One line for the usage text: arguments, then what it does. */
  summary: string;
  /** Loaded on use, so a command's dependencies cost nothing to the others. */
  load: () => Promise<CliCommand>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  shops: {
    summary: 'shops add|configure|list …   custom-app stores (an Admin API token), their settings, the list of shops',
    load: () => import('./shops-command.ts'),
  },
  invoices: {
    summary:
      "invoices list|show|retry|resend|pdfs|correct|reinvoice …   read invoices, put failed ones back in the queue, e-mail them again (one, several or the list's filters), zip their PDFs, correct their client, re-issue an authorized one to another client",
    load: () => import('./invoices-command.ts'),
  },
  series: {
    summary:
      'series list|set-next …   number series per environment, branch, point and type: where each stands, its gaps, where it continues',
    load: () => import('./series-command.ts'),
  },
  reports: {
    summary:
      "reports month --shop <shop> --month YYYY-MM [--environment produccion|pruebas] [--format json|csv|xlsx|zip] [--out FILE]   the accountant's month: figures, sales book, PDFs",
    load: () => import('./reports-command.ts'),
  },
  backfill: {
    summary:
      'backfill --shop <shop> --from YYYY-MM-DD --to YYYY-MM-DD [--dry-run] [--json] [--yes] | --cancel   invoice past paid orders of a range of Panamá days (docs/backfill.md)',
    load: () => import('./backfill-command.ts'),
  },
  preview: {
    summary:
      'preview <order.json> [--settings <file>] [--transactions <file>] [--refund <refund.json> [--credited <note.json> …]]   print the invoice document of an orders/paid body, or the credit note of a refund of it',
    load: () => import('./preview-command.ts'),
  },
};

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([, c]) => `  ${c.summary}`);
  return ['usage: npm run cli -- <command> [args…]', '', 'commands:', ...lines].join('\n');
}

/** Run the command named by the first argument; 2 with the usage for an unknown or missing one. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.error(usage());
    return name === undefined ? 2 : 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    console.error(`unknown command: ${name}\n\n${usage()}`);
    return 2;
  }
  const command = await entry.load();
  return command.run(args);
}

if (import.meta.main) process.exitCode = await runCli(process.argv.slice(2));
