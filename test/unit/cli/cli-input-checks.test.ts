// The operators' CLI in process: bad input (tokens, shop names, settings files) is refused with exit code 2 and
// one clear line before any data is opened, never echoing a secret; help goes to stdout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-context.ts';
import { runInvoices } from '../../../src/cli/invoices-command.ts';
import { runShops } from '../../../src/cli/shops-command.ts';

describe('CLI input checks, in process: refused before any data is opened', () => {
  const TOKEN = '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';
  async function run(command: 'shops' | 'invoices', args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const io: CliIo = { out: (l) => void (out += `${l}\n`), err: (l) => void (err += `${l}\n`), stdin: async () => stdin };
    const open = async () => {
      throw new Error('the command opened the data for bad input');
    };
    const code = command === 'shops' ? await runShops(args, io, open) : await runInvoices(args, io, open);
    return { code, out, err };
  }

  it.each([
    [['add', '--shop', 'tienda.myshopify.com', '--acces-token', TOKEN], /^shops add: unknown option --acces-token \(/],
    [['add', '--shop', 'tienda.myshopify.com', TOKEN], /^shops add: unexpected argument \(/],
    [['add', '--shop', 'tienda.myshopify.com', `--${TOKEN}`], /^shops add: unknown option \(/],
    [['add', '--shop', 'tienda.myshopify.com'], /^shops add: --access-token is required/],
    [['add', '--shop', 'tienda.myshopify.com', '--access-token'], /^shops add: --access-token needs a value/],
    [['add', '--shop', 'tienda.myshopify.com', '--access-token', 'abc'], /^shops add: --access-token is not an Admin API access token/],
    [['add', '--shop', 'tienda.myshopify.com', '--access-token', TOKEN, '--access-token', TOKEN], /^shops add: --access-token given twice/],
    [['add', '--access-token', TOKEN], /^shops add: --shop is required/],
    [['add', '--shop', TOKEN, '--access-token', TOKEN], /^shops add: --shop must be the store's myshopify\.com domain/],
    [['configure', '--shop', 'tienda.myshopify.com'], /^shops configure: --file is required/],
    [['list', '--json=yes'], /^shops list: --json takes no value/],
    [['frobnicate'], /^shops: unknown command "frobnicate" \(the commands are add, configure, list\)\n\nusage:/],
    [[], /^usage:/],
  ])('shops %j → exit 2', async (args, message) => {
    const result = await run('shops', args);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toMatch(message);
    expect(result.err).not.toContain(TOKEN);
  });

  it('an empty token on stdin is refused too', async () => {
    const result = await run('shops', ['add', '--shop', 'tienda.myshopify.com', '--access-token', '-'], '\n');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^shops add: --access-token is not an Admin API access token/);
  });

  it.each([
    [['show'], /^invoices show: the invoice id is required/],
    [['show', 'not-an-id'], /^invoices show: the invoice id must be a UUID/],
    [['show', '00000000-0000-4000-8000-000000000000', 'extra'], /^invoices show: unexpected argument/],
    [
      ['list', '--status', 'done'],
      /^invoices list: --status must be one of Queued \(pending\), Waiting \(waiting\), Needs attention \(needs_attention\), Failed \(failed\), Authorized \(completed\), Skipped \(skipped\)$/m,
    ],
    [['list', '--limit', '0'], /^invoices list: --limit must be a whole number from 1 to 10000/],
    [['list', '--shop', 'x'], /^invoices list: --shop must be the store's myshopify\.com domain/],
    [['retry'], /^invoices retry: give invoice ids, filters or --failed/],
    [['retry', '00000000-0000-4000-8000-000000000000', '--failed'], /^invoices retry: give invoice ids, filters or --failed, one of them/],
    [
      ['retry', '00000000-0000-4000-8000-000000000000', '--shop', 'tienda.myshopify.com'],
      /^invoices retry: give invoice ids or filters, not both/,
    ],
    [['retry', '00000000-0000-4000-8000-000000000000', '--status', 'failed'], /^invoices retry: give invoice ids or filters, not both/],
    [['retry', '--failed', '--kind', 'invoice'], /^invoices retry: --failed takes only --status and --shop/],
    [['retry', '00000000-0000-4000-8000-000000000000', 'not-an-id'], /^invoices retry: each invoice id must be a UUID/],
    [['resend'], /^invoices resend: give invoice ids or filters/],
    [['resend', '--from', '2026-02-30'], /^invoices resend: --from is not a calendar date/],
    [['resend', '--from', '2026-03-02', '--to', '2026-03-01'], /^invoices resend: --to must not be before --from/],
    [['pdfs', '--status', 'completed'], /^invoices pdfs: --out <file.zip> is required/],
    [
      ['retry', '--failed', '--status', 'completed'],
      /^invoices retry: --status must be one of Needs attention \(needs_attention\), Failed \(failed\)$/m,
    ],
    [['lst'], /^invoices: unknown command "lst" \(the commands are list, show, retry, resend, pdfs, correct, reinvoice\)\n\nusage:/],
  ])('invoices %j → exit 2', async (args, message) => {
    const result = await run('invoices', args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('settings files that are unreadable, not JSON or not valid are refused without quoting them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-settings-'));
    try {
      const broken = path.join(dir, 'broken.json');
      fs.writeFileSync(broken, '{\n  "credentials": { "GW_Token": "secreto-que-no-debe-salir" ,, }\n}');
      const notJson = await run('shops', ['configure', '--shop', 'tienda.myshopify.com', '--file', broken]);
      expect(notJson.code).toBe(2);
      expect(notJson.err).toMatch(
        new RegExp(`^shops configure: the settings file ${broken} is not valid JSON \\(line 2, column \\d+\\)\\n$`),
      );
      expect(notJson.err).not.toContain('secreto-que-no-debe-salir');

      const invalid = path.join(dir, 'invalid.json');
      fs.writeFileSync(
        invalid,
        JSON.stringify({ environment: 'prod', billingPoint: '000', enviroment: 'pruebas', credentials: { GW_Token: 'secreto-2' } }),
      );
      const rejected = await run('shops', ['configure', '--shop', 'tienda.myshopify.com', '--file', invalid]);
      expect(rejected.code).toBe(2);
      expect(rejected.err.split('\n')).toEqual([
        `shops configure: the settings file ${invalid} is not valid:`,
        '  - environment: environment must be "pruebas" or "produccion"',
        '  - billingPoint: billingPoint 000 is not allowed',
        '  - credentials.GW_Company: GW_Company (platform user) is required',
        '  - credentials.Id_Pac: Id_Pac (certification provider id) is required',
        '  - credentials.Enterprise: Enterprise (enterprise code) is required',
        '  - credentials.Company: Company (taxpayer user at the provider) is required',
        '  - credentials.Token: Token (taxpayer password at the provider) is required',
        '  - settings: "enviroment" is not a setting: check its spelling (docs/merchants.md lists every setting)',
        '',
      ]);
      expect(rejected.err).not.toContain('secreto-2');

      const missing = path.join(dir, 'nope.json');
      expect(await run('shops', ['configure', '--shop', 'tienda.myshopify.com', '--file', missing])).toEqual({
        code: 2,
        out: '',
        err: `shops configure: cannot read the settings file ${missing}: no such file\n`,
      });
      expect((await run('shops', ['configure', '--shop', 'tienda.myshopify.com', '--file', dir])).err).toMatch(/: it is a directory\n$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('help goes to stdout with exit 0', async () => {
    expect(await run('shops', ['--help'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^usage:\n {2}npm run cli -- shops add /),
      err: '',
    });
    expect(await run('invoices', ['help'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^usage:\n {2}npm run cli -- invoices list /),
      err: '',
    });
  });
});
