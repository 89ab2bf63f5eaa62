// The sandbox's printable invoice or credit note (its stand-in for the PAC's CAFE PDF): a real PDF drawn with
// pdf-lib and the standard Helvetica fonts, with a vector QR of the DGI query address.
import { deflateSync } from 'node:zlib';
import { PDFContentStream, PDFDocument, PDFRawStream, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { CLIENT_TYPES, DOCUMENT_TYPES, ITBMS_RATES, PAYMENT_FORMS, PROVINCES } from './pdf-labels.ts';
import { drawQr } from './pdf-qr.ts';
import { type TextColor, drawString } from './pdf-raw-text.ts';
import { CREDIT_NOTE } from './rules/code-tables.ts';
import type { SandboxClient, SandboxDocument } from './rules/gateway-fields.ts';
import { fit, winAnsiSanitizer, wrap } from './pdf-text.ts';

/** Who issues the sandbox's invoices: the identity put in the CUFE and on the PDF. */
export interface SandboxIssuer {
  /** RUC as written, e.g. "155596713-2-2015". */
  ruc: string;
  /** Its two-digit check digit. */
  dv: string;
  /** dTipoRuc: 1 natural person, 2 juridical person. */
  taxpayerType: '1' | '2';
  name: string;
  address: string;
}

/** What the sandbox answered for the document, printed with it. */
export interface PdfAuthorization {
  issuer: SandboxIssuer;
  /** Target environment code of the request: "1" producción, "2" pruebas. */
  environment: string;
  cufe: string;
  qr: string;
  receptionDateDGI: string;
  nroAuthorizationProtocol: string;
}

const PAGE_WIDTH = 612; // US Letter: formatCAFE 3 is "papel formato carta"
const PAGE_HEIGHT = 792;
const MARGIN = 40;
const BOTTOM = 56; // room for the footer
const QR_SIZE = 112;
const LIGHT = rgb(0.9, 0.9, 0.9);

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  wrap?: boolean;
}

// Widths add up to the printable width (612 − 2 × 40 = 532).
const COLUMNS: readonly Column[] = [
  { title: '#', width: 22, align: 'right' },
  { title: 'Código', width: 62, align: 'left' },
  { title: 'Descripción', width: 168, align: 'left', wrap: true },
  { title: 'Cant.', width: 44, align: 'right' },
  { title: 'P. unitario', width: 56, align: 'right' },
  { title: 'Descuento', width: 52, align: 'right' },
  { title: 'Tasa', width: 28, align: 'right' },
  { title: 'ITBMS', width: 48, align: 'right' },
  { title: 'Total', width: 52, align: 'right' },
];
const CELL_PADDING = 3;
const TABLE_SIZE = 7.5;
const LINE_HEIGHT = 9.5;

/** Render the document as a PDF (Letter pages, as many as the lines need). */
export async function renderInvoicePdf(doc: SandboxDocument, authorization: PdfAuthorization): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, clean: winAnsiSanitizer(regular) };
  const data = doc.dataTransaction;
  const fiscalNumber = `${doc.codeBranchIssuer}-${data.pointBillingFiscal}-${data.numberDocumentFiscal}`;
  pdf.setTitle(fonts.clean(`${data.typeDocument === CREDIT_NOTE ? 'Nota de crédito' : 'Factura'} ${fiscalNumber}`));
  pdf.setSubject(authorization.cufe);
  pdf.setProducer('factura-pa sandbox gateway');
  // Same document, same bytes: no clock in the file.
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));

  const cursor: Cursor = { pdf, fonts, page: pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]), y: PAGE_HEIGHT - MARGIN };
  drawHeader(cursor, doc, authorization, fiscalNumber);
  drawLines(cursor, doc);
  drawTotals(cursor, doc);
  drawFooters(pdf, fonts, authorization.cufe, fiscalNumber);
  compressPageContents(pdf);
  return pdf.save({ useObjectStreams: false });
}

/**
 * Deflate the pages' drawing with Node's zlib, far cheaper in CPU than pdf-lib's JavaScript deflate (the same
 * FlateDecode streams; no object streams, which pdf-lib would deflate too; bench/RESULTS.md).
 */
function compressPageContents(pdf: PDFDocument): void {
  for (const [ref, object] of pdf.context.enumerateIndirectObjects()) {
    if (object instanceof PDFContentStream) {
      // Level 1: the same stream a little larger, for a third of the time (the sandbox draws at the gateway's pace).
      pdf.context.assign(ref, PDFRawStream.of(object.dict, deflateSync(object.getUnencodedContents(), { level: 1 })));
    }
  }
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Make text drawable with the standard fonts' WinAnsi encoding. */
  clean: (text: string) => string;
}

interface Cursor {
  pdf: PDFDocument;
  fonts: Fonts;
  page: PDFPage;
  y: number;
}

// ---------------------------------------------------------------------------------------------
// Header: issuer, document, client, authorization, QR

function drawHeader(c: Cursor, doc: SandboxDocument, auth: PdfAuthorization, fiscalNumber: string): void {
  const data = doc.dataTransaction;
  const client = data.client;
  drawQr(c.page, auth.qr, PAGE_WIDTH - MARGIN - QR_SIZE, PAGE_HEIGHT - MARGIN - QR_SIZE, QR_SIZE);
  const note = data.typeDocument === CREDIT_NOTE;
  text(c, note ? 'NOTA DE CRÉDITO ELECTRÓNICA' : 'FACTURA ELECTRÓNICA', MARGIN, 14, true);
  c.y -= 18;
  text(c, 'Comprobante auxiliar (CAFE) del gateway sandbox: sin valor fiscal', MARGIN, 8, false, 'grey');
  c.y -= 18;

  text(c, c.fonts.clean(auth.issuer.name), MARGIN, 11, true);
  c.y -= 13;
  field(c, 'RUC', `${auth.issuer.ruc}  DV ${auth.issuer.dv}`);
  field(c, 'Dirección', auth.issuer.address);
  field(c, 'Sucursal', doc.codeBranchIssuer);
  c.y -= 6;
  field(c, 'Documento', `${data.typeDocument} ${DOCUMENT_TYPES[data.typeDocument] ?? ''}`);
  field(c, 'Número fiscal', fiscalNumber);
  field(c, 'Fecha de emisión', data.dateBroadcast);
  field(c, 'Ambiente', auth.environment === '1' ? '1 Producción' : '2 Pruebas');
  c.y = Math.min(c.y, PAGE_HEIGHT - MARGIN - QR_SIZE) - 10;

  text(c, 'Cliente', MARGIN, 10, true);
  c.y -= 12;
  field(c, 'Tipo', `${client.typeClientEB} ${CLIENT_TYPES[client.typeClientEB] ?? ''}`);
  if (client.businessName) field(c, 'Nombre', client.businessName);
  if (client.numberRUC) field(c, 'RUC', client.digitCheckRUC ? `${client.numberRUC}  DV ${client.digitCheckRUC}` : client.numberRUC);
  if (client.address) field(c, 'Dirección', client.address);
  const location = locationText(client);
  if (location) field(c, 'Ubicación', location);
  if (client.email1) field(c, 'Correo', client.email1);
  if (client.telephone1) field(c, 'Teléfono', client.telephone1);
  field(c, 'País', client.country);
  c.y -= 6;

  text(c, 'Autorización', MARGIN, 10, true);
  c.y -= 12;
  field(c, 'Protocolo', auth.nroAuthorizationProtocol);
  field(c, 'Recepción DGI', auth.receptionDateDGI);
  field(c, 'CUFE', auth.cufe);
  const what = note ? 'la nota de crédito' : 'la factura';
  text(c, `Consulte ${what} con el código QR o por CUFE en el portal de la DGI (dgi-fep.mef.gob.pa).`, MARGIN, 7.5, false, 'grey');
  c.y -= 16;
  // After the note's own CUFE: the app reads the first CUFE of the text as the document's (pdf-cufe.ts).
  for (const reference of data.listDocsFiscalReferenced ?? []) {
    text(c, 'Factura referenciada', MARGIN, 10, true);
    c.y -= 12;
    field(c, 'CUFE', reference.cufeFEReferenced);
    field(c, 'Fecha de emisión', reference.dateEmissionDocFiscalReferenced);
    c.y -= 6;
  }
}

/** Code and names of the client's location; the province's name from its number when only the code was sent. */
function locationText(client: SandboxClient): string {
  let names = [client.correction, client.district, client.province].filter(Boolean).join(', ');
  const province = client.codeLocation ? PROVINCES[client.codeLocation.split('-')[0]!] : undefined;
  if (!names && province) names = `provincia ${province}`;
  return [client.codeLocation, names].filter(Boolean).join(' ');
}

function field(c: Cursor, label: string, value: string): void {
  const size = 8.5;
  text(c, `${label}:`, MARGIN, size, true);
  const x = MARGIN + 88;
  const width = PAGE_WIDTH - MARGIN - QR_SIZE - 8 - x;
  const lines = wrap(c.fonts.clean(value), c.fonts.regular, size, Math.max(width, 200));
  for (const [i, line] of lines.entries()) {
    if (i > 0) c.y -= size + 2;
    text(c, line, x, size, false);
  }
  c.y -= size + 3;
}

// ---------------------------------------------------------------------------------------------
// Lines table, paginated

function drawLines(c: Cursor, doc: SandboxDocument): void {
  drawTableHeader(c);
  for (const [i, item] of doc.listItems.entries()) {
    const cells = [
      String(i + 1),
      item.code,
      item.description,
      item.amount,
      item.priceUnit,
      item.priceUnitDiscount,
      ITBMS_RATES[item.rateITBMS] ?? item.rateITBMS,
      item.valueITBMS,
      item.totalValue,
    ].map((cell, k) => cellLines(c.fonts, c.fonts.clean(cell), COLUMNS[k]!));
    const height = Math.max(...cells.map((l) => l.length)) * LINE_HEIGHT + 3;
    if (c.y - height < BOTTOM) {
      newPage(c);
      drawTableHeader(c);
    }
    let x = MARGIN;
    for (const [k, lines] of cells.entries()) {
      const column = COLUMNS[k]!;
      for (const [n, line] of lines.entries()) {
        const width = c.fonts.regular.widthOfTextAtSize(line, TABLE_SIZE);
        const left = column.align === 'right' ? x + column.width - CELL_PADDING - width : x + CELL_PADDING;
        drawString(c.page, line, { x: left, y: c.y - LINE_HEIGHT * (n + 1) + 2, size: TABLE_SIZE, font: c.fonts.regular });
      }
      x += column.width;
    }
    c.y -= height;
    c.page.drawLine({ start: { x: MARGIN, y: c.y }, end: { x: PAGE_WIDTH - MARGIN, y: c.y }, thickness: 0.3, color: LIGHT });
  }
  c.y -= 12;
}

function drawTableHeader(c: Cursor): void {
  const height = LINE_HEIGHT + 4;
  c.page.drawRectangle({ x: MARGIN, y: c.y - height, width: PAGE_WIDTH - 2 * MARGIN, height, color: LIGHT });
  let x = MARGIN;
  for (const column of COLUMNS) {
    const width = c.fonts.bold.widthOfTextAtSize(c.fonts.clean(column.title), TABLE_SIZE);
    const left = column.align === 'right' ? x + column.width - CELL_PADDING - width : x + CELL_PADDING;
    drawString(c.page, c.fonts.clean(column.title), { x: left, y: c.y - LINE_HEIGHT, size: TABLE_SIZE, font: c.fonts.bold });
    x += column.width;
  }
  c.y -= height;
}

/** A cell's text as lines: the description wraps, anything else is cut to the column. */
function cellLines(fonts: Fonts, value: string, column: Column): string[] {
  const width = column.width - 2 * CELL_PADDING;
  if (column.wrap) return wrap(value, fonts.regular, TABLE_SIZE, width);
  return [fit(value, fonts.regular, TABLE_SIZE, width)];
}

// ---------------------------------------------------------------------------------------------
// Totals and payments

function drawTotals(c: Cursor, doc: SandboxDocument): void {
  const t = doc.totalsSubTotals;
  const rows: [string, string, boolean][] = [
    ['Total neto', t.totalPriceNet, false],
    ['ITBMS', t.totalITBMS, false],
    ...(t.totalISC ? [['ISC', t.totalISC, false] as [string, string, boolean]] : []),
    ['Total impuestos (gravado)', t.totalAmountTaxed, false],
    ['Total de los ítems', t.totalAllItems, false],
    ['TOTAL', t.totalInvoice, true],
    ['Total recibido', t.totalValueReceived, false],
  ];
  const payments = t.listFormPayment.map((p): [string, string, boolean] => [
    `Pago: ${PAYMENT_FORMS[p.formPaymentInvoice] ?? p.formPaymentInvoice}`,
    p.valueFeePaid,
    false,
  ]);
  const all = [
    ...rows,
    ...payments,
    [`Ítems: ${t.nroItems}   Tiempo de pago: ${t.timePayment === '1' ? 'inmediato' : t.timePayment}`, '', false] as [
      string,
      string,
      boolean,
    ],
  ];
  if (c.y - all.length * 12 < BOTTOM) newPage(c);
  const right = PAGE_WIDTH - MARGIN;
  for (const [label, value, strong] of all) {
    const font = strong ? c.fonts.bold : c.fonts.regular;
    const size = strong ? 10 : 8.5;
    const cleanLabel = c.fonts.clean(label);
    const labelX = right - 120 - font.widthOfTextAtSize(cleanLabel, size);
    drawString(c.page, cleanLabel, { x: Math.max(MARGIN, labelX), y: c.y - size, size, font });
    if (value !== '') {
      const cleanValue = c.fonts.clean(value);
      drawString(c.page, cleanValue, { x: right - font.widthOfTextAtSize(cleanValue, size), y: c.y - size, size, font });
    }
    c.y -= size + 4;
  }
}

function drawFooters(pdf: PDFDocument, fonts: Fonts, cufe: string, fiscalNumber: string): void {
  const pages = pdf.getPages();
  for (const [i, page] of pages.entries()) {
    const line = `${fiscalNumber} · CUFE ${cufe} · Página ${i + 1} de ${pages.length}`;
    drawString(page, fonts.clean(line), { x: MARGIN, y: 28, size: 6.5, font: fonts.regular, color: 'grey' });
  }
}

function newPage(c: Cursor): void {
  c.page = c.pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  c.y = PAGE_HEIGHT - MARGIN;
}

// ---------------------------------------------------------------------------------------------
// Text helpers

function text(c: Cursor, value: string, x: number, size: number, strong: boolean, color: TextColor = 'black'): void {
  const font = strong ? c.fonts.bold : c.fonts.regular;
  drawString(c.page, c.fonts.clean(value), { x, y: c.y - size, size, font, color });
}
