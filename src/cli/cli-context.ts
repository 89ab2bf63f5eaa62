// What the operators' commands share: configuration, the database, the secret box, argument parsing that
// never repeats a value back (a mistyped option may be followed by a token), and the exit codes:
// 0 done · 1 could not be done (unknown shop, wrong state, configuration) · 2 bad input (arguments, files).
import { isUuid } from '../admin/list-params.ts';
import fs from 'node:fs';
import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { pino } from 'pino';
import { type AppConfig, ConfigError, loadConfig } from '../config/env.ts';
import type { Database } from '../db/database.ts';
import { createLogger, type Logger } from '../logger.ts';
import type { EncryptedSessionStorage } from '../shopify/session-storage.ts';
import { resolveEncryptionKey } from '../shops/encryption-key.ts';
import { createSecretBox, type SecretBox } from '../shops/secret-box.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { terminalLines, terminalText } from './terminal-text.ts';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

/** Bad arguments or input files: exit 2. Messages never contain a value the person typed for a secret. */
export class CliInputError extends Error {}
/** The request is understood but cannot be done: exit 1. */
export class CliFailure extends Error {}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** All of standard input (for `--access-token -`). */
  stdin(): Promise<string>;
  /** Ask a yes/no question on a terminal; absent when standard input is not one (a script goes on without asking). */
  confirm?(question: string): Promise<boolean>;
}

export const processIo: CliIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  },
  ...(process.stdin.isTTY ? { confirm: askOnTerminal } : {}),
};

async function askOnTerminal(question: string): Promise<boolean> {
  const readline = await import('node:readline/promises');
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^(y|yes|s|si|sí)$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export interface CliContext {
  config: AppConfig;
  logger: Logger;
  database: Database;
  box: SecretBox;
  shops: ShopRepository;
  sessions: EncryptedSessionStorage;
  /** Set when this run made the encryption key file (the person must know to keep it). */
  newKeyFile: string | undefined;
  close(): Promise<void>;
}

export type OpenContext = () => Promise<CliContext>;

/** Configuration from the environment (as `npm start` reads it), then the database it names. */
export async function openCliContext(source?: Record<string, string | undefined>): Promise<CliContext> {
  let config: AppConfig;
  try {
    config = source ? loadConfig(source) : loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliFailure(error.message);
    throw error;
  }
  // Library warnings go to stderr as JSON lines; a command's own output is for people.
  const logger = createLogger('error', pino.destination({ fd: 2, sync: true }));
  const keyFile = path.join(config.dataDir, 'encryption.key');
  const hadKeyFile = config.encryptionKey !== undefined || fs.existsSync(keyFile);
  const box = createSecretBox(resolveEncryptionKey(config.encryptionKey, config.dataDir, logger));
  // Loaded here, not with this module: `preview` needs no database, and loading drizzle-orm module by module costs
  // each run of the CLI most of a second (bench/RESULTS.md, "Where the app's memory went").
  const [{ databaseTargetFor, openDatabase }, { ShopRepository }, { EncryptedSessionStorage }] = await Promise.all([
    import('../db/database.ts'),
    import('../shops/shop-repository.ts'),
    import('../shopify/session-storage.ts'),
  ]);
  const database = await openDatabase(databaseTargetFor(config));
  return {
    config,
    logger,
    database,
    box,
    shops: new ShopRepository(database.db, box),
    sessions: new EncryptedSessionStorage(database.db, box),
    newKeyFile: hadKeyFile ? undefined : keyFile,
    close: () => database.close(),
  };
}

/** The same output with every line made safe for a terminal: what commands print goes through it. */
export function terminalIo(io: CliIo): CliIo {
  const confirm = io.confirm?.bind(io);
  return {
    out: (text) => io.out(terminalLines(text)),
    err: (text) => io.err(terminalLines(text)),
    stdin: io.stdin,
    ...(confirm ? { confirm: (question: string) => confirm(terminalText(question)) } : {}),
  };
}

/** Run a command body: its exit code, or the code and one line on stderr for what it threw. */
export async function runCommand(io: CliIo, name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof CliInputError) {
      io.err(`${name}: ${error.message}`);
      return EXIT_BAD_INPUT;
    }
    if (error instanceof CliFailure) {
      io.err(`${name}: ${error.message}`);
      return EXIT_FAILED;
    }
    io.err(`${name}: failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
}

/**
 * A command group (`shops add`, `invoices list`, …): run the named subcommand, print the usage for help,
 * and the usage on stderr with exit 2 for anything else. Subcommands print through `terminalIo`.
 */
export async function runSubcommand(
  given: CliIo,
  group: string,
  args: readonly string[],
  usage: string,
  open: OpenContext,
  subcommands: Record<string, (rest: readonly string[], io: CliIo, open: OpenContext) => Promise<number>>,
): Promise<number> {
  const io = terminalIo(given);
  const [sub, ...rest] = args;
  return runCommand(io, `${group}${sub && !sub.startsWith('-') ? ` ${sub}` : ''}`, async () => {
    if (sub === '--help' || sub === '-h' || sub === 'help') {
      io.out(usage);
      return EXIT_OK;
    }
    const handler = sub !== undefined && Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
    if (!handler) {
      // A word that names no subcommand is said to be unknown before the usage; nothing at all gets the usage alone.
      if (sub !== undefined) io.err(`${group}: unknown command "${sub}" (the commands are ${Object.keys(subcommands).join(', ')})\n`);
      io.err(usage);
      return EXIT_BAD_INPUT;
    }
    return handler(rest, io, open);
  });
}

/** Open the context, run, always close. */
export async function withContext(open: OpenContext, io: CliIo, body: (ctx: CliContext) => Promise<number>): Promise<number> {
  const ctx = await open();
  if (ctx.newKeyFile) {
    io.err(
      `note: made a new encryption key at ${ctx.newKeyFile}. Keep it with the data (or set ENCRYPTION_KEY): without it the stored tokens and credentials cannot be read.`,
    );
  }
  try {
    return await body(ctx);
  } finally {
    await ctx.close();
  }
}

export interface ArgSpec {
  /** Options taking a value, once, without the leading dashes. */
  values?: readonly string[];
  /** Options taking a value, any number of times. */
  lists?: readonly string[];
  /** Options without a value. */
  flags?: readonly string[];
  /** How many positional arguments are allowed (default 0). */
  positionals?: number;
}

export interface ParsedArgs {
  values: Record<string, string>;
  lists: Record<string, string[]>;
  flags: Set<string>;
  positionals: string[];
}

/** What an option's name looks like; anything else after `--` is named in no error (it may be a mistyped secret). */
const OPTION = /^--[a-z][a-z0-9-]*$/;

/**
 * `--name value`, `--name=value`, `--flag`, positionals: node:util's parseArgs reads them, and each is checked here, so
 * that errors name options and never values (a mistyped option may be followed by a token).
 */
export function parseCommandArgs(args: readonly string[], spec: ArgSpec, usage: string): ParsedArgs {
  const values: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  const options: ParseArgsConfig['options'] = {};
  for (const name of [...(spec.values ?? []), ...(spec.lists ?? [])]) options[name] = { type: 'string' };
  for (const name of spec.flags ?? []) options[name] = { type: 'boolean' };
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator' || !OPTION.test(token.rawName)) throw new CliInputError(`unknown option (${usage})`);
    const { name, value, inlineValue } = token;
    if (spec.flags?.includes(name)) {
      if (value !== undefined) throw new CliInputError(`--${name} takes no value (${usage})`);
      flags.add(name);
    } else if (spec.values?.includes(name) || spec.lists?.includes(name)) {
      // A value that is itself an option (`--shop --json`) is a missing value, unless written `--shop=--json`.
      if (value === undefined || (!inlineValue && OPTION.test(value.split('=')[0]!)))
        throw new CliInputError(`--${name} needs a value (${usage})`);
      if (spec.lists?.includes(name)) (lists[name] ??= []).push(value);
      else if (name in values) throw new CliInputError(`--${name} given twice`);
      else values[name] = value;
    } else {
      throw new CliInputError(`unknown option --${name} (${usage})`);
    }
  }
  if (positionals.length > (spec.positionals ?? 0)) throw new CliInputError(`unexpected argument (${usage})`);
  return { values, lists, flags, positionals };
}

/** `Tienda.myshopify.com`, `https://tienda.myshopify.com/` → `tienda.myshopify.com`; undefined if not a store domain. */
export function normalizeShopDomain(raw: string): string | undefined {
  const shop = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
  return /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop) ? shop : undefined;
}

/** The command's invoice id (a UUID, as `invoices list` prints it), lower case. */
export function requireDocumentId(positionals: readonly string[], usage: string): string {
  const [id] = positionals;
  if (id === undefined) throw new CliInputError(`the invoice id is required (${usage})`);
  if (!isUuid(id)) throw new CliInputError('the invoice id must be a UUID, as `invoices list` prints it');
  return id.toLowerCase();
}

export function requireShop(values: Record<string, string>, usage: string): string {
  const raw = values['shop'];
  if (raw === undefined) throw new CliInputError(`--shop is required (${usage})`);
  const shop = normalizeShopDomain(raw);
  if (!shop) throw new CliInputError("--shop must be the store's myshopify.com domain, e.g. tienda.myshopify.com");
  return shop;
}

/**
 * A JSON file's content. Errors say where, not what: a settings file holds passwords, and JSON.parse's
 * own message quotes the text around the mistake.
 */
export function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : 'unreadable';
    throw new CliInputError(`cannot read the ${what} file ${file}: ${reason}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliInputError(`the ${what} file ${file} is not valid JSON${jsonErrorPlace(text, error)}`);
  }
}

function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return ` (line ${lineColumn[1]}, column ${lineColumn[2]})`;
  const position = /position (\d+)/.exec(message);
  if (!position) return '';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}

/** Rows as aligned columns, for people; a cell is one line of visible characters (terminalText). */
export function formatTable(header: readonly string[], given: readonly (readonly string[])[]): string[] {
  const rows = given.map((r) => r.map(terminalText));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
