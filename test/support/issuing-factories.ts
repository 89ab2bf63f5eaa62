// Named inputs for the use case's unit tests: documents as the runner hands them over (claimed, sent, authorized),
// the shop as of the claim, the gateway's answers, and the PDF the gateway would print for a document.
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { buildCufe } from '../../mappers/fiscal/cufe.ts';
import { orderIdentity } from '../../mappers/shopify/order-identity.ts';
import { defaultMappingSettings } from '../../mappers/invoice/mapping-settings.ts';
import type { DocumentRow } from '../../src/documents/store/index.ts';
import type { IssuingShop } from '../../src/documents/issuing-ports.ts';
import type { PdfOutcome, SendOutcome, StatusOutcome } from '../../src/gateway/gateway-client.ts';
import type { DocumentKey } from '../../src/gateway/gateway-types.ts';
import { DEFAULT_SANDBOX_ISSUER } from '../../sim/sandbox/sandbox-access.ts';
import { renderInvoicePdf } from '../../sim/sandbox/sandbox-pdf.ts';
import { shopSettingsSchema } from '../../src/shops/shop-settings.ts';
import { FIXTURE_NOW, mapFixture, readOrderFixture } from './order-fixtures.ts';

export const SHOP = 'tienda-unit.myshopify.com';
export const APP_URL = 'https://facturas.example';
export const CLAIMED_AT = FIXTURE_NOW;
/** The number the fake store hands out next, unless a test says otherwise. */
export const NEXT_NUMBER = 42;

export const CREDENTIALS = {
  GW_Company: 'plataforma',
  GW_Token: 'plataforma-secreto',
  Id_Pac: 'pac-7',
  Enterprise: 'empresa-9',
  Company: 'tienda-unit',
  Token: 'contribuyente-secreto',
};

/** The shop as the runner reads it for a claim: default settings (pruebas, branch 0000, point 001), credentials set. */
export function issuingShop(settings: Partial<IssuingShop['settings']> = {}): IssuingShop {
  return { shop: SHOP, settings: { ...shopSettingsSchema.parse({}), ...settings }, credentials: CREDENTIALS };
}

/** An order fixture's body, changed as a test needs. */
export function orderBody(fixture: string, change: (order: Record<string, unknown>) => void = () => {}): Record<string, unknown> {
  const body = readOrderFixture(fixture) as Record<string, unknown>;
  change(body);
  return body;
}

/** An invoice the intake stored for this order and the runner just claimed: pending, at the send step, no number. */
export function claimedInvoice(order: Record<string, unknown>, o: Partial<DocumentRow> = {}): DocumentRow {
  const read = orderIdentity(order);
  if (!read.ok) throw new Error(`not an order: ${read.problem}`);
  const { orderGid, name, currency, test, totalCents } = read.identity;
  return {
    id: '00000000-0000-4000-8000-000000000001',
    shop: SHOP,
    kind: 'invoice',
    sourceKey: orderGid,
    orderGid,
    orderName: name,
    documentType: '01',
    invoiceId: null,
    replacesId: null,
    backfillId: null,
    step: 'send',
    status: 'pending',
    totalCents,
    currency,
    test,
    snapshot: order,
    snapshotRedacted: false,
    refreshSnapshot: false,
    clientOverride: null,
    taxIdSource: null,
    attempts: 0,
    nextAttemptAt: CLAIMED_AT,
    leaseOwner: 'worker-unit',
    leaseUntil: new Date(CLAIMED_AT.getTime() + 60_000),
    environment: null,
    branchCode: null,
    billingPoint: null,
    fiscalNumber: null,
    sendMayHaveReached: false,
    document: null,
    documentHash: null,
    repeated201: 0,
    last201At: null,
    cufe: null,
    qr: null,
    protocol: null,
    receptionDateDgi: null,
    authorizedAt: null,
    writtenBackAt: null,
    lastErrorKind: null,
    lastErrorCode: null,
    lastError: null,
    problems: null,
    notice: null,
    buyerToken: 'buyer-token-of-the-unit-invoice-0123456789a',
    createdAt: CLAIMED_AT,
    updatedAt: CLAIMED_AT,
    ...o,
  };
}

/** The fixture's document as this app sends it with number NEXT_NUMBER at `now`. */
export function sentDocument(fixture: string, now: Date = CLAIMED_AT): GatewayDocument {
  const mapped = mapFixture(fixture, { settings: defaultMappingSettings, fiscalNumber: NEXT_NUMBER, now });
  if (!mapped.ok) throw new Error(`${fixture} does not map: ${JSON.stringify(mapped.problems)}`);
  return mapped.document;
}

/**
 * An invoice whose SendDocument with number NEXT_NUMBER may have reached the gateway, and whose answer was lost
 * (the runner retried it as indeterminate): the next send may meet a 102 for its own number.
 */
export function sentInvoice(fixture: string, o: Partial<DocumentRow> = {}): DocumentRow {
  const document = sentDocument(fixture);
  return claimedInvoice(orderBody(fixture), {
    environment: 'pruebas',
    branchCode: '0000',
    billingPoint: '001',
    fiscalNumber: NEXT_NUMBER,
    sendMayHaveReached: true,
    document,
    // As the first send saved it: a taxpayer's RUC comes from the fixtures' cart attributes.
    taxIdSource: document.dataTransaction.client.typeClientEB === '01' ? 'cart_attributes' : null,
    attempts: 1,
    lastErrorKind: 'indeterminate',
    lastErrorCode: null,
    lastError: { key: 'indeterminate', params: { reason: 'no answer within 30000 ms' } },
    ...o,
  });
}

/** An invoice the gateway authorized, at a later step (pdf, writeback). */
export function authorizedInvoice(fixture: string, step: DocumentRow['step'], o: Partial<DocumentRow> = {}): DocumentRow {
  return sentInvoice(fixture, {
    step,
    attempts: 0,
    lastErrorKind: null,
    lastError: null,
    cufe: CUFE,
    qr: AUTHORIZED.qr,
    protocol: AUTHORIZED.protocol,
    receptionDateDgi: AUTHORIZED.receptionDateDgi,
    authorizedAt: CLAIMED_AT,
    ...o,
  });
}

/** How DownloadPDF and StatusDocument name the document with number NEXT_NUMBER at branch 0000, point 001. */
export const DOCUMENT_KEY: DocumentKey = {
  codeBranchIssuing: '0000',
  numberDocumentFiscal: '0000000042',
  pointBillingFiscal: '001',
  typeDocument: '01',
  typeEmission: '01',
};

/** The CUFE the gateway gives invoice 0000-001-0000000042 of the sandbox issuer in pruebas, on FIXTURE_NOW's date. */
export const CUFE = buildCufe({
  typeDocument: '01',
  taxpayerType: DEFAULT_SANDBOX_ISSUER.taxpayerType,
  ruc: DEFAULT_SANDBOX_ISSUER.ruc,
  dv: DEFAULT_SANDBOX_ISSUER.dv,
  branch: '0000',
  date: '20261120',
  fiscalNumber: '0000000042',
  billingPoint: '001',
  emissionType: '01',
  environment: '2',
  securityCode: '123456789',
});

export const AUTHORIZED = {
  kind: 'authorized',
  cufe: CUFE,
  qr: `https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR?chFE=${CUFE}&iAmb=2&digestValue=abc&jwt=xyz`,
  protocol: '20261120103000000001',
  receptionDateDgi: '2026-11-20T10:30:00-05:00',
  message: 'Documento autorizado',
} as const satisfies SendOutcome;

/** The gateway's answers, by name. */
export const answers = {
  authorized: (): SendOutcome => ({ ...AUTHORIZED }),
  duplicate: (): SendOutcome => ({ kind: 'duplicate', code: '102', message: 'Documento ya existe' }),
  rejected: (code: string, fieldName?: string): SendOutcome => ({
    kind: 'rejected',
    code,
    message: code === '109' ? `field ${fieldName} is required` : 'Error de procesamiento',
    fieldName,
  }),
  credentials: (): SendOutcome & PdfOutcome & StatusOutcome => ({ kind: 'credentials', code: '101', message: 'Credenciales inválidas' }),
  unavailable: (): SendOutcome & PdfOutcome & StatusOutcome => ({ kind: 'unavailable', reason: 'HTTP 503', httpStatus: 503 }),
  indeterminate: (): SendOutcome => ({ kind: 'indeterminate', reason: 'no answer within 30000 ms' }),
  pdf: (pdf: Buffer): PdfOutcome => ({ kind: 'pdf', pdf }),
  pdfNotFound: (): PdfOutcome => ({ kind: 'not_found', code: '404', message: 'Documento no encontrado' }),
  statusAuthorized: (): StatusOutcome => ({ kind: 'authorized', status: 'Autorizado', message: 'Autorizado el uso de la FE' }),
  statusOther: (): StatusOutcome => ({ kind: 'other', code: '102', status: 'Anulado', message: 'Documento anulado' }),
};

/** The PDF the gateway prints for `document` under CUFE (the sandbox's own renderer: a real PDF with text). */
export async function gatewayPdf(document: GatewayDocument): Promise<Buffer> {
  const pdf = await renderInvoicePdf(document, {
    issuer: DEFAULT_SANDBOX_ISSUER,
    environment: '2',
    cufe: CUFE,
    qr: AUTHORIZED.qr,
    receptionDateDGI: AUTHORIZED.receptionDateDgi,
    nroAuthorizationProtocol: AUTHORIZED.protocol,
  });
  return Buffer.from(pdf);
}
