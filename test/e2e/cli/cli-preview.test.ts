// `npm run cli -- preview …` as a user runs it: stdout, stderr and exit codes; an order's invoice, and with
// --refund the credit note of a refund of it (numbered after the notes given with --credited).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { numberDocument } from '../../../mappers/invoice/document-numbering.ts';
import { type GatewayDocument, REFERENCE_FIELDS } from '../../../mappers/gateway/gateway-document.ts';
import { defaultMappingSettings } from '../../../mappers/invoice/mapping-settings.ts';
import { orderToDraft } from '../../../mappers/invoice/order-to-document.ts';
import { refundToCreditNote } from '../../../mappers/credit-note/refund-to-credit-note.ts';
import { USAGE } from '../../../src/cli/preview-command.ts';
import { INVOICE_CUFE_STAND_IN } from '../../../src/cli/preview-credit-note.ts';
import { mapFixture, orderFixturePath } from '../../support/order-fixtures.ts';
import { REFUND_FIXTURES_DIR, type RefundFixture, fixtureOrder, fixtureRefund, readRefundFixture } from '../../support/refund-fixtures.ts';
import { ROOT } from '../../support/paths.ts';
import { CLI_START_ARGS } from '../../../sim/harness/app-process.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'cli-preview-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [...CLI_START_ARGS, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
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
      'preview: missing the order file (usage: npm run cli -- preview <order.json> [--settings <file>] [--transactions <file>] [--refund <refund.json> [--credited <note.json> …]])\n',
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
    expect(unknownOption.stderr).toMatch(/^preview: unknown option --setings \(usage: /);
  });

  describe('with --refund: the credit note', () => {
    const refundFile = (name: RefundFixture, which: 'order' | 'refund') => path.join(REFUND_FIXTURES_DIR, `${name}.${which}.json`);

    /** The note the pipeline maps from the printed document's own invoice (same clock), numbered `number`. */
    function expectedNote(name: RefundFixture, printed: GatewayDocument, credited: GatewayDocument[], number: number) {
      const order = fixtureOrder(name);
      const mapped = orderToDraft({ order, settings: defaultMappingSettings });
      if (!mapped.ok) throw new Error(name);
      const at = new Date(printed.dataTransaction.dateBroadcast);
      const invoice = numberDocument(mapped.draft, { branchCode: '0000', billingPoint: '001', fiscalNumber: 1 }, at);
      const note = refundToCreditNote({
        refund: fixtureRefund(name),
        order,
        invoice: { document: invoice, cufe: INVOICE_CUFE_STAND_IN },
        credited,
        settings: defaultMappingSettings,
      });
      if (note.kind !== 'draft') throw new Error(note.kind);
      return numberDocument(note.draft, { branchCode: '0000', billingPoint: '001', fiscalNumber: number }, at);
    }

    it('prints the note of a refund, numbered 1 after the invoice mapped from its order, naming that invoice', () => {
      const run = cli('preview', refundFile('partial-line', 'order'), '--refund', refundFile('partial-line', 'refund'));
      expect([run.code, run.stderr]).toEqual([0, '']);
      const note = JSON.parse(run.stdout) as GatewayDocument;
      expect(note).toEqual(expectedNote('partial-line', note, [], 1));
      expect(note.dataTransaction).toMatchObject({ typeDocument: '04', natureOperation: '11', numberDocumentFiscal: '0000000001' });
      expect(note.dataTransaction[REFERENCE_FIELDS.list]).toEqual([
        {
          [REFERENCE_FIELDS.date]: note.dataTransaction.dateBroadcast,
          [REFERENCE_FIELDS.cufe]: '(the CUFE the gateway gives the invoice)',
          [REFERENCE_FIELDS.paperNumber]: '',
          [REFERENCE_FIELDS.fiscalPrinterNumber]: '',
        },
      ]);
      expect(note.totalsSubTotals.totalInvoice).toBe('47.35');
      expect(note.listItems.map((i) => [i.amount, i.priceUnitDiscount, i.priceItem, i.valueITBMS])).toEqual([
        ['1.00', '2.87', '22.13', '1.55'],
        ['1.00', '2.88', '22.12', '1.55'],
      ]);
    });

    it('with the notes already credited: numbered after them, never beyond the invoice', () => {
      const first = file(
        'first-note.json',
        cli('preview', refundFile('partial-line', 'order'), '--refund', refundFile('partial-line', 'refund')).stdout,
      );
      const order = refundFile('second-partial', 'order');
      const run = cli('preview', order, '--refund', refundFile('second-partial', 'refund'), '--credited', first);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const note = JSON.parse(run.stdout) as GatewayDocument;
      expect(note.dataTransaction.numberDocumentFiscal).toBe('0000000002');
      expect(note.totalsSubTotals.totalInvoice).toBe('40.18');
      expect(note).toEqual(expectedNote('second-partial', note, [JSON.parse(readFileSync(first, 'utf8'))], 2));

      // The same refund against two copies of the first note: more than the invoice.
      const over = cli('preview', order, '--refund', refundFile('second-partial', 'refund'), '--credited', first, '--credited', first);
      expect(over.code).toBe(1);
      expect(over.stdout).toBe('');
      expect(over.stderr.split('\n')[0]).toBe('The refund cannot be credited (3 problems):');
      expect(over.stderr).toContain(
        "- credit_exceeds_invoice: With this refund the credit notes would credit 94.70 in total, more than the invoice's 87.53.",
      );
    });

    it('a refund that returned no money: no note, and why (exit 1)', () => {
      const refund = readRefundFixture('partial-line', 'refund');
      const failed = { ...refund, transactions: (refund.transactions as object[]).map((t) => ({ ...t, status: 'failure' })) };
      const run = cli('preview', refundFile('partial-line', 'order'), '--refund', file('failed-refund.json', JSON.stringify(failed)));
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: 'No credit note to issue: The refund returned no money (a restock only): there is no credit note to issue.\n',
      });
    });

    it('bad input: a note without its refund, another order’s refund, a credited file that is no credit note (exit 2)', () => {
      const order = refundFile('partial-line', 'order');
      const refund = refundFile('partial-line', 'refund');
      const invoice = file('invoice.json', cli('preview', order).stdout);
      const cases: [string[], string][] = [
        [[order, '--credited', invoice], `preview: --credited goes with --refund (${USAGE})\n`],
        [
          [refundFile('full-refund', 'order'), '--refund', refund],
          `preview: the refund file ${refund} refunds gid://shopify/Order/5900000001102, not the order file's gid://shopify/Order/5900000001101\n`,
        ],
        [
          [order, '--refund', refund, '--credited', invoice],
          `preview: the credited note file ${invoice} is not a credit note (typeDocument 01, not 04)\n`,
        ],
        [
          [order, '--refund', refund, '--credited', file('not-a-note.json', '{"listItems": []}')],
          `preview: the credited note file ${path.join(scratch, 'not-a-note.json')} is not a gateway document: codeBranchIssuer: Invalid input: expected string, received undefined\n`,
        ],
      ];
      for (const [args, stderr] of cases) expect(cli('preview', ...args)).toEqual({ code: 2, stdout: '', stderr });
    });
  });

  it('an unknown or missing command prints the usage and exits 2', () => {
    const unknown = cli('previw');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown command: previw\n\nusage: npm run cli -- <command>/);
    expect(unknown.stderr).toContain('  preview <order.json> [--settings <file>]');
    expect(cli().code).toBe(2);
  });
});
