// Starting on a data directory the embedded database cannot write (issue 25 item 9): start-up stops with one
// readable line naming the directory and the cause, where it printed a bare errno object or "Aborted()".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseChildEnvironment } from '../../../src/config/env.ts';

const real = {
  SHOPIFY_API_KEY: 'key',
  SHOPIFY_API_SECRET: 'shpss_secret_value',
  SHOPIFY_APP_URL: 'https://facturas.example.com/',
  GATEWAY_BASE_URL: 'https://gateway.example.com/api/v1/GFGatewayEB',
  GATEWAY_AUTH_TOKEN: 'jwt-secret-value',
};

describe('start-up on a data directory the database cannot write', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'factura-datadir-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('exits 1 naming the directory and the cause', () => {
    const dataDir = path.join(root, 'data');
    // A file where PGlite's initdb makes a directory: its file system fails inside the database, as on a full disk.
    fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pglite', 'global'), '');
    const result = spawnSync(process.execPath, ['src/main.ts'], {
      env: { ...baseChildEnvironment(), ...real, DATA_DIR: dataDir, PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^start-up failed: the embedded database in ${path.join(dataDir, 'pglite')} could not be opened: ` +
          'a file stands where a directory is needed \\(ENOTDIR\\); the disk holding it has \\d+ KiB free\\. ' +
          'Check that the directory is writable and its disk has free space \\(DATA_DIR\\), or use PostgreSQL \\(DATABASE_URL\\)\\.$',
      ),
    );
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });
});
