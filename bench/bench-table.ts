// The one table `npm run bench` prints and writes: row, figure, baseline/target, ratio/pass; and the
// machine it was measured on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

export interface BenchRow {
  row: string;
  /** What we measured, with its unit. */
  figure: string;
  /** What it is compared with: the baseline measured in the same run, and/or the target. */
  baseline: string;
  /** The ratio or verdict in words. */
  result: string;
  /** undefined: informational row (no target). */
  pass?: boolean;
}

export interface Machine {
  cores: number;
  cpu: string;
  memory: string;
  node: string;
  os: string;
}

export function machine(): Machine {
  let cores = os.availableParallelism();
  try {
    cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || cores;
  } catch {
    // nproc missing (not Linux): the runtime's count stands.
  }
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const model = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (model) cpu = model[1]!.trim();
  } catch {
    // No /proc: os.cpus() stands.
  }
  return {
    cores,
    cpu,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

function verdict(r: BenchRow): string {
  const mark = r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL';
  return [r.result, mark].filter(Boolean).join(' — ');
}

const HEADER = ['row', 'figure', 'baseline / target', 'ratio / pass'];

/** Plain text, aligned, for the terminal. */
export function textTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [r.row, r.figure, r.baseline, verdict(r)]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function mdCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** Markdown for bench/results/latest.md and bench/RESULTS.md. */
export function markdownReport(
  rows: readonly BenchRow[],
  m: Machine,
  startedAt: Date,
  seconds: number,
  command: string,
  load: { start: number; end: number },
): string {
  return [
    '# Benchmark results',
    '',
    `Measured ${startedAt.toISOString()} with \`${command}\` (${Math.round(seconds)} s).`,
    '',
    `Machine: ${m.cores} cores (nproc), ${m.cpu}, ${m.memory} memory, Node ${m.node}, ${m.os}. The load generators run on the same machine.`,
    '',
    // Figures taken while something else ran are lower than the machine can do. The start is the only
    // reading free of the bench's own load (the end includes it), so only the start can warn.
    `Load average (1 min) before the run ${load.start.toFixed(2)}${load.start > 0.5 ? ' — the machine was already busy with other work: the figures are lower than it can do' : ''}; after it ${load.end.toFixed(2)} (the bench's own processes included).`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${[r.row, r.figure, r.baseline, verdict(r)].map(mdCell).join(' | ')} |`),
    '',
  ].join('\n');
}

/** Where bench/RESULTS.md's hand-kept history starts. */
const FINDINGS_HEADING = '\n## Findings';

/** A full run's report, followed by the findings section of the RESULTS.md it replaces (if it has one). */
export function withFindings(report: string, previous: string): string {
  const at = previous.indexOf(FINDINGS_HEADING);
  return at === -1 ? report : `${report}${previous.slice(at)}`;
}
