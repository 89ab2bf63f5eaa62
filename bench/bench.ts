// `npm run bench [-- <name>]`: run every benchmark (or one), print ONE table (row, figure, baseline/target,
// ratio/pass) and write it to bench/results/latest.md; a full run also writes bench/RESULTS.md (committed).
// A benchmark is a module exporting `run(): Promise<BenchRow[]>`; it may print its own detail first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleApp } from '../scripts/bundle-app.ts';
import { APP_NODE_FLAGS } from '../sim/harness/app-process.ts';
import type * as adminBench from './admin-bench.ts';
import type * as backfillBench from './backfill-bench.ts';
import type * as claimBench from './claim-bench.ts';
import type * as e2eBench from './e2e-bench.ts';
import type * as fairnessBench from './fairness-bench.ts';
import type * as inlineBench from './inline-bench.ts';
import type * as intakeBench from './intake-bench.ts';
import type * as mapperBench from './mapper-bench.ts';
import type * as notesBench from './notes-bench.ts';
import type * as reportsBench from './reports-bench.ts';
import type * as uiBench from './ui-bench.ts';
import { type BenchRow, machine, markdownReport, textTable, withFindings } from './bench-table.ts';

type BenchModule = { run(): Promise<BenchRow[] | void> };

/** Each benchmark's one-line summary, in the order a full run takes them; its module is `./<name>-bench.ts`. */
export const BENCHES = {
  mapper: 'orders mapped per second, 10-line and 250-line orders',
  intake: 'webhook intake req/s and p50/p99 on PGlite and PostgreSQL, beside a plain-insert baseline',
  e2e: '10,000 paid orders through the sandbox gateway at 200 ms: invoices/s vs the gateway limit, drain time, peak RSS, time to invoice; 1,500 more at half the limit',
  notes:
    '10,000 refunds through the sandbox gateway at 200 ms (their invoices seeded as authorized beforehand): credit notes/s vs the gateway limit',
  fairness: "100 shops, one sending 5,000 orders at once: the other 99 shops' time to invoice, the flooding shop's drain",
  backfill: "a 5,000-order backfill while live orders are paid at 5/s: the live orders' time to invoice, the backfill's drain",
  claim: "the worker's claim with 10,000 due documents, laid out over 1 to 1,000 shops",
  inline: 'webhook p99 with the gateway at 6 s: the inline design (gateway call inside the webhook) vs ours',
  admin: 'admin invoices list response time with 1,000,000 documents of one shop',
  reports: "the accountant's month: summary and streamed CSV of 100,000 documents in the month among 1,000,000",
  ui: 'admin page invoice list in Chromium: Largest Contentful Paint and Cumulative Layout Shift, desktop and phone',
};
type BenchName = keyof typeof BENCHES;

// loadBench() finds a module from its name, where the compiler cannot follow: this has it check that every
// name has its module and that each one exports a benchmark's run().
type BenchModules = Checked<{
  mapper: typeof mapperBench;
  intake: typeof intakeBench;
  e2e: typeof e2eBench;
  notes: typeof notesBench;
  fairness: typeof fairnessBench;
  backfill: typeof backfillBench;
  claim: typeof claimBench;
  inline: typeof inlineBench;
  admin: typeof adminBench;
  reports: typeof reportsBench;
  ui: typeof uiBench;
}>;
type Checked<T extends Record<BenchName, BenchModule>> = T;

/** Loaded on use, so one benchmark's dependencies cost nothing to the others. */
function loadBench<N extends BenchName>(name: N): Promise<BenchModules[N]> {
  return import(`./${name}-bench.ts`) as Promise<BenchModules[N]>;
}

function usage(): string {
  return [
    'usage: npm run bench [-- <name>]',
    '',
    'benchmarks:',
    ...Object.entries(BENCHES).map(([n, summary]) => `  ${n.padEnd(8)} ${summary}`),
  ].join('\n');
}

export async function runBench(argv: string[]): Promise<number> {
  const [name, ...extra] = argv;
  if (extra.length > 0 || (name !== undefined && !Object.hasOwn(BENCHES, name))) {
    console.error(`${name === undefined ? '' : `unknown benchmark: ${name}\n\n`}${usage()}`);
    return 2;
  }
  const names = name === undefined ? (Object.keys(BENCHES) as BenchName[]) : [name as BenchName];
  // The benches run the app as `npm start` does: from the bundle its prestart makes.
  await bundleApp();
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const rows: BenchRow[] = [];
  for (const n of names) {
    console.log(`\n# ${n}: ${BENCHES[n]}`);
    const bench: BenchModule = await loadBench(n);
    try {
      const produced = await bench.run();
      rows.push(...(produced ?? [{ row: n, figure: 'printed above', baseline: '', result: '—' }]));
    } catch (error) {
      // One broken row must not hide the others' figures.
      console.error(error);
      rows.push({
        row: n,
        figure: `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        baseline: '',
        result: 'error',
        pass: false,
      });
    }
  }
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  console.log(`\n${textTable(rows)}\n`);

  const command = `npm run bench${name === undefined ? '' : ` -- ${name}`}`;
  const report = markdownReport(rows, machine(), startedAt, seconds, command, { start: loadAtStart, end: os.loadavg()[0]! });
  const resultsDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'latest.md'), report);
  // Only a full run replaces the committed figures; the findings written by hand below them stay.
  if (name === undefined) {
    const file = path.join(import.meta.dirname, 'RESULTS.md');
    fs.writeFileSync(file, withFindings(report, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''));
  }
  console.log(`written: bench/results/latest.md${name === undefined ? ', bench/RESULTS.md' : ''}`);
  // A missed target is a figure, not a failure of the command (speed is measured, not asserted); a crash is.
  return rows.some((r) => r.result === 'error') ? 1 : 0;
}

if (import.meta.main) {
  // The intake, admin and mapper benches run the app or its code in this process: run them with the start
  // script's heap flags, as deployed (they change intake throughput by a third).
  const missing = APP_NODE_FLAGS.filter((flag) => !process.execArgv.includes(flag));
  if (missing.length > 0) {
    const child = spawnSync(process.execPath, [...process.execArgv, ...APP_NODE_FLAGS, import.meta.filename, ...process.argv.slice(2)], {
      stdio: 'inherit',
    });
    process.exitCode = child.status ?? 1;
  } else process.exitCode = await runBench(process.argv.slice(2));
}
