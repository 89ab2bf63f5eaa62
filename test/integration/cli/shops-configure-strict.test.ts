// `shops configure` refuses nonsense at every depth (issue 26 item 5): a misspelt key inside `mapping` (or deeper) and
// a document type that is not a sale's invoice (04–07, 09) → exit 2 naming the key, and nothing saved.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext, CliIo } from '../../../src/cli/cli-context.ts';
import { runShops } from '../../../src/cli/shops-command.ts';
import type { Database } from '../../../src/db/database.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { ROOT } from '../../support/paths.ts';
import { cliContextOn } from '../../support/harness-cli.ts';

const SHOP = 'tienda-estricta.myshopify.com';

/** The settings example of docs/merchants.md. */
function documentedSettings(): Record<string, unknown> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'merchants.md'), 'utf8');
  const block = /<!-- settings-example[^>]*-->\s*```json\n([\s\S]*?)\n```/.exec(doc);
  return JSON.parse(block![1]!) as Record<string, unknown>;
}

describe.each(testDatabases)('shops configure refuses unknown keys and non-sale document types on $name', (target) => {
  let database: Database;
  let ctx: CliContext;
  let dir: string;

  async function configure(settings: unknown): Promise<{ code: number; out: string; err: string }> {
    const file = path.join(dir, `settings-${randomBytes(4).toString('hex')}.json`);
    fs.writeFileSync(file, JSON.stringify(settings));
    let out = '';
    let err = '';
    const io: CliIo = { out: (l) => void (out += `${l}\n`), err: (l) => void (err += `${l}\n`), stdin: async () => '' };
    const code = await runShops(['configure', '--shop', SHOP, '--file', file], io, async () => ctx);
    return { code, out, err: err.replaceAll(file, '<file>') };
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shops-strict-'));
    database = await target.open();
    ctx = await cliContextOn(database, SHOP);
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function withMapping(change: (mapping: Record<string, unknown>) => void): Record<string, unknown> {
    const settings = documentedSettings();
    change(settings['mapping'] as Record<string, unknown>);
    return settings;
  }

  it.each([
    [
      'a misspelt key in mapping',
      withMapping((m) => (m['cafeDelivry'] = 'paper')),
      '  - mapping: "cafeDelivry" is not a setting of mapping: check its spelling (docs/merchants.md lists every setting)',
    ],
    [
      'a misspelt key two levels down',
      withMapping((m) => ((m['checkoutAttributes'] as Record<string, unknown>)['rucc'] = 'ruc')),
      '  - mapping.checkoutAttributes: "rucc" is not a setting of mapping.checkoutAttributes: check its spelling (docs/merchants.md lists every setting)',
    ],
    [
      'typeDocument 04',
      withMapping((m) => ((m['transactionDefaults'] as Record<string, unknown>)['typeDocument'] = '04')),
      '  - mapping.transactionDefaults.typeDocument: typeDocument 04 is a credit note referring to invoices: the app issues credit notes itself, from refunds; an order is invoiced with 01 (internal sale invoice)',
    ],
    ...['05', '06', '07', '09'].map((code) => [
      `typeDocument ${code}`,
      withMapping((m) => ((m['transactionDefaults'] as Record<string, unknown>)['typeDocument'] = code)),
      `mapping.transactionDefaults.typeDocument: typeDocument ${code} is a`,
    ]),
  ] as [string, Record<string, unknown>, string][])('%s → exit 2 naming the key, nothing saved', async (_what, settings, expected) => {
    const before = await ctx.shops.get(SHOP);
    const result = await configure(settings);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err.split('\n')[0]).toBe('shops configure: the settings file <file> is not valid:');
    expect(result.err).toContain(expected);
    expect(result.err).not.toContain('contraseña');
    const after = await ctx.shops.get(SHOP);
    expect(after).toEqual(before);
    expect(after?.credentials).toBeUndefined();
  });

  it('the documented file itself is saved, with typeDocument 01', async () => {
    const result = await configure(documentedSettings());
    expect(result.code).toBe(0);
    expect((await ctx.shops.get(SHOP))?.settings.mapping.transactionDefaults.typeDocument).toBe('01');
  });

  it('a switch of environment is said once saved, with what it means; saving again the same says nothing more', async () => {
    const production = { ...documentedSettings(), environment: 'produccion' };
    const first = await configure(production);
    expect(first.code).toBe(0);
    expect(first.out.split('\n')[1]).toBe(
      '  environment:   produccion (changed from pruebas: from now on documents are fiscally valid before the DGI, numbered in the production series; `series list` shows where each starts)',
    );
    expect((await configure(production)).out.split('\n')[1]).toBe('  environment:   produccion');
    expect((await configure(documentedSettings())).out.split('\n')[1]).toBe(
      '  environment:   pruebas (changed from produccion: from now on documents go to the test environment and are not fiscally valid)',
    );
  });
});
