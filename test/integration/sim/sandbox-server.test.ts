// The sandbox gateway over real HTTP on loopback: the spec's answers to SendDocument and DownloadPDF.
import { createHash, createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCufe } from '../../../mappers/fiscal/cufe.ts';
import { startPdfThread } from '../../../sim/sandbox/pdf-thread.ts';
import { startSandboxServer, type RunningSandbox } from '../../../sim/sandbox/sandbox-server.ts';
import { sendDocumentSuccessSchema } from '../../../src/gateway/gateway-types.ts';
import { documentData } from '../../support/sandbox-requests.ts';
import { SIGNING_KEY, sendRequest, post, listDocuments } from '../../support/sandbox-requests.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely

const TEST_HOST = 'https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR?';
const PRODUCTION_HOST = 'https://dgi-fep.mef.gob.pa/Consultas/FacturasPorQR?';
// pdfjs reads the standard fonts' metrics from here when it meets Helvetica.
const STANDARD_FONTS = `${fileURLToPath(new URL('../../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url))}`;

/** Sorted-key JSON, written here independently of the sandbox's own canonical form. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string[] }> {
  const pdf = await getDocument({ data: bytes, standardFontDataUrl: STANDARD_FONTS }).promise;
  const text: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    text.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await pdf.destroy();
  return { pages: pdf.numPages, text };
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer({ signingKey: SIGNING_KEY });
});
afterAll(async () => {
  await sandbox.close();
});

describe('SendDocument', () => {
  it('authorizes a valid document with the exact success body of the spec', async () => {
    const request = sendRequest();
    const before = Date.now();
    const answer = await post(sandbox.url, 'SendDocument', request);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    const body = answer.json;
    expect(Object.keys(body)).toEqual([
      'code',
      'result',
      'message',
      'cufe',
      'id',
      'invoice',
      'qr',
      'xml',
      'receptionDateDGI',
      'nroAuthorizationProtocol',
      'deadline',
      'secuence',
      'warnings',
    ]);
    expect(sendDocumentSuccessSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ code: '200', result: 'procesado', id: null, invoice: null, xml: null, deadline: null, secuence: null });
    expect(body.message).toBe('Documento procesado correctamente');
    expect(body.warnings).toEqual([{ code: '200', message: body.message, fieldName: null }]);

    expect(body.cufe).toHaveLength(66);
    const parts = parseCufe(body.cufe); // undefined unless the check digit is right
    expect(parts).toEqual({
      typeDocument: '01',
      taxpayerType: '2',
      ruc: '155596713-2-2015',
      dv: '59',
      branch: '0000',
      date: '20260410',
      fiscalNumber: request.document.dataTransaction.numberDocumentFiscal,
      billingPoint: '001',
      emissionType: '01',
      environment: '2',
      securityCode: expect.stringMatching(/^\d{9}$/),
    });

    expect(body.receptionDateDGI).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
    const reception = Date.parse(body.receptionDateDGI);
    expect(reception).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(reception).toBeLessThanOrEqual(Date.now());
    expect(body.nroAuthorizationProtocol).toMatch(/^\d{20}$/);

    // qr: test host, chFE = cufe, iAmb = 2, digestValue = base64 SHA-256 of the canonical document,
    // jwt = HS256 over {chFE, iAmb, digestValue} with the configured key.
    expect(body.qr.startsWith(TEST_HOST)).toBe(true);
    const query = new URL(body.qr).searchParams;
    expect(query.get('chFE')).toBe(body.cufe);
    expect(query.get('iAmb')).toBe('2');
    const digest = createHash('sha256').update(canonical(request.document)).digest('base64');
    expect(query.get('digestValue')).toBe(digest);
    const [header, payload, signature] = query.get('jwt')!.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({ chFE: body.cufe, iAmb: '2', digestValue: digest });
    expect(signature).toBe(createHmac('sha256', SIGNING_KEY).update(`${header}.${payload}`).digest('base64url'));
  });

  it('environment 1 gives the production QR host and environment digit 1 in the cufe', async () => {
    const answer = await post(
      sandbox.url,
      'SendDocument',
      sendRequest((r) => (r.environment = '1')),
    );
    expect(answer.json.code).toBe('200');
    expect(answer.json.qr.startsWith(PRODUCTION_HOST)).toBe(true);
    expect(new URL(answer.json.qr).searchParams.get('iAmb')).toBe('1');
    expect(parseCufe(answer.json.cufe)?.environment).toBe('1');
  });

  it('gives every authorization its own protocol number and security code', async () => {
    const a = (await post(sandbox.url, 'SendDocument', sendRequest())).json;
    const b = (await post(sandbox.url, 'SendDocument', sendRequest())).json;
    expect(a.nroAuthorizationProtocol).not.toBe(b.nroAuthorizationProtocol);
    expect(a.cufe).not.toBe(b.cufe);
  });

  it('101 for a bad taxpayer token, and nothing is issued', async () => {
    const request = sendRequest((r) => (r.Token = 'bad-token'));
    const answer = await post(sandbox.url, 'SendDocument', request);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ code: '101', result: 'error', message: 'Token de emisor invalido.' });
    const number = request.document.dataTransaction.numberDocumentFiscal;
    expect((await listDocuments(sandbox.url)).some((d) => d.numberDocumentFiscal === number)).toBe(false);
  });

  it('102 when the number is used again for the same branch, point and type; other points or taxpayers are separate', async () => {
    const request = sendRequest();
    expect((await post(sandbox.url, 'SendDocument', request)).json.code).toBe('200');
    const again = await post(sandbox.url, 'SendDocument', request);
    expect(again.json).toEqual({ code: '102', result: 'error', message: expect.stringMatching(/^Documento duplicado/) });
    expect(Object.keys(again.json)).toEqual(['code', 'result', 'message']);

    const otherPoint = structuredClone(request);
    otherPoint.document.dataTransaction.pointBillingFiscal = '002';
    expect((await post(sandbox.url, 'SendDocument', otherPoint)).json.code).toBe('200');
    const otherTaxpayer = { ...structuredClone(request), Company: 'another-taxpayer' };
    expect((await post(sandbox.url, 'SendDocument', otherTaxpayer)).json.code).toBe('200');
  });

  it('109 names the missing field', async () => {
    const answer = await post(
      sandbox.url,
      'SendDocument',
      sendRequest((r) => delete r.document.dataTransaction.numberDocumentFiscal),
    );
    expect(answer.json).toEqual({ code: '109', result: 'error', message: 'field numberDocumentFiscal is required' });
  });

  it('201 names the broken rule, and a rejected number stays free', async () => {
    const request = sendRequest((r) => (r.document.listItems[0].priceItem = '45.01'));
    const answer = await post(sandbox.url, 'SendDocument', request);
    expect(answer.json).toEqual({
      code: '201',
      result: 'error',
      message:
        'Error al procesar solicitud: regla 2053 (§5 regla 2): item 1: priceItem 45.01 != amount × (priceUnit − priceUnitDiscount) = 45.00',
    });
    request.document.listItems[0].priceItem = '45.00';
    expect((await post(sandbox.url, 'SendDocument', request)).json.code).toBe('200');
  });

  it('malformed JSON → HTTP 400 with a JSON error body', async () => {
    const answer = await post(sandbox.url, 'SendDocument', undefined, { raw: '{"GW_Company": ' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: '400', result: 'error', message: 'JSON mal formado' });
  });

  it('an unknown operation → HTTP 404 JSON', async () => {
    const answer = await post(sandbox.url, 'CancelDocument', sendRequest());
    expect(answer.status).toBe(404);
    expect(answer.json.code).toBe('404');
  });
});

describe('DownloadPDF', () => {
  it('returns the issued document as a base64 PDF whose text carries the cufe, number and lines', async () => {
    const request = sendRequest();
    const sent = (await post(sandbox.url, 'SendDocument', request)).json;
    const answer = await post(sandbox.url, 'DownloadPDF', documentData(request, true));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json)).toEqual(['code', 'document']);
    expect(answer.json.code).toBe('200');
    const bytes = new Uint8Array(Buffer.from(answer.json.document, 'base64'));
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

    const { pages, text } = await pdfText(bytes);
    expect(pages).toBe(1);
    const all = text.join(' ');
    expect(all).toContain(sent.cufe);
    expect(all).toContain(`0000-001-${request.document.dataTransaction.numberDocumentFiscal}`);
    expect(all).toContain(sent.nroAuthorizationProtocol);
    expect(all).toContain(sent.receptionDateDGI);
    expect(all).toContain('155596713-2-2015');
    expect(all).toContain('Camisa de algodón talla M');
    expect(all).toContain('Libro: Historia de Panamá');
    expect(all).toContain('María Pérez');
    expect(all).toContain('60.15');
  });

  it('the standalone sandbox draws PDFs on a worker thread: the same bytes, drawn as soon as the document is issued', async () => {
    const thread = startPdfThread();
    let drawn = 0;
    const threaded = await startSandboxServer({
      signingKey: SIGNING_KEY,
      now: () => new Date('2026-11-20T15:00:00Z'),
      renderPdf: (document, authorization) => (drawn++, thread.render(document, authorization)),
    });
    const here = await startSandboxServer({ signingKey: SIGNING_KEY, now: () => new Date('2026-11-20T15:00:00Z') });
    try {
      const request = sendRequest();
      const sent = await Promise.all([threaded, here].map(async (s) => (await post(s.url, 'SendDocument', request)).json));
      // Same clock, same seed: both sandboxes issued the same invoice.
      expect(sent[0]!.cufe).toBe(sent[1]!.cufe);
      expect(drawn).toBe(1); // already drawing, before any DownloadPDF
      const [a, b] = await Promise.all(
        [threaded, here].map(async (s) => (await post(s.url, 'DownloadPDF', documentData(request, true))).json),
      );
      expect(a!.code).toBe('200');
      expect(a!.document).toBe(b!.document);
      expect(drawn).toBe(1);
      const failing = await startSandboxServer({ renderPdf: () => Promise.reject(new Error('out of paper')) });
      try {
        const other = sendRequest();
        await post(failing.url, 'SendDocument', other);
        expect((await post(failing.url, 'DownloadPDF', documentData(other, true))).status).toBe(500);
      } finally {
        await failing.close();
      }
    } finally {
      await Promise.all([threaded.close(), here.close(), thread.close()]);
    }
  });

  it('paginates 250 lines and survives characters Helvetica cannot draw', async () => {
    const request = sendRequest((r) => {
      r.document.listItems = Array.from({ length: 250 }, (_, i) => ({
        description: `Artículo ${i + 1} “señal” ă 😀 Ω`,
        code: `ART-${i + 1}`,
        amount: '1',
        priceUnit: '1.00',
        priceUnitDiscount: '0.00',
        priceItem: '1.00',
        rateITBMS: '01',
        valueITBMS: '0.07',
        totalValue: '1.07',
      }));
      Object.assign(r.document.totalsSubTotals, {
        totalPriceNet: '250.00',
        totalITBMS: '17.50',
        totalAmountTaxed: '17.50',
        totalAllItems: '267.50',
        totalInvoice: '267.50',
        totalValueReceived: '267.50',
        nroItems: '250',
        listFormPayment: [{ formPaymentInvoice: '03', valueFeePaid: '267.50' }],
      });
    });
    const sent = (await post(sandbox.url, 'SendDocument', request)).json;
    expect(sent.code).toBe('200');
    const answer = await post(sandbox.url, 'DownloadPDF', documentData(request, true));
    const { pages, text } = await pdfText(new Uint8Array(Buffer.from(answer.json.document, 'base64')));
    expect(pages).toBeGreaterThan(3);
    expect(text[0]).toContain('Artículo 1 “señal” a ? ?');
    expect(text.at(-1)).toContain('267.50');
    expect(text.join(' ')).toContain('Artículo 250 ');
    for (const [i, page] of text.entries()) expect(page).toContain(`Página ${i + 1} de ${pages}`);
  });

  it('an unknown document → {code 201, Documento no encontrado}; a bad token → 101', async () => {
    const request = sendRequest(); // never sent
    expect((await post(sandbox.url, 'DownloadPDF', documentData(request, true))).json).toEqual({
      code: '201',
      result: 'error',
      message: 'Documento no encontrado',
    });
    const badToken = { ...documentData(request, true), Token: 'bad' };
    expect((await post(sandbox.url, 'DownloadPDF', badToken)).json).toEqual({
      code: '101',
      result: 'error',
      message: 'Token de emisor invalido.',
    });
  });

  it('109 when a documentData field is missing', async () => {
    const body = documentData(sendRequest(), true);
    delete body.documentData.numberDocumentFiscal;
    expect((await post(sandbox.url, 'DownloadPDF', body)).json).toEqual({
      code: '109',
      result: 'error',
      message: 'field numberDocumentFiscal is required',
    });
  });
});
