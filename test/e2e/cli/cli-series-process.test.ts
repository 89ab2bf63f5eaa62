// `npm run cli -- series …` as an operator runs it (a process on the embedded database): set-next moves a series,
// series list --json shows it, and a number at or below the next one is refused with exit 2 and the reason.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseChildEnvironment } from '../../../src/config/env.ts';
import { ROOT } from '../../support/paths.ts';
import { CLI_START_ARGS } from '../../../sim/harness/app-process.ts';

const SHOP = 'tienda-cli-series.myshopify.com';
const SERIES = ['--shop', SHOP, '--environment', 'produccion', '--branch', '0000', '--point', '001', '--type', '01'];

describe('series commands as a process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-series-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [...CLI_START_ARGS, ...args], {
      cwd: ROOT,
      env: { ...baseChildEnvironment(), NODE_ENV: 'test', DATA_DIR: dataDir },
      encoding: 'utf8',
    });

  it('set-next, list --json, and a refusal with exit 2 that changes nothing', () => {
    expect(cli('shops', 'add', '--shop', SHOP, '--access-token', 'shpat_0123456789abcdef0123').status).toBe(0);
    const set = cli('series', 'set-next', ...SERIES, '--next', '1001');
    expect(set.status).toBe(0);
    expect(set.stdout).toMatch(/^Series produccion 0000-001 type 01: the next number is 1001 \(it was 1\)/);
    const refused = cli('series', 'set-next', ...SERIES, '--next', '1000');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'series set-next: refused, nothing changed: 1000 is at or below 1000, a number already reserved (the series continues at 1001; it only moves forward)',
    );
    const listed = cli('series', 'list', '--shop', SHOP, '--json');
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      {
        environment: 'produccion',
        branch: '0000',
        point: '001',
        type: '01',
        lastUsed: null,
        next: 1001,
        gaps: [{ from: 1, to: 1000, kind: 'set_next' }],
      },
    ]);
    expect(cli('series', 'list').status).toBe(2);
  }, 60_000);
});
