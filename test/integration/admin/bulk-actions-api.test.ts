// Bulk actions over HTTP on both databases (issue 30 item 3): retry, resend and the PDFs' ZIP of 50 selected documents
// made through the whole product. Each document goes through the single action's decision, so the authorized ones are
// refused a retry with the catalogue's reason; 50 e-mails are queued however often the resend is pressed at once; the
// ZIP's PDFs are byte-identical to their links; malformed bodies are 400s naming the field.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { type DocumentRow, formatFiscalNumber } from '../../../src/documents/store/index.ts';
import { pdfFileName } from '../../../src/reports/month-zip.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { bulkWorldFor, pdfLinks, resendsOf } from '../../support/bulk-world.ts';
import { unzipEntries } from '../../support/zip-entries.ts';

const SHOP = 'tienda-lotes.myshopify.com';

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  bytes: Buffer;
}

describe.each(testDatabases)('bulk actions over HTTP on $name', (target) => {
  const world = bulkWorldFor(target, { shop: SHOP, firstOrderId: 7_300_000_001, good: 50, bad: 5 });

  async function call(method: string, path: string, body?: unknown, o: { language?: string; raw?: string } = {}): Promise<Answer> {
    const token = await world.h.simulator.sessionToken(SHOP);
    const text = o.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const res = await fetch(`${world.h.app.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(o.language ? { 'Accept-Language': o.language } : {}),
        ...(text === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: text,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('json')
      ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>)
      : {};
    return { status: res.status, body: json, headers: res.headers, bytes };
  }
  const post = (path: string, body: unknown, language?: string) => call('POST', `/api/invoices/bulk/${path}`, body, { language });
  const named = (d: DocumentRow) => ({
    id: d.id,
    kind: 'invoice',
    order: d.orderName,
    fiscalNumber: d.fiscalNumber === null ? null : formatFiscalNumber(d),
  });
  const statusOf = async (id: string) => (await world.database.db.select().from(documents).where(eq(documents.id, id)))[0]!.status;
  const sandboxCount = async () =>
    ((await (await fetch(`${world.h.sandbox.url}/_sandbox/documents`)).json()) as { documents: unknown[] }).documents.length;

  it('counts what matches the list’s filters, as the page offers "select all N"', async () => {
    expect((await call('GET', '/api/invoices/bulk/count?status=completed')).body).toEqual({ count: 50, more: false, max: 500 });
    expect((await call('GET', '/api/invoices/bulk/count')).body).toEqual({ count: 55, more: false, max: 500 });
    expect((await call('GET', '/api/invoices/bulk/count?status=needs_attention&kind=invoice')).body).toEqual({
      count: 5,
      more: false,
      max: 500,
    });
    const bad = await call('GET', '/api/invoices/bulk/count?status=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('status: must be one of pending, waiting, needs_attention, failed, completed, skipped');
  });

  it('retries 50 selected: the 5 stopped go back to the queue, the 45 authorized are refused with the reason', async () => {
    const chosen = [...world.authorized.slice(0, 45), ...world.stopped];
    const before = await sandboxCount();
    const answer = await post('retry', { ids: chosen.map((d) => d.id) }, 'es');
    expect(answer.status).toBe(200);
    expect(answer.body.done).toBe(5);
    expect(answer.body.queued).toBe(5);
    expect(answer.body.refused).toEqual(
      world.authorized.slice(0, 45).map((d) => ({
        ...named(d),
        code: 'action_retry_completed',
        reason: 'Está autorizado: no hay nada que reintentar.',
      })),
    );
    expect((answer.body.counts as Record<string, number>).all).toBe(55);
    // They are sent again, and stop again on the same wrong digit; nothing authorized is sent twice.
    for (const d of world.stopped) await waitFor(async () => (await statusOf(d.id)) === 'needs_attention', 20_000, 'the stopped again');
    expect(await sandboxCount()).toBe(before);
    expect(await world.database.db.select().from(documents).where(eq(documents.shop, SHOP))).toHaveLength(55);

    const english = await post('retry', { ids: [world.authorized[0]!.id, randomUUID()] }, 'en');
    expect(english.body.done).toBe(0);
    expect((english.body.refused as { reason: string; code: string }[]).map((r) => [r.code, r.reason])).toEqual([
      ['action_retry_completed', 'It is authorized: there is nothing to retry.'],
      ['bulk_not_found', "It is not among this shop's documents."],
    ]);
  }, 60_000);

  it('retries all that match the filters, and a repeat at once queues each document once', async () => {
    const [a, b] = await Promise.all([
      post('retry', { filters: { status: 'needs_attention' } }),
      post('retry', { filters: { status: 'needs_attention' } }),
    ]);
    // Either press may find a document already pending; together they put each of the 5 back once.
    expect((a.body.done as number) + (b.body.done as number)).toBeGreaterThanOrEqual(5);
    expect(a.body.refused).toEqual(expect.any(Array));
    for (const d of world.stopped) await waitFor(async () => (await statusOf(d.id)) === 'needs_attention', 20_000, 'the stopped again');
    expect(await world.database.db.select().from(documents).where(eq(documents.shop, SHOP))).toHaveLength(55);
  }, 60_000);

  it('resends 50: exactly 50 e-mails queued, however often it is pressed at once, and each goes out', async () => {
    const ids = world.authorized.map((d) => d.id);
    const answers = await Promise.all([post('resend', { ids }), post('resend', { ids }), post('resend', { ids })]);
    for (const a of answers) expect([a.status, a.body.done, a.body.refused]).toEqual([200, 50, []]);
    expect(answers.reduce((n, a) => n + (a.body.queued as number), 0)).toBe(50);
    expect(await resendsOf(world, ids)).toHaveLength(50);
    await waitFor(async () => world.catcher.messages().length === 100, 60_000, '50 resent e-mails');
    const resent = world.catcher.messages().slice(50);
    expect(new Set(resent.flatMap((m) => m.envelope.to))).toEqual(
      new Set(world.authorized.map((d) => `cliente-${d.orderGid.split('/').at(-1)}@example.com`)),
    );

    const stopped = await post('resend', { ids: world.stopped.slice(0, 1).map((d) => d.id) }, 'es');
    expect(stopped.body).toEqual({
      done: 0,
      queued: 0,
      refused: [
        {
          ...named(world.stopped[0]!),
          code: 'action_resend_not_authorized',
          reason: 'Solo un documento autorizado, con su PDF, se puede enviar por correo.',
        },
      ],
    });
  }, 90_000);

  it('zips the 50 PDFs, named by type and number, byte-identical to their links', async () => {
    const ids = world.authorized.map((d) => d.id);
    const answer = await post('pdfs.zip', { ids });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="documentos-pdf.zip"');
    expect([answer.headers.get('x-documents-zipped'), answer.headers.get('x-documents-left-out')]).toEqual(['50', '0']);
    const entries = await unzipEntries(answer.bytes);
    expect([...entries.keys()].sort()).toEqual(world.authorized.map((d) => pdfFileName(d)).sort());
    const links = await pdfLinks(world, SHOP, ids);
    for (const d of world.authorized) {
      const linked = Buffer.from(await (await fetch(links.get(d.id)!)).arrayBuffer());
      expect(linked.subarray(0, 5).toString()).toBe('%PDF-');
      expect(entries.get(pdfFileName(d))!.equals(linked)).toBe(true);
    }
    const byFilter = await unzipEntries((await post('pdfs.zip', { filters: { status: 'completed' } })).bytes);
    expect([...byFilter.keys()].sort()).toEqual([...entries.keys()].sort());
  }, 60_000);

  it('leaves out what has no PDF, and names it in the ZIP; none at all is a 409', async () => {
    const missing = randomUUID();
    const answer = await post('pdfs.zip', { ids: [world.authorized[0]!.id, world.stopped[0]!.id, missing] }, 'es');
    expect([answer.headers.get('x-documents-zipped'), answer.headers.get('x-documents-left-out')]).toEqual(['1', '2']);
    const entries = await unzipEntries(answer.bytes);
    expect([...entries.keys()]).toEqual([pdfFileName(world.authorized[0]!), 'documentos-sin-pdf.txt']);
    expect(entries.get('documentos-sin-pdf.txt')!.toString('utf8')).toBe(
      `${world.stopped[0]!.orderName} — No tiene PDF (solo un documento autorizado lo tiene).\r\n${missing} — No está entre los documentos de esta tienda.\r\n`,
    );
    const none = await post('pdfs.zip', { ids: [world.stopped[0]!.id] }, 'en');
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: 'It has no PDF (only an authorized document has one).', code: 'no_pdfs' });
  });

  it('answers malformed requests with a 400 naming the field, and never acts', async () => {
    const uuids = (n: number) => Array.from({ length: n }, () => randomUUID());
    const cases: [unknown, string][] = [
      [{}, '(body): give either ids or filters (one of them)'],
      [[], '(body): must be a JSON object'],
      [{ ids: [] }, 'ids: name at least one document'],
      [{ ids: 'x' }, 'ids: must be a list of document ids'],
      [{ ids: ['not-a-uuid'] }, 'ids.0: each id must be a document id (a UUID)'],
      [{ ids: [7] }, 'ids.0: each id must be a document id (a UUID)'],
      [{ ids: uuids(501) }, 'ids: at most 500 documents per request; send the rest in another request'],
      [{ ids: uuids(1), filters: {} }, '(body): give either ids or filters (one of them)'],
      [{ filters: { status: 'bogus' } }, 'filters.status: must be one of pending, waiting, needs_attention, failed, completed, skipped'],
      [{ filters: { from: '2026-03-02', to: '2026-03-01' } }, 'filters.to: must not be before from'],
      [{ filters: { from: '2026-02-30' } }, 'filters.from: is not a calendar date'],
      [{ filters: 'completed' }, 'filters: Invalid input: expected object, received string'],
      [{ ids: uuids(1), shop: 'otra.myshopify.com' }, 'unknown field: shop (known: ids, filters)'],
    ];
    for (const path of ['retry', 'resend', 'pdfs.zip'])
      for (const [body, error] of cases) {
        const answer = await post(path, body);
        expect([path, JSON.stringify(body).slice(0, 60), answer.status, answer.body.error]).toEqual([
          path,
          JSON.stringify(body).slice(0, 60),
          400,
          error,
        ]);
      }
    const broken = await call('POST', '/api/invoices/bulk/retry', undefined, { raw: '{"ids": [' });
    expect(broken.status).toBe(400);
    const none = await call('POST', '/api/invoices/bulk/resend');
    expect([none.status, none.body.error]).toEqual([400, '(body): send a JSON object']);
    expect(
      await resendsOf(
        world,
        world.authorized.map((d) => d.id),
      ),
    ).toHaveLength(50);
  }, 60_000);
});
