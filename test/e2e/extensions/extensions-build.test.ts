// The UI extensions and the Flow triggers build with Shopify's own tooling (`shopify app build`, the Shopify CLI as a
// devDependency), offline: the app's configuration and extensions copied to a scratch folder (the CLI writes dist/,
// manifest.json and its own shopify.d.ts beside each extension), the project's packages linked in. The CLI validates
// each trigger's toml against its schema (a field key with an accent is refused), so the build is the triggers' check.
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
const FLOW_TRIGGERS = ['flow-invoice-authorized', 'flow-invoice-needs-attention', 'flow-credit-note-authorized'];

describe('the UI extensions and Flow triggers, built by the Shopify CLI', () => {
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
    const { stdout, stderr } = await run(
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
    // The Flow triggers are configuration only: the CLI loads and validates them, and says the app built.
    expect(`${stdout}${stderr}`).toContain('factura-electronica-pa built!');
    for (const name of FLOW_TRIGGERS) expect(fs.existsSync(path.join(dir, 'extensions', name, 'shopify.extension.toml'))).toBe(true);
  }, 300_000);

  it('refuses a Flow trigger whose field key is not letters and spaces', async () => {
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'extensions-bad-'));
    try {
      for (const file of ['shopify.app.toml', 'package.json']) fs.copyFileSync(path.join(ROOT, file), path.join(bad, file));
      const trigger = path.join(bad, 'extensions', FLOW_TRIGGERS[0]!);
      fs.mkdirSync(trigger, { recursive: true });
      const toml = fs.readFileSync(path.join(ROOT, 'extensions', FLOW_TRIGGERS[0]!, 'shopify.extension.toml'), 'utf8');
      fs.writeFileSync(path.join(trigger, 'shopify.extension.toml'), toml.replace('key = "Numero fiscal"', 'key = "Número fiscal"'));
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(bad, 'node_modules'), 'dir');
      const built = run(
        '/usr/bin/env',
        ['SHOPIFY_CLI_NO_ANALYTICS=1', process.execPath, CLI, 'app', 'build', '--path', bad, '--skip-dependencies-installation'],
        { cwd: bad, timeout: 240_000 },
      );
      await expect(built).rejects.toThrow(/only alphabetic characters and[\s│]+spaces/);
    } finally {
      fs.rmSync(bad, { recursive: true, force: true });
    }
  }, 300_000);
});
