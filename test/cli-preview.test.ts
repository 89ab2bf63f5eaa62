// `node src/cli/cli.ts preview …` as a user runs it: stdout, stderr and exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapFixture, orderFixturePath } from './support/order-fixtures.ts';

const ROOT = path.join(import.meta.dirname, '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'cli-preview-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, ['src/cli/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function file(name: string, content: string): string {
  const p = path.join(scratch, name);
  writeFileSync(p, content);
  return p;
}

/** The document the fixture maps to, with the preview's clock. */
function expectedDocument(name: string, dateBroadcast: string) {
  const result = mapFixture(name);
  if (!result.ok) throw new Error(name);
  return { ...result.document, dataTransaction: { ...result.document.dataTransaction, dateBroadcast } };
}

describe('cli preview', () => {
  it('prints the document of an order as JSON and exits 0', () => {
    const run = cli('preview', orderFixturePath('tax-inclusive'));
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed.dataTransaction.dateBroadcast).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
    expect(printed).toEqual(expectedDocument('tax-inclusive', printed.dataTransaction.dateBroadcast));
    expect(printed.dataTransaction.numberDocumentFiscal).toBe('0000000001');
    expect(run.stderr).toBe('');
  });

  it("reads the order's transactions from the file beside it", () => {
    const run = cli('preview', orderFixturePath('gift-card-payment'));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).totalsSubTotals.listFormPayment).toEqual([
      { formPaymentInvoice: '07', valueFeePaid: '50.00' },
      { formPaymentInvoice: '03', valueFeePaid: '84.82' },
    ]);
  });

  it('lists the problems on stderr and exits 1', () => {
    const run = cli('preview', orderFixturePath('bad-check-digit'));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'The order cannot be invoiced (1 problem):\n' +
        '- ruc_check_digit_invalid [note_attributes.dv]: The check digit (DV) 59 does not belong to the RUC 155596713-2-2016; one of them was mistyped. Confirm the RUC and DV with the customer, correct the order, then retry.\n',
    );
  });

  it('an unreadable order body is a mapping problem too (exit 1)', () => {
    const run = cli('preview', file('not-an-order.json', '{"currency": "USD"}'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('- order_unreadable [line_items]:');
  });

  it('mapping settings from a file: a mapped tax rate', () => {
    const settings = file('mapping.json', JSON.stringify({ taxRateCodes: { '0.08': '01' } }));
    const run = cli('preview', orderFixturePath('unknown-rate'), '--settings', settings);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).totalsSubTotals.totalInvoice).toBe('73.23');
  });

  it('shop settings from a file: branch and billing point from it', () => {
    const settings = file('shop.json', JSON.stringify({ branchCode: '0002', billingPoint: '005', mapping: { includeTips: true } }));
    const run = cli('preview', orderFixturePath('tip'), '--settings', settings);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed.codeBranchIssuer).toBe('0002');
    expect(printed.dataTransaction.pointBillingFiscal).toBe('005');
    expect(printed.totalsSubTotals.totalInvoice).toBe('21.19');
  });

  it.each([
    [['preview', 'missing.json'], 'preview: cannot read the order file missing.json: no such file\n'],
    [
      ['preview'],
      'preview: missing the order file (usage: npm run cli -- preview <order.json> [--settings <file>] [--transactions <file>])\n',
    ],
  ])('bad input %j: one line on stderr, exit 2', (args, message) => {
    const run = cli(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(message);
    expect(run.stdout).toBe('');
  });

  it('bad input: not JSON, invalid settings, unknown option — one line each, exit 2', () => {
    const notJson = cli('preview', file('broken.json', '{"id": 1,'));
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^preview: the order file .*broken\.json is not valid JSON \(line 1, column 10\)\n$/);

    // A broken settings file holding a password: the error says where, never the text around it.
    const leaky = cli(
      'preview',
      file('ok.json', '{}'),
      '--settings',
      file('leaky.json', '{"credentials": {"Token": "s3cret-token" "Company": 1}}'),
    );
    expect(leaky.code).toBe(2);
    expect(leaky.stderr).toMatch(/^preview: the settings file .*leaky\.json is not valid JSON \(line 1, column \d+\)\n$/);
    expect(leaky.stderr).not.toContain('s3cret');

    const badSettings = file('bad-settings.json', JSON.stringify({ defaultPaymentForm: '10', includeTips: 'yes' }));
    const invalid = cli('preview', orderFixturePath('tip'), '--settings', badSettings);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe(
      `preview: the settings file ${badSettings} is not valid: defaultPaymentForm: the payment form must be one of: 01 (credit), 02 (cash), 03 (credit card), 04 (debit card), 05 (loyalty card), 06 (voucher), 07 (gift card), 08 (bank transfer or deposit), 09 (cheque), 99 (other); includeTips: includeTips must be true or false\n`,
    );

    const unknownOption = cli('preview', orderFixturePath('tip'), '--setings', 'x.json');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr.split('\n')).toHaveLength(2);
    expect(unknownOption.stderr).toMatch(/^preview: Unknown option '--setings'/);
  });

  it('an unknown or missing command prints the usage and exits 2', () => {
    const unknown = cli('previw');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown command: previw\n\nusage: npm run cli -- <command>/);
    expect(unknown.stderr).toContain('  preview <order.json> [--settings <file>]');
    expect(cli().code).toBe(2);
  });
});
