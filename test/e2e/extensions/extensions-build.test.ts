// Both UI extensions build with Shopify's own tooling (`shopify app build`, the Shopify CLI as a devDependency),
// offline: the app's configuration and extensions copied to a scratch folder (the CLI writes dist/, manifest.json and
// its own shopify.d.ts beside each extension), the project's packages linked in.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/paths.ts';

const run = promisify(execFile);
const CLI = path.join(ROOT, 'node_modules', '@shopify', 'cli', 'bin', 'run.js');
const EXTENSIONS = ['order-invoice-block', 'order-buyer-link'];

describe('the UI extensions, built by the Shopify CLI', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'extensions-build-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('bundles each one, nothing fetched, the project left as it was', async () => {
    const declarations = EXTENSIONS.map((name) => path.join(ROOT, 'extensions', name, 'shopify.d.ts'));
    const before = declarations.map((file) => fs.readFileSync(file, 'utf8'));
    for (const file of ['shopify.app.toml', 'package.json']) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
    fs.cpSync(path.join(ROOT, 'extensions'), path.join(dir, 'extensions'), {
      recursive: true,
      filter: (from) => !/[/\\](dist|manifest\.json)$/.test(from),
    });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const { stdout } = await run(
      '/usr/bin/env',
      ['SHOPIFY_CLI_NO_ANALYTICS=1', process.execPath, CLI, 'app', 'build', '--path', dir, '--skip-dependencies-installation'],
      { cwd: dir, timeout: 240_000 },
    );
    for (const name of EXTENSIONS) {
      expect(stdout).toContain(`${name} successfully built`);
      const bundle = fs.readFileSync(path.join(dir, 'extensions', name, 'dist', `${name}.js`), 'utf8');
      expect(bundle.length).toBeGreaterThan(1000);
    }
    const buyerBundle = fs.readFileSync(path.join(dir, 'extensions', 'order-buyer-link', 'dist', 'order-buyer-link.js'), 'utf8');
    // The block reads the app's buyer page link from the order's metafields.
    expect(buyerBundle).toContain('buyer_url');
    expect(declarations.map((file) => fs.readFileSync(file, 'utf8'))).toEqual(before);
  }, 300_000);
});
