// `invoices list|show|retry` in process, on both databases: no control character from data reaches the
// terminal (issue 14 item 5: order names, buyer attributes, gateway messages were printed raw) while
// --json stays exact JSON; the page's status words, Panama times, the gateway calls, and retry --failed
// taking needs-attention too, like the page's button (issue 17); credit notes by kind, under their invoice, and
// their invoice, reference and refund (issue 15).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CliContext, CliIo } from '../../../src/cli/cli-context.ts';
import { runInvoices } from '../../../src/cli/invoices-command.ts';
import { STATUS_WORDS, panamaTime } from '../../../src/cli/document-words.ts';
import type { Database } from '../../../src/db/database.ts';
import { documents, gatewayCalls } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { invoiceRow, legacyMessage } from '../../support/documents.ts';
import { message } from '../../../src/messages/message.ts';
import { REFERENCE_FIELDS } from '../../../mappers/gateway/gateway-document.ts';
import { cliContextOn } from '../../support/harness-cli.ts';

const SHOP = 'tienda-terminal.myshopify.com';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Clear the screen, retitle the window, bell; a C1 CSI, DEL, a right-to-left override and a forged line. */
const POISON = '\u001b[2J\u001b]0;pwned\u0007\u009b31m\u007f\u202e\nFAKE LINE';
/** What a terminal must never receive from data (a newline only as a line break between lines). */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe.each(testDatabases)('invoices commands on $name', (target) => {
  let database: Database;
  let ctx: CliContext;

  async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => void out.push(...l.split('\n')), err: (l) => void err.push(...l.split('\n')), stdin: async () => '' };
    const code = await runInvoices(args, io, async () => ctx);
    for (const line of [...out, ...err]) expect(line).not.toMatch(CONTROL);
    return { code, out, err };
  }

  beforeAll(async () => {
    database = await target.open();
    ctx = await cliContextOn(database, SHOP);
    const row = { shop: SHOP, currency: 'USD', snapshot: { name: POISON }, totalCents: 7578 };
    await database.db.insert(documents).values([
      invoiceRow({
        ...row,
        id: id(1),
        orderGid: 'gid://shopify/Order/1',
        orderName: `#1001${POISON}`,
        status: 'completed',
        step: 'done',
        environment: 'pruebas',
        branchCode: '0000',
        billingPoint: '001',
        fiscalNumber: 1,
        cufe: 'FE0120000155596713-2-2015-5900002026112100000000010010123784932448',
        authorizedAt: new Date('2026-11-25T07:32:40Z'),
        createdAt: new Date('2026-11-25T07:32:23Z'),
      }),
      invoiceRow({
        ...row,
        id: id(2),
        orderGid: 'gid://shopify/Order/2',
        orderName: '#1002',
        status: 'needs_attention',
        lastErrorKind: 'mapping',
        lastError: legacyMessage(`The cart attribute "ruc" holds ${POISON}, not a RUC.`),
        createdAt: new Date('2026-01-01T04:59:00Z'),
      }),
      invoiceRow({
        ...row,
        id: id(3),
        orderGid: 'gid://shopify/Order/3',
        orderName: '#1003',
        status: 'failed',
        createdAt: new Date('2025-12-31T12:00:00Z'),
      }),
    ]);
    await database.db.insert(gatewayCalls).values([
      {
        documentId: id(1),
        shop: SHOP,
        operation: 'SendDocument',
        outcome: 'authorized',
        code: '200',
        message: `Autorizado ${POISON}`,
        durationMs: 212,
        createdAt: new Date('2026-11-25T07:32:39Z'),
      },
      {
        documentId: id(1),
        shop: SHOP,
        operation: 'DownloadPDF',
        outcome: 'ok',
        code: '200',
        message: null,
        durationMs: 48,
        createdAt: new Date('2026-11-25T07:32:40Z'),
      },
    ]);
  });
  afterAll(async () => database?.close());

  it('list: the page’s words, Panama times, and data made visible, never obeyed', async () => {
    const { code, out } = await cli('list', '--shop', SHOP);
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^ID +SHOP +ORDER +KIND +STATUS +STEP +NUMBER +TOTAL +CREATED \(PANAMÁ\) +LAST ERROR$/);
    const row = (n: number) => out.find((l) => l.startsWith(id(n)))!.replace(/ {2,}/g, ' | ');
    expect(row(1)).toBe(
      `${id(1)} | ${SHOP} | #1001\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e\\u000aFAKE LINE | invoice | Authorized | done | 0000-001-0000000001 | 75.78 USD | 25/11/2026 02:32`,
    );
    expect(row(2)).toMatch(
      new RegExp(
        `^${id(2)} \\| ${SHOP} \\| #1002 \\| invoice \\| Needs attention \\| send \\| - \\| 75\\.78 USD \\| 31/12/2025 23:59 \\| The cart attribute "ruc" holds \\\\u001b\\[2J`,
      ),
    );
    expect(row(3)).toContain(' | Failed | ');
    expect(out).toHaveLength(4);
  });

  it('list and show --json: exact JSON, parsed back to the stored text', async () => {
    const listed = await cli('list', '--json');
    const rows = JSON.parse(listed.out.join('\n')) as { id: string; orderName: string; status: string; lastError: string | null }[];
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [id(1), 'completed'],
      [id(2), 'needs_attention'],
      [id(3), 'failed'],
    ]);
    expect(rows[0]!.orderName).toBe(`#1001${POISON}`);
    expect(rows[1]!.lastError).toBe(`The cart attribute "ruc" holds ${POISON}, not a RUC.`);

    const shown = JSON.parse((await cli('show', id(1), '--json')).out.join('\n')) as Record<string, unknown>;
    expect(shown).toMatchObject({ orderName: `#1001${POISON}`, status: 'completed', createdAt: '2026-11-25T07:32:23.000Z' });
    expect(shown['gatewayCalls']).toEqual([
      { operation: 'SendDocument', outcome: 'authorized', code: '200', durationMs: 212, at: '2026-11-25T07:32:39.000Z' },
      { operation: 'DownloadPDF', outcome: 'ok', code: '200', durationMs: 48, at: '2026-11-25T07:32:40.000Z' },
    ]);
  });

  it('show: status word, labelled Panama times and the gateway calls', async () => {
    const { code, out } = await cli('show', id(1));
    expect(code).toBe(0);
    expect(out).toContain('status:            Authorized (completed)');
    expect(out).toContain('createdAt:         25/11/2026 02:32 (Panamá)');
    expect(out).toContain('authorizedAt:      25/11/2026 02:32 (Panamá)');
    expect(out).toContain(`orderName:         #1001\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e\\u000aFAKE LINE`);
    const calls = out.slice(out.indexOf('gatewayCalls:') + 1).map((l) => l.trim().replace(/ {2,}/g, ' | '));
    expect(calls).toEqual([
      'TIME (PANAMÁ) | OPERATION | OUTCOME | CODE | DURATION | MESSAGE',
      '25/11/2026 02:32 | SendDocument | authorized | 200 | 212 ms | Autorizado \\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e FAKE LINE',
      '25/11/2026 02:32 | DownloadPDF | ok | 200 | 48 ms',
    ]);
    const problems = await cli('show', id(2));
    expect(problems.out).toContain('status:            Needs attention (needs_attention)');
    expect(problems.out).toContain('gatewayCalls:      none');
  });

  it('--status takes the words as well as the stored values', async () => {
    for (const word of ['authorized', 'Authorized', 'completed']) {
      const rows = JSON.parse((await cli('list', '--status', word, '--json')).out.join('\n')) as { id: string }[];
      expect([word, rows.map((r) => r.id)]).toEqual([word, [id(1)]]);
    }
    for (const word of ['needs attention', 'Needs-Attention', 'needs_attention']) {
      const rows = JSON.parse((await cli('list', '--status', word, '--json')).out.join('\n')) as { id: string }[];
      expect([word, rows.map((r) => r.id)]).toEqual([word, [id(2)]]);
    }
    const bad = await cli('list', '--status', 'bogus');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe(
      'invoices list: --status must be one of Queued (pending), Waiting (waiting), Needs attention (needs_attention), Failed (failed), Authorized (completed), Skipped (skipped)',
    );
  });

  it('retry --failed puts back failed and needs-attention invoices, like the page’s button; --status failed only those', async () => {
    const onlyFailed = await cli('retry', '--failed', '--status', 'failed', '--shop', SHOP);
    expect(onlyFailed.out).toEqual([`1 invoice (failed) back in the queue for ${SHOP}.`]);
    const both = await cli('retry', '--failed');
    expect(both.out).toEqual(['1 invoice (failed or needs attention) back in the queue.']);
    const rows = await database.db.select({ id: documents.id, status: documents.status }).from(documents);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [id(1)]: 'completed', [id(2)]: 'pending', [id(3)]: 'pending' });
    const queued = await cli('list', '--status', 'queued');
    // Queued again: #1002 after its mapping error (Retrying, as the page says), #1003 of a shop not enabled (On hold).
    expect(queued.out.slice(1).map((l) => l.split(/ {2,}/).slice(2, 5))).toEqual([
      ['#1002', 'invoice', 'Retrying'],
      ['#1003', 'invoice', 'On hold'],
    ]);
    expect((await cli('retry', '--failed', '--status', 'completed')).code).toBe(2);
    const completed = await cli('retry', id(1));
    expect(completed.err).toEqual([
      `invoices retry: invoice ${id(1)} is Authorized: only failed, needs-attention, waiting or retrying documents can be retried`,
    ]);
  });

  it('credit notes: list --kind, an invoice’s notes, and a note’s invoice, reference and refund in show', async () => {
    const invoiceCufe = 'FE0120000155596713-2-2015-5900002026112100000000020010123784932448';
    const noteCufe = 'FE0420000155596713-2-2015-5900002026112600000000010010123784932441';
    const base = { shop: SHOP, currency: 'USD', snapshot: {} };
    await database.db.insert(documents).values([
      invoiceRow({
        ...base,
        id: id(11),
        orderGid: 'gid://shopify/Order/11',
        orderName: '#1011',
        totalCents: 7578,
        status: 'completed',
        step: 'done',
        branchCode: '0000',
        billingPoint: '001',
        fiscalNumber: 2,
        cufe: invoiceCufe,
        createdAt: new Date('2026-11-25T07:00:00Z'),
      }),
      {
        ...base,
        id: id(12),
        kind: 'credit_note',
        documentType: '04',
        sourceKey: 'gid://shopify/Refund/9400000000077',
        orderGid: 'gid://shopify/Order/11',
        orderName: '#1011',
        invoiceId: id(11),
        totalCents: 2622,
        status: 'completed',
        step: 'done',
        branchCode: '0000',
        billingPoint: '001',
        fiscalNumber: 1,
        cufe: noteCufe,
        document: {
          dataTransaction: {
            [REFERENCE_FIELDS.list]: [
              {
                [REFERENCE_FIELDS.date]: '2026-11-25T02:00:00-05:00',
                [REFERENCE_FIELDS.cufe]: invoiceCufe,
                [REFERENCE_FIELDS.paperNumber]: '',
                [REFERENCE_FIELDS.fiscalPrinterNumber]: '',
              },
            ],
          },
        },
        createdAt: new Date('2026-11-26T07:00:00Z'),
      },
      {
        ...base,
        id: id(13),
        kind: 'credit_note',
        documentType: '04',
        sourceKey: 'gid://shopify/Refund/9400000000078',
        orderGid: 'gid://shopify/Order/13',
        orderName: '',
        totalCents: 500,
        status: 'waiting',
        lastError: message('waiting_for_invoice', { orderName: 'gid://shopify/Order/13' }),
        nextAttemptAt: new Date(Date.now() + 3_600_000),
        createdAt: new Date('2026-11-27T07:00:00Z'),
      },
    ]);

    const listed = await cli('list', '--kind', 'credit_note');
    expect(listed.out.slice(1).map((l) => l.split(/ {2,}/).slice(0, 7))).toEqual([
      [id(13), SHOP, 'credit note', 'Waiting', 'send', '-', '5.00 USD'],
      [id(12), SHOP, '#1011', 'credit note', 'Authorized', 'done', '0000-001-0000000001'],
    ]);
    const invoices = JSON.parse((await cli('list', '--kind', 'invoice', '--json')).out.join('\n')) as { id: string; kind: string }[];
    expect(invoices.map((r) => r.kind)).toEqual(['invoice', 'invoice', 'invoice', 'invoice']);
    const bad = await cli('list', '--kind', 'nota');
    expect([bad.code, bad.err]).toEqual([2, ['invoices list: --kind must be one of invoice, credit_note']]);

    const invoice = await cli('show', id(11));
    expect(invoice.out.slice(invoice.out.indexOf('creditNotes:') + 1, -1).map((l) => l.trim().replace(/ {2,}/g, ' | '))).toEqual([
      'ID | NUMBER | STATUS | TOTAL | CUFE',
      `${id(12)} | 0000-001-0000000001 | Authorized | 26.22 USD | ${noteCufe}`,
    ]);
    expect((await cli('show', id(1))).out).toContain('creditNotes:       none');

    const note = await cli('show', id(12));
    expect(note.out).toContain('kind:              credit_note');
    expect(note.out).toContain('refundId:          gid://shopify/Refund/9400000000077');
    expect(note.out).toContain(`invoice:           ${id(11)}  0000-001-0000000002  Authorized`);
    expect(note.out).toContain(`reference:         CUFE ${invoiceCufe} of 25/11/2026 02:00 (Panamá)`);
    const waiting = await cli('show', id(13));
    expect(waiting.out).toContain('status:            Waiting (waiting)');
    expect(waiting.out).toContain('invoice:           none yet (the order has no invoice)');
    expect(waiting.out.some((l) => l.startsWith('reference:'))).toBe(false);

    const json = JSON.parse((await cli('show', id(12), '--json')).out.join('\n')) as Record<string, unknown>;
    expect(json).toMatchObject({
      kind: 'credit_note',
      invoiceId: id(11),
      refundId: 'gid://shopify/Refund/9400000000077',
      invoice: { id: id(11), status: 'completed', fiscalNumber: '0000-001-0000000002', total: '75.78', cufe: invoiceCufe },
      reference: { cufe: invoiceCufe, date: '2026-11-25T02:00:00-05:00' },
    });
    expect(JSON.parse((await cli('show', id(11), '--json')).out.join('\n')).creditNotes).toEqual([
      { id: id(12), status: 'completed', fiscalNumber: '0000-001-0000000001', total: '26.22', cufe: noteCufe },
    ]);

    // Retry, like the page's button: a waiting note is made due now; an authorized one is refused and left alone.
    const hurried = await cli('retry', id(13));
    expect([hurried.code, hurried.err, hurried.out]).toEqual([
      0,
      [`warning: invoicing is disabled for ${SHOP}; the credit note waits until it is enabled.`],
      [`Credit note ${id(13)} (${SHOP} gid://shopify/Order/13) is due now.`],
    ]);
    const [due] = await database.db
      .select()
      .from(documents)
      .where(eq(documents.id, id(13)));
    expect([due!.status, due!.nextAttemptAt.getTime() <= Date.now()]).toEqual(['waiting', true]);
    const refused = await cli('retry', id(12));
    expect([refused.code, refused.err]).toEqual([
      1,
      [`invoices retry: credit note ${id(12)} is Authorized: only failed, needs-attention, waiting or retrying documents can be retried`],
    ]);
  });
});

describe('one vocabulary', () => {
  it('the CLI’s status words and times are the admin page’s (English, like the rest of the CLI)', async () => {
    // The page's own modules: its English words and its date format (plain ES modules without a DOM).
    const words = '../../../src/admin/public/words-en.js';
    const format = '../../../src/admin/public/format.js';
    const { WORDS_EN } = (await import(words)) as { WORDS_EN: Record<string, string> };
    const { formatDateTime } = (await import(format)) as { formatDateTime(iso: string): string };
    for (const [key, word] of Object.entries(STATUS_WORDS)) expect([key, WORDS_EN[`status.${key}`]]).toEqual([key, word]);
    for (const iso of ['2026-11-25T07:32:23Z', '2026-01-01T04:59:59Z', '2026-01-01T05:00:00Z', '2028-02-29T23:05:00Z']) {
      expect([iso, panamaTime(new Date(iso))]).toEqual([iso, formatDateTime(iso)]);
    }
  });
});
