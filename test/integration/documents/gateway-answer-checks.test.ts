// A gateway that lies, over HTTP through the fault proxy, on both databases (issue 25, items 3–7): a fake or foreign
// CUFE, another document's PDF, a note's borrowed CUFE, 102 forever and secrets echoed never complete a document,
// never reach a buyer or Shopify, and never show a secret; once the gateway tells the truth, a retry completes.
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documentEmails, documents } from '../../../src/db/schema.ts';
import { retryDocuments } from '../../../src/documents/store/index.ts';
import { createLogger } from '../../../src/logger.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../../../sim/sandbox/sandbox-gateway.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { credentialsFor, waitFor } from '../../../sim/harness/harness.ts';
import { lastErrorText } from '../../support/documents.ts';
import { faultHarnessFor } from '../../support/fault-harness.ts';

const SECRET = 'cl@ve s/+"ecreta%ñ';
const logLines: string[] = [];
const logger = createLogger(
  'info',
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
);

/** Any readable form of the secrets in this text. */
function showsSecret(text: string): boolean {
  const forms = [SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1), DEFAULT_SANDBOX_AUTH_TOKEN];
  const cores = [0, 1, 2].map((k) =>
    Buffer.from('x'.repeat(k) + SECRET)
      .toString('base64')
      .slice(k + 2, -4),
  );
  return [...forms, ...cores].some((f) => text.includes(f));
}

describe.each(testDatabases)('a lying gateway on $name', (target) => {
  const run = faultHarnessFor(target, () => ({ gatewayTimeoutMs: 2000, logger, env: { WORKER_MAX_ATTEMPTS: '6' } }));

  const emailsOf = async (id: string) => run.database.db.select().from(documentEmails).where(eq(documentEmails.documentId, id));
  const retry = async (shop: string, id: string) => {
    await retryDocuments(run.database.db, { shop, ids: [id] });
    run.h.app.worker.wake();
  };

  it('a CUFE of 66 × X, one naming another number, or another document’s: needs attention, nothing written or e-mailed', async () => {
    const shop = await run.shop();
    await run.until(await run.pay(shop), ['completed']);
    for (const fault of [{ kind: 'fake_cufe' }, { kind: 'cufe_other_number' }, { kind: 'duplicate_cufe' }] as const) {
      run.gateway.setRules([{ operation: 'SendDocument', fault, times: 1 }]);
      const gid = await run.pay(shop);
      const row = await run.until(gid, ['needs_attention']);
      expect(row).toMatchObject({ lastErrorKind: 'unverified', cufe: null, sendMayHaveReached: true, step: 'send' });
      expect(lastErrorText(row)).toMatch(/^The provider answered that the invoice 0000-001-\d{10} was authorized, but its answer does not/);
      expect(run.h.simulator.metafields(gid)).toEqual([]);
      expect(await emailsOf(row.id)).toEqual([]);
      // Told the truth, a person's retry finds the document at the gateway (102, StatusDocument, its PDF) and completes it.
      run.gateway.setRules([]);
      await retry(shop, row.id);
      const done = await run.until(gid, ['completed']);
      expect(done.fiscalNumber).toBe(row.fiscalNumber);
      expect(done.cufe).toMatch(new RegExp(`^FE01.{36}${String(row.fiscalNumber).padStart(10, '0')}001`));
    }
  });

  it("another document's PDF is never kept: fetched again, then needs attention; the buyer gets nothing", async () => {
    const shop = await run.shop();
    await run.until(await run.pay(shop), ['completed']);
    run.gateway.setRules([{ operation: 'DownloadPDF', fault: { kind: 'other_pdf' }, times: 2 }]);
    const gid = await run.pay(shop);
    const row = await run.until(gid, ['needs_attention']);
    expect(row).toMatchObject({ step: 'pdf', lastErrorKind: 'unverified', lastErrorCode: 'pdf_mismatch' });
    expect(await run.calls(row.id)).toEqual(['SendDocument:authorized:200', 'DownloadPDF:pdf:200', 'DownloadPDF:pdf:200']);
    expect(await emailsOf(row.id)).toEqual([]);
    expect(run.h.simulator.metafields(gid)).toEqual([]);
    await retry(shop, row.id);
    expect((await run.until(gid, ['completed'])).cufe).toBe(row.cufe);
  });

  it("a credit note whose answer was lost adopts its own CUFE from its PDF, never its invoice's", async () => {
    const shop = await run.shop();
    const gid = await run.pay(shop);
    const invoice = await run.until(gid, ['completed']);
    run.gateway.setRules([{ operation: 'SendDocument', bodyContains: '"typeDocument":"04"', fault: { kind: 'lose_answer' }, times: 1 }]);
    const orderId = Number(gid.split('/').pop());
    await run.h.simulator.refund(
      shop,
      gid,
      { lines: [{ lineItemId: orderId * 100, quantity: 1 }] },
      `${run.h.app.url}/webhooks/refunds/create`,
    );
    const note = await waitFor(
      async () =>
        (await run.database.db.select().from(documents).where(eq(documents.orderGid, gid))).find(
          (r) => r.kind === 'credit_note' && r.status === 'completed',
        ),
      30_000,
      'the note',
    );
    expect(note.cufe).not.toBe(invoice.cufe);
    expect(note.cufe).toMatch(/^FE04.{36}0000000001001/);
    expect((await run.calls(note.id)).slice(0, 3)).toEqual([
      'SendDocument:unavailable:-',
      'SendDocument:duplicate:102',
      'StatusDocument:authorized:200',
    ]);
  });

  it('102 to every SendDocument: at most 3 numbers skipped (each confirmed by StatusDocument), then a person decides', async () => {
    const shop = await run.shop();
    run.gateway.setRules([
      { operation: 'SendDocument', fault: { kind: 'code', code: '102', message: 'documento ya existe' } },
      {
        operation: 'StatusDocument',
        fault: { kind: 'answer', body: { code: '200', statusDocument: 'Autorizada', messageDocument: 'ok' } },
      },
    ]);
    const gid = await run.pay(shop);
    const row = await run.until(gid, ['needs_attention']);
    expect(row).toMatchObject({ lastErrorKind: 'unrecoverable', lastErrorCode: '102', fiscalNumber: 4 });
    expect(await run.skips(row.id)).toEqual([1, 2, 3]);
    expect(lastErrorText(row)).toMatch(
      /^The provider said 4 fiscal numbers in a row were already used \(102\), the last 0000-001-0000000004/,
    );
    // A 102 StatusDocument cannot confirm is not a reason to skip.
    run.gateway.setRules([{ operation: 'SendDocument', fault: { kind: 'code', code: '102' } }]);
    const other = await run.shop();
    const gid2 = await run.pay(other);
    await waitFor(async () => ((await run.invoiceOf(gid2))?.attempts ?? 0) >= 2, 20_000, 'two attempts');
    const second = (await run.invoiceOf(gid2))!;
    expect(await run.skips(second.id)).toEqual([]);
    expect(second).toMatchObject({ fiscalNumber: 1, lastErrorCode: '102' });
  });

  it('secrets echoed by the gateway (raw, URL-encoded, base64, JSON) appear in no row, response or log line', async () => {
    const shop = await run.shop({ credentials: { ...credentialsFor('x'), Company: 'usuario', Token: SECRET } });
    run.gateway.setRules([{ operation: 'SendDocument', fault: { kind: 'echo_secrets' }, times: 1 }]);
    logLines.length = 0;
    const gid = await run.pay(shop);
    const row = await run.until(gid, ['completed']);
    const calls = await run.callRows(row.id);
    expect(calls[0]).toMatchObject({ operation: 'SendDocument', outcome: 'rejected', code: '201' });
    expect(calls[0]!.message).toContain('[redacted]');
    expect(showsSecret(JSON.stringify(calls))).toBe(false);
    expect(showsSecret(logLines.join(''))).toBe(false);
    expect(logLines.join('')).toContain('[redacted]');
    // The admin API's detail of the document, its gateway calls included, as the page loads it.
    const token = await run.h.simulator.sessionToken(shop);
    const page = await fetch(`${run.h.app.url}/api/invoices/${row.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain(row.id);
    expect(showsSecret(body)).toBe(false);
  });
});
