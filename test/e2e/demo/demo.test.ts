// `npm start` with no configuration (the demo) and `npm run demo` against it, as processes, the way the README says
// to try the app: every order prints its invoice and the buyer's e-mail, then one order is refunded through the store
// simulator's control API and its credit note is printed (number, CUFE, amount, PDF link, e-mail). The demo runs from
// the bundle `npm start` runs (dist/main.js loading dist/demo.js), which the app's own bundle does not contain.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseChildEnvironment } from '../../../src/config/env.ts';
import { APP_START_ARGS } from '../../../sim/harness/app-process.ts';
import { freePort } from '../../../sim/harness/harness.ts';
import { ROOT } from '../../support/paths.ts';

describe('the demo', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'demo-'));
  let demo: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    demo = spawn(process.execPath, APP_START_ARGS, {
      cwd: ROOT,
      env: { ...baseChildEnvironment(), DATA_DIR: dataDir, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      demo.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('demo running')) resolve();
      });
      demo.on('exit', (code) => reject(new Error(`the demo exited (${code}) before it ran:\n${output}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (demo && demo.exitCode === null) {
      const exited = new Promise((resolve) => demo.on('exit', resolve));
      demo.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the app's bundle holds none of the doubles nor the packages only they use", () => {
    // esbuild heads each module it bundles with a comment naming its file.
    const modules = (file: string) => [...readFileSync(path.join(ROOT, 'dist', file), 'utf8').matchAll(/^\/\/ (\S+)$/gm)].map((m) => m[1]!);
    const doubles = /^(sim\/|node_modules\/(graphql|pdf-lib|smtp-server|mailparser)\/)/;
    expect(modules('main.js').filter((m) => doubles.test(m))).toEqual([]);
    expect(modules('main.js')).toContain('src/app.ts');
    // The demo's bundle has them: the check above looks at the right things.
    expect(modules('demo.js').filter((m) => doubles.test(m)).length).toBeGreaterThan(10);
  });

  it('npm run demo sends its orders, prints their invoices, then refunds the first and prints its credit note', () => {
    const run = spawnSync(process.execPath, ['sim/demo/demo-orders.ts'], {
      cwd: ROOT,
      env: { ...baseChildEnvironment(), DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect([run.status, run.stderr]).toEqual([0, '']);
    const blocks = run.stdout.split('\n\n');
    const invoices = blocks.filter((b) => b.includes('  fiscal number') && !b.includes('credit note'));
    expect(invoices).toHaveLength(5);
    const [first] = invoices;
    const order = /^(#D\d+) {2}Consumidor final/.exec(first!)?.[1];
    expect(order).toBeDefined();
    expect(run.stdout).toContain(`${order}  refund of one "Camisa de lino": webhook answered 200 {"outcome":"stored"}`);

    const note = blocks.find((b) => b.startsWith(`${order}  credit note for refund `))!;
    // "  label   value": the label, then the value after the first run of spaces.
    const fields = note
      .split('\n')
      .slice(1)
      .map((l) => /^ {2}(.+?) {2,}(.*)$/.exec(l)!.slice(1));
    expect(fields.map(([label]) => label)).toEqual(['fiscal number', 'CUFE', 'amount', 'PDF', 'e-mail']);
    const value = (label: string) => fields.find(([l]) => l === label)![1]!;
    expect(value('fiscal number')).toBe('0000-001-0000000001');
    expect(value('CUFE')).toMatch(/^FE04\d{4}/);
    expect(value('CUFE')).toHaveLength(66);
    // One shirt of 24.50 at 7 % ITBMS.
    expect(value('amount')).toBe('26.22 USD');
    expect(value('PDF')).toMatch(new RegExp(`^http://localhost:${port}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
    expect(value('e-mail')).toMatch(
      new RegExp(
        `\\.eml {3}\\(to ana\\.perez@example\\.com: "Nota de crédito 0000-001-0000000001 de Tienda Demo PA \\(pedido ${order}\\)"\\)$`,
      ),
    );
  }, 120_000);
});
