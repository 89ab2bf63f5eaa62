// What may be done with a document, the re-issue links both ways, and the server's words in the page's language
// (issue 26 items 1, 3, 4, 6), over HTTP (admin API) and the CLI, with the store simulator and the sandbox, both
// databases: an authorized invoice offers re-issue and withholds retry with the reason; once replaced it withholds
// re-issue naming the new invoice, and each invoice names the other; a wrong DV, a refused re-issue and a bad date
// range come back in Spanish when the page asks in Spanish, in English otherwise.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { invoicesCli } from '../../support/harness-cli.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-acciones.myshopify.com';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, read field by field
type Json = Record<string, any>;
const number = (n: number | null) => `0000-001-${String(n).padStart(10, '0')}`;

describe.each(testDatabases)('document actions over the admin API and the CLI on $name', (target) => {
  const run = harnessForShop(target, SHOP);
  const rowsOf = (gid: string) =>
    run.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, gid)));

  async function call(method: string, path: string, o: { body?: unknown; language?: string } = {}) {
    const token = await run.h.simulator.sessionToken(SHOP);
    const response = await fetch(`${run.h.app.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(o.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(o.language ? { 'Accept-Language': o.language } : {}),
      },
      ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  async function authorized(id: number): Promise<{ gid: string; invoice: DocumentRow }> {
    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id }), run.h.webhookAddress);
    const gid = `gid://shopify/Order/${id}`;
    const invoice = await waitFor(async () => (await rowsOf(gid)).find((r) => r.status === 'completed'), 20_000, 'the invoice');
    return { gid, invoice };
  }

  it('offers what will succeed, withholds the rest with the reason, and links a replacement both ways', async () => {
    const { gid, invoice } = await authorized(6_262_000_001);
    const before = (await call('GET', `/api/invoices/${invoice.id}`)).body.invoice;
    expect(before.actions).toEqual({
      retry: {
        allowed: false,
        reason: { es: 'Está autorizado: no hay nada que reintentar.', en: 'It is authorized: there is nothing to retry.' },
      },
      correct_client: {
        allowed: false,
        reason: {
          es: 'La factura está autorizada y ya no puede cambiar: reemítala a otro cliente.',
          en: 'The invoice is authorized and can no longer change: re-issue it to another client.',
        },
      },
      reissue: { allowed: true, reason: null },
      // The harness has no SMTP: the page would offer no resend either.
      resend_email: {
        allowed: false,
        reason: {
          es: 'Este servidor no tiene correo configurado (SMTP_URL y MAIL_FROM).',
          en: 'This server has no e-mail configured (SMTP_URL and MAIL_FROM).',
        },
      },
    });
    expect([before.retryable, before.correctable, before.reissuable]).toEqual([false, false, true]);
    expect([before.replacedBy, before.replaces]).toEqual([null, null]);

    // A wrong DV, in the page's language.
    const wrongDv = { ...TAXPAYER_CORRECTION, dv: '58' };
    const spanish = await call('POST', `/api/invoices/${invoice.id}/reinvoice`, { body: wrongDv, language: 'es' });
    expect(spanish.status).toBe(400);
    expect(spanish.body.problems).toEqual([
      { path: 'dv', message: `El dígito verificador 58 no corresponde al RUC ${TAXPAYER_CORRECTION.ruc}.` },
    ]);
    const english = await call('POST', `/api/invoices/${invoice.id}/reinvoice`, { body: wrongDv, language: 'en' });
    expect(english.body.problems).toEqual([
      { path: 'dv', message: `the check digit 58 does not belong to the RUC ${TAXPAYER_CORRECTION.ruc}` },
    ]);

    const accepted = await call('POST', `/api/invoices/${invoice.id}/reinvoice`, { body: TAXPAYER_CORRECTION });
    expect(accepted.status).toBe(202);
    const replacementId = accepted.body.invoiceId as string;
    const replacement = await waitFor(
      async () => (await rowsOf(gid)).find((r) => r.id === replacementId && r.status === 'completed'),
      30_000,
      'the new invoice',
    );

    const old = (await call('GET', `/api/invoices/${invoice.id}`)).body.invoice;
    expect(old.actions.reissue).toEqual({
      allowed: false,
      reason: {
        es: `Ya fue reemplazada por la factura ${number(replacement.fiscalNumber)}.`,
        en: `It was replaced already by invoice ${number(replacement.fiscalNumber)}.`,
      },
    });
    expect(old.replacedBy).toMatchObject({ id: replacementId, fiscalNumber: number(replacement.fiscalNumber), status: 'completed' });
    const fresh = (await call('GET', `/api/invoices/${replacementId}`)).body.invoice;
    expect(fresh.replaces).toMatchObject({ id: invoice.id, fiscalNumber: number(invoice.fiscalNumber) });
    expect(fresh.actions.reissue.allowed).toBe(true);

    // Asked again anyway: refused in the page's language, with the reason the page showed.
    const again = await call('POST', `/api/invoices/${invoice.id}/reinvoice`, { body: TAXPAYER_CORRECTION, language: 'es-PA,es;q=0.9' });
    expect(again).toEqual({ status: 409, body: { error: old.actions.reissue.reason.es } });
    expect((await call('POST', `/api/invoices/${invoice.id}/reinvoice`, { body: TAXPAYER_CORRECTION })).body).toEqual({
      error: old.actions.reissue.reason.en,
    });

    // The CLI says the same: the links, the actions, and a document as people read it.
    const cli = invoicesCli(run.h);
    const shown = await cli('show', invoice.id);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`replacedBy:        invoice ${replacementId}  ${number(replacement.fiscalNumber)}  Authorized`);
    expect(shown.out).toContain(`  reissue         no: It was replaced already by invoice ${number(replacement.fiscalNumber)}.`);
    expect(shown.out).toContain('  retry           no: It is authorized: there is nothing to retry.');
    expect(shown.out.find((l) => l.startsWith('receptionDateDgi:'))).toMatch(
      /^receptionDateDgi: {2}\d\d\/\d\d\/\d{4} \d\d:\d\d \(Panamá\)$/,
    );
    expect(shown.out.find((l) => l.startsWith('pdf:'))).toMatch(/^pdf: {15}stored, \d+ bytes, SHA-256 [0-9a-f]{64}$/);
    expect(shown.out.find((l) => l.startsWith('documentTotals:'))).toMatch(
      /^documentTotals: {4}net \d+\.\d\d \+ ITBMS \d+\.\d\d = 70\.43 USD$/,
    );
    const shownNew = await cli('show', replacementId);
    expect(shownNew.out).toContain(`replaces:          invoice ${invoice.id}  ${number(invoice.fiscalNumber)}  Authorized`);
    const json = JSON.parse((await cli('show', invoice.id, '--json')).out.join('\n')) as Json;
    expect(json.replacedBy).toMatchObject({ id: replacementId, fiscalNumber: number(replacement.fiscalNumber) });
    expect(json.actions.reissue).toEqual({ allowed: false, reason: old.actions.reissue.reason.en });
    expect(json.receptionDateDgi).toBe(invoice.receptionDateDgi);
  });

  it('a bad date range is refused in the page’s language', async () => {
    const spanish = await call('GET', '/api/invoices?from=2026-03-02&to=2026-03-01', { language: 'es' });
    expect(spanish.status).toBe(400);
    expect(spanish.body.error).toBe('La fecha «hasta» (2026-03-01) es anterior a la fecha «desde» (2026-03-02): elija un rango en orden.');
    const english = await call('GET', '/api/invoices?from=2026-03-02&to=2026-03-01');
    expect(english.body.error).toBe('to: must not be before from');
  });
});
