// Credit notes (typeDocument 04) at the sandbox gateway, over real HTTP on loopback: the reference to an invoice this
// sandbox authorized, every refusal with its code and message, the notes of one invoice never above it, numbering
// per document type, and the note's PDF and status. The notes are built here by hand from an authorized invoice.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCufe, parseCufe } from '../../../mappers/fiscal/cufe.ts';
import { REFERENCE_FIELDS } from '../../../mappers/gateway/gateway-document.ts';
import { formatCents, parseCents } from '../../../mappers/fiscal/money.ts';
import { readPdfText } from '../../../src/documents/pdf-cufe.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../../../sim/sandbox/sandbox-gateway.ts';
import { startSandboxServer, type RunningSandbox } from '../../../sim/sandbox/sandbox-server.ts';
import { documentData } from '../../support/sandbox-requests.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are edited freely

const EXAMPLE: Json = JSON.parse(readFileSync(new URL('../../fixtures/gateway/send-document-example.json', import.meta.url), 'utf8'));
const STANDARD_FONTS = fileURLToPath(new URL('../../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
const { list: LIST, date: DATE, cufe: CUFE, paperNumber: PAPER, fiscalPrinterNumber: FISCAL_PRINTER } = REFERENCE_FIELDS;
const PREFIX = 'Error al procesar solicitud: ';
/** The example invoice's issue date and total. */
const INVOICE_DATE = '2026-04-10T09:30:00-05:00';

// Lines of a note, to the cent: the example's two shirts (7 %), one of them, its book (0 %), one cent.
const TWO_SHIRTS = line('Camisa de algodón talla M', '2', '25.00', '2.50', '45.00', '01', '3.15');
const ONE_SHIRT = line('Camisa de algodón talla M', '1', '25.00', '2.50', '22.50', '01', '1.58');
const BOOK = line('Libro: Historia de Panamá', '1', '12.00', '0.00', '12.00', '00', '0.00');
const ONE_CENT = line('Ajuste de precio', '1', '0.01', '0.00', '0.01', '00', '0.00');

function line(
  description: string,
  amount: string,
  priceUnit: string,
  discount: string,
  priceItem: string,
  rate: string,
  itbms: string,
): Json {
  const totalValue = formatCents(parseCents(priceItem)! + parseCents(itbms)!);
  return {
    description,
    code: 'REF',
    amount,
    priceUnit,
    priceUnitDiscount: discount,
    priceItem,
    rateITBMS: rate,
    valueITBMS: itbms,
    totalValue,
  };
}

let invoiceNumbers = 3000;
let noteNumbers = 7000;
const fresh = (n: number): string => String(n).padStart(10, '0');

/** The example invoice with a number never used in this file. */
function invoiceRequest(change?: (r: Json) => void): Json {
  const request = structuredClone(EXAMPLE);
  request.document.dataTransaction.numberDocumentFiscal = fresh(++invoiceNumbers);
  change?.(request);
  return request;
}

/** A type-04 note of these lines referencing `invoiceCufe` (dated as the example invoice), with its own new number. */
function noteRequest(invoiceCufe: string, lines: Json[], change?: (r: Json) => void): Json {
  const request = structuredClone(EXAMPLE);
  const data = request.document.dataTransaction;
  Object.assign(data, { typeDocument: '04', natureOperation: '11', numberDocumentFiscal: fresh(++noteNumbers) });
  data[LIST] = [{ [DATE]: INVOICE_DATE, [CUFE]: invoiceCufe, [PAPER]: '', [FISCAL_PRINTER]: '' }];
  request.document.listItems = structuredClone(lines);
  const sum = (field: string): string => formatCents(lines.reduce((acc, l) => acc + parseCents(l[field])!, 0));
  const total = sum('totalValue');
  Object.assign(request.document.totalsSubTotals, {
    totalPriceNet: sum('priceItem'),
    totalITBMS: sum('valueITBMS'),
    totalAmountTaxed: sum('valueITBMS'),
    totalAllItems: total,
    totalInvoice: total,
    totalValueReceived: total,
    nroItems: String(lines.length),
    listFormPayment: [{ formPaymentInvoice: '03', valueFeePaid: total }],
  });
  change?.(request);
  return request;
}

async function post(operation: string, body: unknown): Promise<Json> {
  const response = await fetch(`${sandbox.url}/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEFAULT_SANDBOX_AUTH_TOKEN}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

/** Send an invoice that must be authorized; its CUFE. */
async function authorizedInvoice(change?: (r: Json) => void): Promise<string> {
  const answer = await post('SendDocument', invoiceRequest(change));
  expect(answer.code).toBe('200');
  return answer.cufe;
}

async function pdfText(base64: string): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(Buffer.from(base64, 'base64')), standardFontDataUrl: STANDARD_FONTS }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    pages.push((await (await pdf.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join('\n').replace(/ +/g, ' '); // pdfjs spaces the runs unevenly
}

const refused = (message: string): Json => ({ code: '201', result: 'error', message: `${PREFIX}${message}` });
const issuedNumbers = (): string[] => sandbox.gateway.documents().map((d) => `${d.typeDocument}:${d.numberDocumentFiscal}`);

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(async () => {
  await sandbox.close();
});

describe('a valid credit note', () => {
  it('is authorized with a type-04 CUFE, listed with its reference, and its PDF reads NOTA DE CRÉDITO with the invoice', async () => {
    const invoice = invoiceRequest();
    const invoiceCufe = (await post('SendDocument', invoice)).cufe as string;
    const note = noteRequest(invoiceCufe, [ONE_SHIRT]);
    const number = note.document.dataTransaction.numberDocumentFiscal;
    const answer = await post('SendDocument', note);
    expect(answer).toMatchObject({ code: '200', result: 'procesado', message: 'Documento procesado correctamente' });
    expect(parseCufe(answer.cufe)).toEqual({
      typeDocument: '04',
      taxpayerType: '2',
      ruc: '155596713-2-2015',
      dv: '59',
      branch: '0000',
      date: '20260410',
      fiscalNumber: number,
      billingPoint: '001',
      emissionType: '01',
      environment: '2',
      securityCode: expect.stringMatching(/^\d{9}$/),
    });
    const qr = new URL(answer.qr);
    expect(`${qr.origin}${qr.pathname}`).toBe('https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR');
    expect(qr.searchParams.get('chFE')).toBe(answer.cufe);

    const listed = sandbox.gateway.documents().find((d) => d.cufe === answer.cufe);
    expect(listed).toMatchObject({
      typeDocument: '04',
      numberDocumentFiscal: number,
      totalInvoice: '24.08',
      reference: { cufe: invoiceCufe, date: INVOICE_DATE },
    });
    expect(sandbox.gateway.documents().find((d) => d.cufe === invoiceCufe)?.reference).toBeNull();

    const pdf = await post('DownloadPDF', documentData(note, false));
    expect(pdf.code).toBe('200');
    const text = await pdfText(pdf.document);
    expect(text).toContain('NOTA DE CRÉDITO ELECTRÓNICA');
    expect(text).toContain('04 Nota de crédito referente a FE');
    expect(text).toContain(`Factura referenciada CUFE: ${invoiceCufe} Fecha de emisión: ${INVOICE_DATE}`);
    expect(text).toContain(`CUFE: ${answer.cufe}`);
    expect(text).toContain('24.08');
    expect(text).not.toContain('FACTURA ELECTRÓNICA');
    // The app reads a document's CUFE back from its PDF: the note's own, not the invoice's.
    expect((await readPdfText(Buffer.from(pdf.document, 'base64'))).cufes[0]).toBe(answer.cufe);

    const invoiceText = await pdfText((await post('DownloadPDF', documentData(invoice, false))).document);
    expect(invoiceText).toContain('FACTURA ELECTRÓNICA');
    expect(invoiceText).not.toContain('NOTA DE CRÉDITO');
    expect(invoiceText).not.toContain('Factura referenciada');
  });

  it('StatusDocument and DownloadPDF take typeDocument 04; the same number as 01 is another document', async () => {
    const note = noteRequest(await authorizedInvoice(), [BOOK]);
    expect((await post('SendDocument', note)).code).toBe('200');
    expect(await post('StatusDocument', documentData(note, false))).toEqual({
      code: '200',
      statusDocument: 'Autorizada',
      messageDocument: 'Autorizado el uso de la FE',
    });
    expect(await post('StatusDocument', documentData(note, false, '01'))).toEqual({
      code: '201',
      result: 'error',
      message: 'Documento no encontrado',
      statusDocument: 'No encontrado',
      messageDocument: 'El documento no existe en el gateway',
    });
    expect(await post('DownloadPDF', documentData(note, false, '01'))).toEqual({
      code: '201',
      result: 'error',
      message: 'Documento no encontrado',
    });
  });

  it('accepts the invoice date written with another offset when it is the same instant', async () => {
    const note = noteRequest(
      await authorizedInvoice(),
      [BOOK],
      (r) => (r.document.dataTransaction[LIST][0][DATE] = '2026-04-10T14:30:00+00:00'),
    );
    expect((await post('SendDocument', note)).code).toBe('200');
  });

  it('passes the same code tables and arithmetic as an invoice', async () => {
    const invoiceCufe = await authorizedInvoice();
    const badLine = noteRequest(invoiceCufe, [ONE_SHIRT], (r) => (r.document.listItems[0].priceItem = '22.51'));
    expect(await post('SendDocument', badLine)).toEqual(
      refused('regla 2053 (§5 regla 2): item 1: priceItem 22.51 != amount × (priceUnit − priceUnitDiscount) = 22.50'),
    );
    const badTotal = noteRequest(invoiceCufe, [ONE_SHIRT], (r) => (r.document.totalsSubTotals.totalInvoice = '24.09'));
    expect(await post('SendDocument', badTotal)).toEqual(refused('regla 2507 (§5 regla 9): totalInvoice 24.09 != totalAllItems = 24.08'));
    const badCode = noteRequest(invoiceCufe, [ONE_SHIRT], (r) => (r.document.dataTransaction.natureOperation = '99'));
    expect(await post('SendDocument', badCode)).toEqual(
      refused('código inválido: natureOperation "99" no está en la tabla (01, 02, 03, 04, 10, 11, 12, 13, 14, 20, 21)'),
    );
    expect(sandbox.gateway.credited('sandbox-taxpayer', invoiceCufe)).toBe(0);
  });
});

describe('numbering per document type', () => {
  it('a number used by a note → 102 for another note; the same number as an invoice is authorized; a resent note is 102', async () => {
    const invoiceCufe = await authorizedInvoice();
    const note = noteRequest(invoiceCufe, [TWO_SHIRTS, BOOK]); // the whole invoice: 60.15
    const number = note.document.dataTransaction.numberDocumentFiscal;
    expect((await post('SendDocument', note)).code).toBe('200');
    // The same note again: 102, not "more than its invoice", so the app can tell it was authorized.
    expect(await post('SendDocument', note)).toEqual({
      code: '102',
      result: 'error',
      message: `Documento duplicado: 0000-001-${number} (tipo 04) ya existe`,
    });
    const otherNote = noteRequest(await authorizedInvoice(), [BOOK], (r) => (r.document.dataTransaction.numberDocumentFiscal = number));
    expect((await post('SendDocument', otherNote)).code).toBe('102');
    const invoice = invoiceRequest((r) => (r.document.dataTransaction.numberDocumentFiscal = number));
    const asInvoice = await post('SendDocument', invoice);
    expect(asInvoice.code).toBe('200');
    expect(parseCufe(asInvoice.cufe)).toMatchObject({ typeDocument: '01', fiscalNumber: number });
  });

  it('two concurrent sends of one note number: one 200, one 102', async () => {
    const invoiceCufe = await authorizedInvoice();
    const note = noteRequest(invoiceCufe, [BOOK]);
    // In-process, so that both are inside SendDocument at once (over HTTP the first is usually done before the second).
    const codes = (await Promise.all([sandbox.gateway.call('SendDocument', note), sandbox.gateway.call('SendDocument', note)])).map(
      (a) => a.code,
    );
    expect(codes.sort()).toEqual(['102', '200']);
  });
});

describe('the notes of one invoice never exceed it', () => {
  it('refuses the note that would take the sum above the invoice, naming both amounts; up to the cent is allowed', async () => {
    const invoiceCufe = await authorizedInvoice();
    expect((await post('SendDocument', noteRequest(invoiceCufe, [TWO_SHIRTS]))).code).toBe('200');
    const tooMuch = noteRequest(invoiceCufe, [ONE_SHIRT]);
    expect(await post('SendDocument', tooMuch)).toEqual(
      refused(
        `las notas de crédito de la factura ${invoiceCufe} sumarían 72.23 (48.15 ya autorizadas + 24.08 de esta nota), más que su totalInvoice 60.15`,
      ),
    );
    expect(issuedNumbers()).not.toContain(`04:${tooMuch.document.dataTransaction.numberDocumentFiscal}`);
    expect((await post('SendDocument', noteRequest(invoiceCufe, [BOOK]))).code).toBe('200'); // 48.15 + 12.00 = 60.15
    expect(sandbox.gateway.credited('sandbox-taxpayer', invoiceCufe)).toBe(6015);
    expect(await post('SendDocument', noteRequest(invoiceCufe, [ONE_CENT]))).toEqual(
      refused(
        `las notas de crédito de la factura ${invoiceCufe} sumarían 60.16 (60.15 ya autorizadas + 0.01 de esta nota), más que su totalInvoice 60.15`,
      ),
    );
  });

  it('two concurrent notes that together exceed the invoice: exactly one is authorized', async () => {
    const invoiceCufe = await authorizedInvoice();
    const answers = await Promise.all([
      sandbox.gateway.call('SendDocument', noteRequest(invoiceCufe, [TWO_SHIRTS])),
      sandbox.gateway.call('SendDocument', noteRequest(invoiceCufe, [TWO_SHIRTS])),
    ]);
    expect(answers.map((a) => a.code).sort()).toEqual(['200', '201']);
    expect(sandbox.gateway.credited('sandbox-taxpayer', invoiceCufe)).toBe(4815);
  });
});

describe('refused references', () => {
  it('109 names the missing reference list or field; a list or entry of the wrong type is a 201', async () => {
    const invoiceCufe = await authorizedInvoice();
    const missing = (field: string): Json => ({ code: '109', result: 'error', message: `field ${field} is required` });
    const withoutList = noteRequest(invoiceCufe, [BOOK], (r) => delete r.document.dataTransaction[LIST]);
    expect(await post('SendDocument', withoutList)).toEqual(missing(LIST));
    const emptyList = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST] = []));
    expect(await post('SendDocument', emptyList)).toEqual(missing(LIST));
    for (const field of [DATE, CUFE, PAPER, FISCAL_PRINTER]) {
      const withoutField = noteRequest(invoiceCufe, [BOOK], (r) => delete r.document.dataTransaction[LIST][0][field]);
      expect(await post('SendDocument', withoutField)).toEqual(missing(field));
    }
    const blankCufe = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST][0][CUFE] = ' '));
    expect(await post('SendDocument', blankCufe)).toEqual(missing(CUFE));
    const notAList = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST] = invoiceCufe));
    expect(await post('SendDocument', notAList)).toEqual(refused(`tipo inválido: ${LIST} debe ser una lista`));
    const notAnObject = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST] = [invoiceCufe]));
    expect(await post('SendDocument', notAnObject)).toEqual(refused(`tipo inválido: cada elemento de ${LIST} debe ser un objeto`));
    const numericPaper = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST][0][PAPER] = 0));
    expect(await post('SendDocument', numericPaper)).toEqual(refused(`tipo inválido: ${PAPER} debe ser texto (string JSON), no number`));
  });

  it('201 for a CUFE this sandbox never authorized, or authorized for another taxpayer', async () => {
    const never = buildCufe({ ...parseCufe(await authorizedInvoice())!, fiscalNumber: '0999999999' });
    expect(await post('SendDocument', noteRequest(never, [BOOK]))).toEqual(
      refused(`regla 1704: ${CUFE} ${never} no es una factura autorizada por esta pasarela para este contribuyente`),
    );
    const othersInvoice = await authorizedInvoice((r) => (r.Company = 'another-taxpayer'));
    expect(await post('SendDocument', noteRequest(othersInvoice, [BOOK]))).toEqual(
      refused(`regla 1704: ${CUFE} ${othersInvoice} no es una factura autorizada por esta pasarela para este contribuyente`),
    );
  });

  it("201 for a malformed CUFE and for a note's CUFE", async () => {
    expect(await post('SendDocument', noteRequest('FE0120000', [BOOK]))).toEqual(
      refused(`regla 1703: ${CUFE} "FE0120000" no es un CUFE válido (66 caracteres con su dígito verificador)`),
    );
    const noteCufe = (await post('SendDocument', noteRequest(await authorizedInvoice(), [BOOK]))).cufe;
    expect(await post('SendDocument', noteRequest(noteCufe, [BOOK]))).toEqual(
      refused(`regla 1712: ${CUFE} ${noteCufe} es una nota (typeDocument 04): una nota de crédito solo referencia facturas`),
    );
  });

  it('201 for an invoice of the other environment', async () => {
    const production = await authorizedInvoice((r) => (r.environment = '1'));
    expect(await post('SendDocument', noteRequest(production, [BOOK]))).toEqual(
      refused(`regla 1704: la factura ${production} se autorizó en el ambiente 1 (producción) y esta nota va al ambiente 2 (pruebas)`),
    );
    expect(
      (
        await post(
          'SendDocument',
          noteRequest(production, [BOOK], (r) => (r.environment = '1')),
        )
      ).code,
    ).toBe('200');
  });

  it("201 for a date that is not the invoice's, or not a date", async () => {
    const invoiceCufe = await authorizedInvoice();
    const otherDay = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST][0][DATE] = '2026-04-11T09:30:00-05:00'));
    expect(await post('SendDocument', otherDay)).toEqual(
      refused(`${DATE} 2026-04-11T09:30:00-05:00 no es la fecha de emisión de la factura ${invoiceCufe} (${INVOICE_DATE})`),
    );
    const notADate = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST][0][DATE] = '2026-04-10'));
    expect(await post('SendDocument', notADate)).toEqual(
      refused(
        `formato inválido: ${DATE} "2026-04-10" debe ser YYYY-MM-DDThh:mm:ss±hh:mm (con zona horaria, sin fracciones, ej. 2026-04-10T09:30:00-05:00)`,
      ),
    );
  });

  it('201 for two references, or a paper or fiscal-printer number beside the CUFE', async () => {
    const invoiceCufe = await authorizedInvoice();
    const two = noteRequest(invoiceCufe, [BOOK], (r) => r.document.dataTransaction[LIST].push(r.document.dataTransaction[LIST][0]));
    expect(await post('SendDocument', two)).toEqual(
      refused(`${LIST} tiene 2 documentos; esta pasarela acepta una sola factura referenciada por nota`),
    );
    const paper = noteRequest(invoiceCufe, [BOOK], (r) => (r.document.dataTransaction[LIST][0][PAPER] = '001-123'));
    expect(await post('SendDocument', paper)).toEqual(refused(`${PAPER} "001-123" debe ir vacío: la factura se referencia por su CUFE`));
    expect(sandbox.gateway.credited('sandbox-taxpayer', invoiceCufe)).toBe(0);
  });

  it('201 for an invoice (01) that carries a reference, and nothing is issued', async () => {
    const invoiceCufe = await authorizedInvoice();
    const invoice = invoiceRequest((r) => {
      r.document.dataTransaction[LIST] = [{ [DATE]: INVOICE_DATE, [CUFE]: invoiceCufe, [PAPER]: '', [FISCAL_PRINTER]: '' }];
    });
    expect(await post('SendDocument', invoice)).toEqual(
      refused(`typeDocument 01 no lleva ${LIST}: solo una nota de crédito (04) referencia una factura`),
    );
    expect(issuedNumbers()).not.toContain(`01:${invoice.document.dataTransaction.numberDocumentFiscal}`);
  });
});
