// What the benches share: where PostgreSQL is, a seeded shop, realistic signed order bodies, percentiles.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import pg from 'pg';
import { type AppParts, SHOPIFY_API_VERSION, startApp } from '../src/app.ts';
import { baseChildEnvironment, benchDatabaseUrl, loadConfig } from '../src/config/env.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import type { BenchRow } from './bench-table.ts';
import type { GatewaySettings } from '../src/gateway/gateway-client.ts';
import { silentLogger } from '../src/logger.ts';
import { EncryptedSessionStorage } from '../src/shopify/session-storage.ts';
import { createSecretBox } from '../src/shops/secret-box.ts';
import { ShopRepository } from '../src/shops/shop-repository.ts';
import { type AppProcess, spawnApp } from '../sim/harness/app-process.ts';
import { createFreshPostgresDatabase } from '../sim/harness/databases.ts';
import { TEST_SCOPES, credentialsFor, freePort } from '../sim/harness/harness.ts';
import { makePaidOrder } from '../test/support/order-factory.ts';
import { type LoadResult, generateLoad } from './load-generator.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

export const BENCH_API_KEY = 'bench-api-key';
export const BENCH_API_SECRET = 'bench-api-secret';

/** Tried when neither DATABASE_URL nor TEST_DATABASE_URL is set (the CI service's address). */
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A PostgreSQL server URL for the bench, or undefined ("PostgreSQL: not available"). */
export async function findPostgres(): Promise<string | undefined> {
  const configured = benchDatabaseUrl();
  if (configured) return configured;
  const probe = new pg.Client({ connectionString: DEFAULT_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.query('select 1');
    return DEFAULT_POSTGRES_URL;
  } catch {
    return undefined;
  } finally {
    await probe.end().catch(() => {});
  }
}

/** A fresh temporary directory (PGlite data, app data); removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The scopes a shop grants when it installs the app: those the app asks for by default (SHOPIFY_SCOPES). With fewer
 * (no read_customers), every order the app reads through Admin GraphQL is asked for twice, the second time without
 * its customer.
 */
export const BENCH_SCOPES = TEST_SCOPES;

/**
 * Install and enable a shop the way the app would after OAuth and settings: offline session (when an
 * access token is given, granting BENCH_SCOPES), settings with sandbox credentials (its own Company at the sandbox).
 */
export async function seedShop(database: Database, key: Buffer, shop: string, accessToken?: string): Promise<void> {
  const box = createSecretBox(key);
  if (accessToken) {
    await new EncryptedSessionStorage(database.db, box).storeSession(
      new Session({ id: `offline_${shop}`, shop, state: 'bench', isOnline: false, accessToken, scope: BENCH_SCOPES }),
    );
  }
  const shops = new ShopRepository(database.db, box);
  await shops.ensureInstalled(shop);
  const current = await shops.get(shop);
  const saved = await shops.saveSettings(shop, { ...current!.settings, credentials: credentialsFor(shop), enabled: true });
  if (!saved.ok) throw new Error(saved.problems.join('; '));
}

export const ORDER_BODY_BYTES = 8192;

const BODY_LINES = [
  { title: 'Camisa de lino', sku: 'CAM-001', price: 2450, quantity: 2, ratePercent: 7 },
  { title: 'Libro de cocina panameña', sku: 'LIB-010', price: 1800, quantity: 1, ratePercent: 0 },
  { title: 'Café de altura 500 g', sku: 'CAF-500', price: 1299, quantity: 3, ratePercent: 7 },
  { title: 'Sombrero pintao', sku: 'SOM-002', price: 8500, quantity: 1, ratePercent: 10 },
  { title: 'Mola enmarcada', sku: 'MOL-007', price: 12000, quantity: 1, ratePercent: 7 },
];

/** A realistic 5-line paid order, padded with a note to ORDER_BODY_BYTES (Shopify's bodies carry much more than we read). */
export function paidOrder(id: number): Record<string, unknown> {
  const order = makePaidOrder({ id, lines: BODY_LINES, shippingCents: 500 });
  // Bytes, not characters: the accented letters take two in UTF-8.
  const bytes = Buffer.byteLength(JSON.stringify({ ...order, note: '' }));
  return { ...order, note: 'x'.repeat(Math.max(0, ORDER_BODY_BYTES - bytes)) };
}

/** The order body as text with `__ID__` where the numeric order id goes (the load generator fills it per request). */
export function orderTemplate(): string {
  const marker = 7_999_999_999_999;
  return JSON.stringify(paidOrder(marker)).replaceAll(String(marker), '__ID__');
}

/** Order ids in a range nothing else uses; each bench run takes its own block. */
export function orderIdBase(block: number): number {
  return 7_000_000_000_000 + block * 10_000_000;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** A random 32-byte encryption key for one bench run. */
export function benchKey(): Buffer {
  return randomBytes(32);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 12,345 */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** 12.3 ms */
export function ms(n: number): string {
  return `${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')} ms`;
}

export interface SandboxProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The sandbox gateway in its own process (`npm run sandbox`), so its PDF rendering does not share the app's event loop. */
export async function startSandboxProcess(options: { latencyMs: number; seed?: number }): Promise<SandboxProcess> {
  const args = ['sim/sandbox/sandbox-main.ts', '--port', '0', '--latency', String(options.latencyMs), '--seed', String(options.seed ?? 1)];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: baseChildEnvironment(), stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /Sandbox gateway listening: (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`sandbox exited before listening:\n${seen}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Peak resident set (VmHWM) of a process in bytes, from /proc; undefined where there is no /proc. */
export function peakRss(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set (VmRSS) of a process in bytes, from /proc; undefined where there is no /proc. */
export function currentRss(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc; undefined where there is no /proc. */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux Node supports. */
const CLOCK_TICKS = 100;

export function mib(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MiB`;
}

/**
 * The real app in this process on `database`, as the bench's Shopify app (its Admin API the store simulator at
 * `adminApiOrigin`, or none); `env` adds to a test configuration on a free loopback port.
 */
export async function startBenchApp(
  database: Database,
  key: Buffer,
  o: { env: Record<string, string>; gateway: GatewaySettings; adminApiOrigin?: string },
): Promise<AppParts> {
  return startApp({
    config: loadConfig({ NODE_ENV: 'test', PORT: '0', BIND_ADDRESS: '127.0.0.1', ...o.env }),
    logger: silentLogger,
    encryptionKey: key,
    shopify: {
      apiKey: BENCH_API_KEY,
      apiSecret: BENCH_API_SECRET,
      appUrl: 'http://127.0.0.1',
      scopes: BENCH_SCOPES.split(','),
      adminApiOrigin: o.adminApiOrigin,
    },
    gateway: o.gateway,
    database,
  });
}

/** The real app on a database, intake only (no worker), as the intake and admin benches run it. */
export async function startIntakeApp(database: Database, key: Buffer): Promise<AppParts> {
  return startBenchApp(database, key, {
    env: { WORKER_ENABLED: 'false', LOG_LEVEL: 'silent' },
    gateway: { baseUrl: 'http://127.0.0.1:9', authToken: 'unused', authScheme: 'bearer', timeoutMs: 1000 },
  });
}

export interface BenchAppProcess extends AppProcess {
  /** Where it listens: http://127.0.0.1:<a free port>. */
  url: string;
}

/**
 * The app in its own process, started as `npm start` starts it, on a free loopback port with its data in `dataDir`,
 * as the bench's Shopify app; `env` adds the gateway and the rest. Development, so that the Admin API may be the store
 * simulator (production refuses that); the same code path.
 */
export async function spawnBenchApp(dataDir: string, key: Buffer, env: Record<string, string>): Promise<BenchAppProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = spawnApp({
    NODE_ENV: 'development',
    PORT: String(port),
    BIND_ADDRESS: '127.0.0.1',
    DATA_DIR: dataDir,
    SHOPIFY_API_KEY: BENCH_API_KEY,
    SHOPIFY_API_SECRET: BENCH_API_SECRET,
    SHOPIFY_APP_URL: url,
    ENCRYPTION_KEY: key.toString('hex'),
    ...env,
  });
  return { ...app, url };
}

/** The intake bench's load, which the e2e bench's memory row puts on the app as well. */
export const INTAKE_LOAD = { connections: 50, warmUpSeconds: 2, seconds: 10 };

/** Signed, distinct `orders/paid` deliveries of `shop` to `url` for `durationSeconds`, order ids from `block`. */
export function intakeLoad(url: string, shop: string, block: number, durationSeconds: number): Promise<LoadResult> {
  return generateLoad({
    url,
    secret: BENCH_API_SECRET,
    shop,
    template: orderTemplate(),
    idBase: orderIdBase(block),
    connections: INTAKE_LOAD.connections,
    durationSeconds,
    apiVersion: SHOPIFY_API_VERSION,
  });
}

/** Run `measure` on a fresh database: file-backed PGlite in a temp dir, or a new PostgreSQL database on `serverUrl`. */
export async function onFreshDatabase<T>(serverUrl: string | undefined, measure: (database: Database) => Promise<T>): Promise<T> {
  if (serverUrl === undefined) {
    const tmp = tempDir('fe-bench-pglite-');
    const database = await openDatabase({ kind: 'pglite', dataDir: tmp.dir });
    try {
      return await measure(database);
    } finally {
      await database.close();
      tmp.remove();
    }
  }
  const fresh = await createFreshPostgresDatabase(serverUrl);
  const database = await openDatabase({ kind: 'postgres', url: fresh.url });
  try {
    return await measure(database);
  } finally {
    await database.close();
    await fresh.drop();
  }
}

/**
 * `measure` on a fresh PGlite, then on a fresh PostgreSQL database when one answers: each one's rows, or a row named
 * `${row}, PostgreSQL` saying it was not available.
 */
export async function onBothDatabases<T>(
  row: string,
  measure: (database: Database) => Promise<T>,
  rowsFor: (target: 'PGlite' | 'PostgreSQL', measured: T) => BenchRow[],
): Promise<BenchRow[]> {
  console.log('  PGlite');
  const rows = rowsFor('PGlite', await onFreshDatabase(undefined, measure));
  const pgUrl = await findPostgres();
  if (pgUrl) {
    console.log('  PostgreSQL');
    rows.push(...rowsFor('PostgreSQL', await onFreshDatabase(pgUrl, measure)));
  } else {
    rows.push({
      row: `${row}, PostgreSQL`,
      figure: 'PostgreSQL: not available',
      baseline: 'set DATABASE_URL or TEST_DATABASE_URL',
      result: '—',
    });
  }
  return rows;
}
