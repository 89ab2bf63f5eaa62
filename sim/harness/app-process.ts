// The app as a separate process, started as `npm start` starts it, for tests that run several or kill one.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseChildEnvironment } from '../../src/config/env.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../sandbox/sandbox-gateway.ts';
import { TEST_API_KEY, TEST_API_SECRET } from './harness.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The node arguments of the `start` script (V8 flags, then the bundle its `prestart` makes, dist/main.js): the app runs
 * here as deployed. The tests' global setup (test/support/bundle-setup.ts) makes the bundle first.
 */
export const APP_START_ARGS: string[] = nodeArgsOf('start', 'dist/main.js');

/**
 * The node arguments of the `cli` script (`npm run cli -- …` without npm): its launcher runs the CLI's bundle,
 * dist/cli.js, which the tests' global setup makes first.
 */
export const CLI_START_ARGS: string[] = nodeArgsOf('cli', 'scripts/cli.ts');

/** The arguments of a package.json script `node … <file>`, checked to end with `file`. */
function nodeArgsOf(script: 'start' | 'cli', file: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const line = pkg.scripts[script] ?? '';
  const [command, ...args] = line.trim().split(/\s+/);
  if (command !== 'node' || args.at(-1) !== file) throw new Error(`unexpected ${script} script: ${line}`);
  return args;
}

/**
 * Just the V8 flags of the `start` script: the benches that run the app in their own process use them.
 * `--liftoff-only`: V8 would recompile PGlite's SQL parser (`raw_parser`, its largest WebAssembly function) with
 * TurboFan a few seconds after start, a transient ~600 MB of compiler memory (the app's peak RSS on PGlite went to
 * 700–940 MiB); Liftoff alone costs PGlite intake about a quarter of its throughput (bench/RESULTS.md, 2026-11-27).
 */
export const APP_NODE_FLAGS: string[] = APP_START_ARGS.slice(0, -1);

/** The configuration of a test app process on loopback `port`: the test Shopify app, a gateway, a key. */
export function testAppEnv(o: { port: number; gatewayUrl: string; key: Buffer; adminApiOrigin?: string }): Record<string, string> {
  return {
    NODE_ENV: 'test',
    PORT: String(o.port),
    BIND_ADDRESS: '127.0.0.1',
    SHOPIFY_API_KEY: TEST_API_KEY,
    SHOPIFY_API_SECRET: TEST_API_SECRET,
    SHOPIFY_APP_URL: `http://127.0.0.1:${o.port}`,
    ...(o.adminApiOrigin ? { SHOPIFY_ADMIN_API_ORIGIN: o.adminApiOrigin } : {}),
    GATEWAY_BASE_URL: o.gatewayUrl,
    GATEWAY_AUTH_TOKEN: DEFAULT_SANDBOX_AUTH_TOKEN,
    ENCRYPTION_KEY: o.key.toString('hex'),
  };
}

export interface AppProcess {
  child: ChildProcess;
  /** Lines the process printed (JSON log lines and anything else). */
  output: string[];
  ready: Promise<void>;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnApp(env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, APP_START_ARGS, {
    cwd: ROOT,
    // The child reads its configuration from its environment, like any deployment.
    env: { ...baseChildEnvironment(), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let resolveReady!: () => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      output.push(line);
      if (line.includes('"app listening"')) resolveReady();
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  void exited.then((code) => rejectReady(new Error(`app exited (${code}) before listening:\n${output.slice(-20).join('\n')}`)));
  return {
    child,
    output,
    ready,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
