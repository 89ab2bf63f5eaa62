// `npm run cli -- invoices retry|resend|pdfs` on several documents (issue 30 item 3), beside a running app on both
// databases: several ids or the list's filters, one line per document and a summary, exit 1 when any was refused;
// retry asks first on a terminal unless --yes; the ZIP's PDFs are byte-identical to their links; one id alone answers
// exactly as before.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { runInvoices } from '../../../src/cli/invoices-command.ts';
import type { CliIo } from '../../../src/cli/cli-context.ts';
import { type DocumentRow, formatFiscalNumber } from '../../../src/documents/store/index.ts';
import { pdfFileName } from '../../../src/reports/month-zip.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { bulkWorldFor, pdfLinks, resendsOf } from '../../support/bulk-world.ts';
import { harnessContext, invoicesCli } from '../../support/harness-cli.ts';
import { unzipEntries } from '../../support/zip-entries.ts';

const SHOP = 'tienda-lotes-cli.myshopify.com';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bulk-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(testDatabases)('invoices retry|resend|pdfs on several documents, on $name', (target) => {
  const world = bulkWorldFor(target, { shop: SHOP, firstOrderId: 7_400_000_001, good: 6, bad: 2 });
  const cli = (...args: string[]) => invoicesCli(world.h)(...args);
  const line = (verb: string, d: DocumentRow, tail: string) =>
    `${verb}  invoice ${d.id}  ${SHOP} ${d.orderName}  ${d.fiscalNumber === null ? '-' : formatFiscalNumber(d)}  ${tail}`;

  it('retry with several ids: a line per document, a summary, exit 1 as one was refused', async () => {
    const [a] = world.authorized;
    const [s1, s2] = world.stopped;
    const run = await cli('retry', s1!.id, a!.id, s2!.id);
    expect(run.out).toEqual([
      line('retried', s1!, 'back in the queue'),
      line('refused', a!, 'It is authorized: there is nothing to retry.'),
      line('retried', s2!, 'back in the queue'),
      '2 retried, 1 refused (of 3).',
    ]);
    expect(run.code).toBe(1);
    // Sent again, they stop again on the same wrong digit.
    for (const d of [s1!, s2!])
      await waitFor(
        async () => (await world.database.db.select().from(documents).where(eq(documents.id, d.id)))[0]!.status === 'needs_attention',
        20_000,
        'the stopped again',
      );
  });

  it('retry asks first on a terminal, and does nothing when declined; --yes does not ask', async () => {
    const asked: string[] = [];
    const open = harnessContext(world.h);
    const out: string[] = [];
    const io = (answer: boolean): CliIo => ({
      out: (l) => out.push(l),
      err: () => {},
      stdin: async () => '',
      confirm: async (q) => (asked.push(q), answer),
    });
    const ids = world.authorized.slice(0, 2).map((d) => d.id);
    expect(await runInvoices(['retry', ...ids], io(false), open)).toBe(1);
    expect(asked).toEqual([
      'Retry 2 documents: those stopped are sent to the gateway again, and those authorized are issued. Go on? [y/N] ',
    ]);
    expect(out).toEqual(['Nothing retried.']);
    out.length = 0;
    expect(await runInvoices(['retry', '--yes', ...ids], io(false), open)).toBe(1);
    expect(asked).toHaveLength(1);
    expect(out.at(-1)).toBe('0 retried, 2 refused (of 2).');
  });

  it('resend with the list’s filters: each authorized invoice queued once, a repeat queues none', async () => {
    const first = await cli('resend', '--shop', SHOP, '--status', 'authorized', '--kind', 'invoice');
    // The list's order: newest first.
    const newest = [...world.authorized].reverse();
    expect(first.out.slice(0, -1).sort()).toEqual(newest.map((d) => line('resent ', d, 'e-mail queued; the running app sends it')).sort());
    expect(first.out.at(-1)).toBe('6 resent, 0 refused (of 6).');
    expect(first.code).toBe(0);
    const ids = world.authorized.map((d) => d.id);
    expect(await resendsOf(world, ids)).toHaveLength(6);

    const again = await cli('resend', ...ids.slice(0, 2), '--search', 'x');
    expect([again.code, again.err]).toEqual([
      2,
      [
        'invoices resend: give invoice ids or filters, not both (invoices resend <invoice id> [<invoice id> …] | invoices resend <filters>)',
      ],
    ]);

    const stopped = await cli('resend', '--shop', SHOP, '--status', 'needs_attention');
    expect(stopped.out.at(-1)).toBe('0 resent, 2 refused (of 2).');
    expect(stopped.out[0]).toMatch(/ {2}Only an authorized document, with its PDF, can be e-mailed\.$/);
    expect(stopped.code).toBe(1);
  });

  it('one id alone answers as it always did', async () => {
    const [a] = world.authorized;
    const run = await cli('retry', a!.id);
    expect([run.code, run.err]).toEqual([
      1,
      [`invoices retry: invoice ${a!.id} is Authorized: only failed, needs-attention, waiting or retrying documents can be retried`],
    ]);
  });

  it('pdfs --out writes the ZIP, its PDFs byte-identical to their links; what has none is named and exit 1', async () => {
    const out = path.join(dir, `${target.name}.zip`);
    const ids = world.authorized.map((d) => d.id);
    const run = await cli('pdfs', ...ids, '--out', out);
    expect([run.code, run.out]).toEqual([0, [`6 PDFs written to ${out}, 0 left out.`]]);
    const entries = await unzipEntries(fs.readFileSync(out));
    expect([...entries.keys()]).toEqual(world.authorized.map((d) => pdfFileName(d)));
    const links = await pdfLinks(world, SHOP, ids);
    for (const d of world.authorized)
      expect(entries.get(pdfFileName(d))!.equals(Buffer.from(await (await fetch(links.get(d.id)!)).arrayBuffer()))).toBe(true);

    const missing = randomUUID();
    const mixed = await cli('pdfs', '--shop', SHOP, '--out', out);
    expect(mixed.code).toBe(1);
    expect(mixed.out.at(-1)).toBe(`6 PDFs written to ${out}, 2 left out.`);
    expect([...(await unzipEntries(fs.readFileSync(out))).keys()]).toHaveLength(7);
    const none = await cli('pdfs', world.stopped[0]!.id, missing, '--out', path.join(dir, 'none.zip'));
    expect(none.out).toEqual([
      `left out  ${missing}    It is not among this shop's documents.`,
      `left out  ${world.stopped[0]!.id}  ${world.stopped[0]!.orderName}  It has no PDF (only an authorized document has one).`,
      'None has a PDF; no file written.',
    ]);
    expect(none.code).toBe(1);
    expect(fs.existsSync(path.join(dir, 'none.zip'))).toBe(false);
  });
});
