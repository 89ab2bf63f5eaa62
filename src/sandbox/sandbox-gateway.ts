// The sandbox gateway's state and behaviour, free of any transport: issued documents, taxpayer
// credentials, issuer identity, Authorization check and fault injection. sandbox-server.ts puts it
// on HTTP; tests may also call it in-process.
//
// Conventions (spec/gateway-api.md leaves them open; these are the sandbox's choices):
// - Taxpayer credentials: with `taxpayers` configured, only those {Company, Token} pairs are valid;
//   without, any non-empty Token is valid except one starting with "bad" (→ 101).
//   GW_Company, GW_Token, Id_Pac and Enterprise only have to be present (→ 109 when missing).
// - Authorization header: `Bearer <authToken>` or the bare `<authToken>` (authScheme 'any', the
//   default); 'bearer' / 'bare' accept only that form. Wrong or missing → HTTP 401
//   `{code:'401', result:'error', message:…}`.
// - Every gateway answer (200, 101, 102, 109, 201) is HTTP 200 with the code in the body.
// - DownloadPDF of an unknown document → `{code:'201', result:'error', message:'Documento no encontrado'}`.
// - StatusDocument of an unknown document → `{code:'201', result:'error', message:'Documento no encontrado',
//   statusDocument:'No encontrado', messageDocument:'El documento no existe en el gateway'}`.
// - Documents are keyed by (Company, codeBranchIssuer, pointBillingFiscal, typeDocument,
//   numberDocumentFiscal); typeEmission is kept but not part of the key.
import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { buildCufe, qrUrl } from '../../mappers/cufe.ts';
import { sameSecret } from '../same-secret.ts';
import { mulberry32 } from '../seeded-random.ts';
import { type GatewayCredentials } from '../gateway/gateway-types.ts';
import { documentSchema, type GatewayDocument } from '../../mappers/gateway-document.ts';
import { validateSendDocument } from './document-rules.ts';
import { checkCredentialsPresent, checkDocumentDataPresent } from './rules/required-fields.ts';
import type { PdfRenderer } from './pdf-thread.ts';
import { renderInvoicePdf, type SandboxIssuer } from './sandbox-pdf.ts';

export type { SandboxIssuer } from './sandbox-pdf.ts';
export { mulberry32 } from '../seeded-random.ts';

export const SANDBOX_OPERATIONS = ['SendDocument', 'DownloadPDF', 'StatusDocument'] as const;
export type SandboxOperation = (typeof SANDBOX_OPERATIONS)[number];

/**
 * Faults, drawn per request from a seeded PRNG in this order: drop, 5xx, 201, authorize-then-late
 * (so the rates are shares of the same requests and should add up to ≤ 1). Latency, 5xx and drop
 * apply to all three operations; 201 and authorize-then-late only to SendDocument.
 */
export const faultConfigSchema = z.strictObject({
  /** Time to answer each request (the gateway's own work included): fixed, or uniform in [min, max]. */
  latencyMs: z
    .union([
      z.number().int().min(0),
      z.strictObject({ min: z.number().int().min(0), max: z.number().int().min(0) }).refine((r) => r.min <= r.max, 'min must be ≤ max'),
    ])
    .optional(),
  /** Share of SendDocument answered `201` generic error without issuing. */
  rate201: z.number().min(0).max(1).optional(),
  /** Share answered HTTP 500/502/503 with an HTML body. */
  rate5xx: z.number().min(0).max(1).optional(),
  /** Share whose socket is destroyed without an answer. */
  rateDrop: z.number().min(0).max(1).optional(),
  /** Share of SendDocument that is processed (and issued) but answered `lateMs` later. */
  rateAuthorizeThenLate: z.number().min(0).max(1).optional(),
  /** Extra delay of an authorize-then-late answer; default 5000. */
  lateMs: z.number().int().min(0).optional(),
  /** Reseed the fault PRNG (setFaults) or seed it (construction). */
  seed: z.number().int().optional(),
});
export type FaultConfig = z.infer<typeof faultConfigSchema>;

export interface SandboxTaxpayer {
  Company: string;
  Token: string;
  /** Issuer identity of this taxpayer; defaults to the gateway's `issuer`. */
  issuer?: SandboxIssuer;
}

export interface SandboxGatewayOptions {
  /** Valid taxpayer credentials; absent = any Token not empty and not starting with "bad". */
  taxpayers?: SandboxTaxpayer[];
  issuer?: SandboxIssuer;
  /** Expected Authorization JWT; default DEFAULT_SANDBOX_AUTH_TOKEN. */
  authToken?: string;
  authScheme?: 'any' | 'bearer' | 'bare';
  faults?: FaultConfig;
  /** Seeds the fault PRNG and the CUFE security codes; default 1. */
  seed?: number;
  /** HS256 key of the QR's jwt. */
  signingKey?: string;
  now?: () => Date;
  /**
   * Fields of `document.dataTransaction.client` this gateway also requires (109 when absent), to play a
   * provider stricter than the spec, e.g. ['telephone1'].
   */
  extraRequiredClientFields?: string[];
  /**
   * Draws the PDFs (default: on this thread, when first downloaded). Given one, a PDF is drawn as soon as
   * its document is issued, ready for the DownloadPDF that follows.
   */
  renderPdf?: PdfRenderer;
}

/** What the transport must do: answer JSON, answer an HTML error page, or drop the connection. */
export type SandboxReply =
  | { kind: 'json'; status: number; body: Record<string, unknown>; delayMs: number }
  | { kind: 'html'; status: number; body: string; delayMs: number }
  | { kind: 'drop'; delayMs: number };

export interface IssuedDocumentSummary {
  company: string;
  codeBranchIssuer: string;
  pointBillingFiscal: string;
  typeDocument: string;
  numberDocumentFiscal: string;
  typeEmission: string;
  environment: string;
  cufe: string;
  qr: string;
  receptionDateDGI: string;
  nroAuthorizationProtocol: string;
  totalInvoice: string;
  document: GatewayDocument;
}

export interface SandboxStats {
  requests: Record<SandboxOperation, number>;
  issued: number;
  /** Answers by body code ('200', '101', …, '401'); injected faults counted below, not here. */
  codes: Record<string, number>;
  injected: { latency: number; error201: number; http5xx: number; drop: number; authorizeThenLate: number };
}

interface IssuedDocument extends IssuedDocumentSummary {
  issuer: SandboxIssuer;
  pdf?: Promise<Uint8Array>;
}

export const DEFAULT_SANDBOX_ISSUER: SandboxIssuer = {
  // HKA's public sample RUC; its DV is valid (reference §4.1).
  ruc: '155596713-2-2015',
  dv: '59',
  taxpayerType: '2',
  name: 'Comercio Sandbox, S.A.',
  address: 'Avenida Balboa, Bella Vista, Panamá',
};

/** Credentials the sandbox accepts by default (any Token not starting with "bad" would do). */
export const DEFAULT_SANDBOX_CREDENTIALS: GatewayCredentials = {
  GW_Company: 'sandbox-platform',
  GW_Token: 'sandbox-platform-password',
  Id_Pac: 'EBI',
  Enterprise: 'SANDBOX',
  Company: 'sandbox-taxpayer',
  Token: 'sandbox-token',
};

const DEFAULT_SIGNING_KEY = 'factura-pa-sandbox-signing-key';
const DEFAULT_LATE_MS = 5000;

/** The Authorization JWT the sandbox expects unless told otherwise (fixed, so it can be printed). */
export const DEFAULT_SANDBOX_AUTH_TOKEN = signJwt({ iss: 'factura-pa-sandbox', sub: 'sandbox-platform' }, DEFAULT_SIGNING_KEY);

const MESSAGES = {
  ok: 'Documento procesado correctamente',
  badToken: 'Token de emisor invalido.',
  duplicate: 'Documento duplicado',
  generic: 'Error al procesar solicitud.',
  notFound: 'Documento no encontrado',
  unauthorized: 'Authorization inválida o ausente: se espera el JWT del operador de la plataforma',
  authorized: 'Autorizada',
  authorizedMessage: 'Autorizado el uso de la FE',
} as const;

export class SandboxGateway {
  readonly #taxpayers: SandboxTaxpayer[] | undefined;
  readonly #issuer: SandboxIssuer;
  readonly #authToken: string;
  readonly #authScheme: 'any' | 'bearer' | 'bare';
  readonly #signingKey: string;
  readonly #now: () => Date;
  readonly #documents = new Map<string, IssuedDocument>();
  #extraRequiredClientFields: string[];
  readonly #renderPdf: PdfRenderer | undefined;
  readonly #securityCodes: () => number;
  #faults: FaultConfig;
  #random: () => number;
  #protocolCounter = 0;
  #stats: SandboxStats = emptyStats();

  constructor(options: SandboxGatewayOptions = {}) {
    this.#taxpayers = options.taxpayers;
    this.#issuer = options.issuer ?? DEFAULT_SANDBOX_ISSUER;
    this.#authToken = options.authToken ?? DEFAULT_SANDBOX_AUTH_TOKEN;
    this.#authScheme = options.authScheme ?? 'any';
    this.#signingKey = options.signingKey ?? DEFAULT_SIGNING_KEY;
    this.#now = options.now ?? (() => new Date());
    this.#extraRequiredClientFields = options.extraRequiredClientFields ?? [];
    this.#renderPdf = options.renderPdf;
    const faults = faultConfigSchema.parse(options.faults ?? {});
    const seed = faults.seed ?? options.seed ?? 1;
    this.#faults = faults;
    this.#random = mulberry32(seed);
    // A separate stream, so the security codes do not shift the fault sequence.
    this.#securityCodes = mulberry32(seed ^ 0x5eed5eed);
  }

  /** Fields of the client this gateway requires beyond the spec (see the option). */
  setExtraRequiredClientFields(fields: string[]): void {
    this.#extraRequiredClientFields = [...fields];
  }

  /** Replace the fault configuration (validated); a `seed` in it restarts the fault PRNG. */
  setFaults(config: unknown): FaultConfig {
    const faults = faultConfigSchema.parse(config);
    this.#faults = faults;
    if (faults.seed !== undefined) this.#random = mulberry32(faults.seed);
    return this.faults();
  }

  faults(): FaultConfig {
    return structuredClone(this.#faults);
  }

  stats(): SandboxStats {
    return structuredClone(this.#stats);
  }

  resetStats(): void {
    this.#stats = emptyStats();
  }

  /** Issued documents, oldest first, without the cached PDFs. */
  documents(): IssuedDocumentSummary[] {
    return [...this.#documents.values()].map(({ issuer: _issuer, pdf: _pdf, ...summary }) => structuredClone(summary));
  }

  /** True when the header carries the expected JWT in an accepted form. */
  checkAuthorization(header: string | undefined): boolean {
    if (header === undefined) return false;
    const match = /^bearer\s+(.+)$/i.exec(header.trim());
    if (match && this.#authScheme === 'bare') return false;
    if (!match && this.#authScheme === 'bearer') return false;
    return sameSecret(match ? match[1]!.trim() : header.trim(), this.#authToken);
  }

  /** One request as the transport sees it: faults, Authorization, then the operation. */
  async handle(operation: SandboxOperation, body: unknown, authorization: string | undefined): Promise<SandboxReply> {
    this.#stats.requests[operation]++;
    const fault = this.#drawFault(operation);
    const delayMs = this.#drawLatency();
    if (delayMs > 0) this.#stats.injected.latency++;
    if (fault === 'drop') {
      this.#stats.injected.drop++;
      return { kind: 'drop', delayMs };
    }
    if (fault === '5xx') {
      this.#stats.injected.http5xx++;
      const status = [500, 502, 503][Math.floor(this.#random() * 3)]!;
      return { kind: 'html', status, body: errorPage(status), delayMs };
    }
    if (!this.checkAuthorization(authorization)) {
      return this.#json(401, { code: '401', result: 'error', message: MESSAGES.unauthorized }, delayMs);
    }
    if (fault === '201') {
      this.#stats.injected.error201++;
      return { kind: 'json', status: 200, body: failure('201', MESSAGES.generic), delayMs };
    }
    const body_ = await this.#operation(operation, body);
    if (fault === 'late') {
      this.#stats.injected.authorizeThenLate++;
      return this.#json(200, body_, delayMs + (this.#faults.lateMs ?? DEFAULT_LATE_MS));
    }
    return this.#json(200, body_, delayMs);
  }

  /** Run an operation without faults or Authorization (in-process use). */
  async call(operation: SandboxOperation, body: unknown): Promise<Record<string, unknown>> {
    return this.#operation(operation, body);
  }

  sendDocument(body: unknown): Record<string, unknown> {
    const problem = checkCredentialsPresent(body);
    if (problem) return failure(problem.code, problem.message);
    const taxpayer = this.#taxpayer(body as GatewayCredentials);
    if (taxpayer === undefined) return failure('101', MESSAGES.badToken);
    const now = this.#now();
    const rules = validateSendDocument(body, now);
    if (rules) return failure(rules.code, rules.message);
    const client = (body as { document: { dataTransaction: { client: Record<string, unknown> } } }).document.dataTransaction.client;
    const missing = this.#extraRequiredClientFields.find((f) => typeof client[f] !== 'string' || client[f] === '');
    if (missing) return failure('109', `field ${missing} is required`);
    const request = body as { environment: string; document: unknown; Company: string };
    const parsed = documentSchema.safeParse(request.document);
    if (!parsed.success) return failure('201', `${MESSAGES.generic} ${parsed.error.issues[0]?.message ?? ''}`.trim());
    const document = parsed.data;
    const data = document.dataTransaction;
    const key = documentKey(
      request.Company,
      document.codeBranchIssuer,
      data.pointBillingFiscal,
      data.typeDocument,
      data.numberDocumentFiscal,
    );
    if (this.#documents.has(key)) {
      const fiscalNumber = `${document.codeBranchIssuer}-${data.pointBillingFiscal}-${data.numberDocumentFiscal}`;
      return failure('102', `${MESSAGES.duplicate}: ${fiscalNumber} (tipo ${data.typeDocument}) ya existe`);
    }
    const issued = this.#issue(request.Company, request.environment, document, request.document, taxpayer.issuer ?? this.#issuer, now);
    this.#documents.set(key, issued);
    if (this.#renderPdf) this.#pdfOf(issued).catch(() => {}); // a failure shows at DownloadPDF
    this.#stats.issued++;
    return {
      code: '200',
      result: 'procesado',
      message: MESSAGES.ok,
      cufe: issued.cufe,
      id: null,
      invoice: null,
      qr: issued.qr,
      xml: null,
      receptionDateDGI: issued.receptionDateDGI,
      nroAuthorizationProtocol: issued.nroAuthorizationProtocol,
      deadline: null,
      secuence: null,
      warnings: [{ code: '200', message: MESSAGES.ok, fieldName: null }],
    };
  }

  async downloadPdf(body: unknown): Promise<Record<string, unknown>> {
    const found = this.#lookup(body);
    if (!('issued' in found)) return found.failure;
    const issued = found.issued;
    return { code: '200', document: Buffer.from(await this.#pdfOf(issued)).toString('base64') };
  }

  #pdfOf(issued: IssuedDocument): Promise<Uint8Array> {
    const { issuer, environment, cufe, qr, receptionDateDGI, nroAuthorizationProtocol } = issued;
    issued.pdf ??= (this.#renderPdf ?? renderInvoicePdf)(issued.document, {
      issuer,
      environment,
      cufe,
      qr,
      receptionDateDGI,
      nroAuthorizationProtocol,
    });
    return issued.pdf;
  }

  statusDocument(body: unknown): Record<string, unknown> {
    const found = this.#lookup(body);
    if (!('issued' in found)) {
      if (found.failure.code !== '201') return found.failure;
      return { ...found.failure, statusDocument: 'No encontrado', messageDocument: 'El documento no existe en el gateway' };
    }
    return { code: '200', statusDocument: MESSAGES.authorized, messageDocument: MESSAGES.authorizedMessage };
  }

  // -------------------------------------------------------------------------------------------

  async #operation(operation: SandboxOperation, body: unknown): Promise<Record<string, unknown>> {
    if (operation === 'SendDocument') return this.sendDocument(body);
    if (operation === 'DownloadPDF') return this.downloadPdf(body);
    return this.statusDocument(body);
  }

  #json(status: number, body: Record<string, unknown>, delayMs: number): SandboxReply {
    const code = String(body.code);
    this.#stats.codes[code] = (this.#stats.codes[code] ?? 0) + 1;
    return { kind: 'json', status, body, delayMs };
  }

  #taxpayer(credentials: GatewayCredentials): SandboxTaxpayer | undefined {
    const { Company, Token } = credentials;
    if (this.#taxpayers === undefined) {
      return Token.startsWith('bad') ? undefined : { Company, Token };
    }
    return this.#taxpayers.find((t) => t.Company === Company && sameSecret(t.Token, Token));
  }

  /** Credentials → 101 → documentData → the issued document, or the failure body to answer. */
  #lookup(body: unknown): { issued: IssuedDocument } | { failure: Record<string, unknown> & { code: string } } {
    const problem = checkCredentialsPresent(body);
    if (problem) return { failure: failure(problem.code, problem.message) };
    if (this.#taxpayer(body as GatewayCredentials) === undefined) return { failure: failure('101', MESSAGES.badToken) };
    const dataProblem = checkDocumentDataPresent(body);
    if (dataProblem) return { failure: failure(dataProblem.code, dataProblem.message) };
    const request = body as { Company: string; documentData: Record<string, string> };
    const d = request.documentData;
    const key = documentKey(request.Company, d.codeBranchIssuing!, d.pointBillingFiscal!, d.typeDocument!, d.numberDocumentFiscal!);
    const issued = this.#documents.get(key);
    return issued ? { issued } : { failure: failure('201', MESSAGES.notFound) };
  }

  #issue(company: string, environment: string, document: GatewayDocument, raw: unknown, issuer: SandboxIssuer, now: Date): IssuedDocument {
    const data = document.dataTransaction;
    const env = environment === '1' ? '1' : '2';
    const securityCode = String(Math.floor(this.#securityCodes() * 1e9)).padStart(9, '0');
    const cufe = buildCufe({
      typeDocument: data.typeDocument,
      taxpayerType: issuer.taxpayerType,
      ruc: issuer.ruc,
      dv: issuer.dv,
      branch: document.codeBranchIssuer,
      date: data.dateBroadcast.slice(0, 10).replaceAll('-', ''),
      fiscalNumber: data.numberDocumentFiscal,
      billingPoint: data.pointBillingFiscal,
      emissionType: data.typeEmission,
      environment: env,
      securityCode,
    });
    const digestValue = createHash('sha256').update(canonicalJson(raw)).digest('base64');
    const jwt = signJwt({ chFE: cufe, iAmb: env, digestValue }, this.#signingKey);
    const receptionDateDGI = panamaDateTime(now);
    this.#protocolCounter++;
    return {
      company,
      codeBranchIssuer: document.codeBranchIssuer,
      pointBillingFiscal: data.pointBillingFiscal,
      typeDocument: data.typeDocument,
      numberDocumentFiscal: data.numberDocumentFiscal,
      typeEmission: data.typeEmission,
      environment,
      cufe,
      qr: qrUrl(env === '1' ? 'produccion' : 'pruebas', cufe, digestValue, jwt),
      receptionDateDGI,
      // Reception time to the second + a per-instance counter: unique digits for this gateway.
      nroAuthorizationProtocol: receptionDateDGI.slice(0, 19).replace(/\D/g, '') + String(this.#protocolCounter).padStart(6, '0'),
      totalInvoice: document.totalsSubTotals.totalInvoice,
      document,
      issuer,
    };
  }

  #drawFault(operation: SandboxOperation): 'drop' | '5xx' | '201' | 'late' | undefined {
    const f = this.#faults;
    const anyFault = (f.rateDrop ?? 0) + (f.rate5xx ?? 0) + (f.rate201 ?? 0) + (f.rateAuthorizeThenLate ?? 0) > 0;
    if (!anyFault) return undefined; // no draw, so a fault-free run consumes no random numbers
    const u = this.#random();
    let edge = f.rateDrop ?? 0;
    if (u < edge) return 'drop';
    edge += f.rate5xx ?? 0;
    if (u < edge) return '5xx';
    if (operation !== 'SendDocument') return undefined;
    edge += f.rate201 ?? 0;
    if (u < edge) return '201';
    edge += f.rateAuthorizeThenLate ?? 0;
    if (u < edge) return 'late';
    return undefined;
  }

  #drawLatency(): number {
    const latency = this.#faults.latencyMs;
    if (latency === undefined) return 0;
    if (typeof latency === 'number') return latency;
    return latency.min + Math.floor(this.#random() * (latency.max - latency.min + 1));
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function emptyStats(): SandboxStats {
  return {
    requests: { SendDocument: 0, DownloadPDF: 0, StatusDocument: 0 },
    issued: 0,
    codes: {},
    injected: { latency: 0, error201: 0, http5xx: 0, drop: 0, authorizeThenLate: 0 },
  };
}

/** A failure body: only code, result and message (spec "Errors"). */
function failure(code: string, message: string): Record<string, unknown> & { code: string } {
  return { code, result: 'error', message };
}

function documentKey(company: string, branch: string, point: string, type: string, number: string): string {
  return JSON.stringify([company, branch, point, type, number]);
}

/** A proxy's error page, as a real outage would answer: HTML, not the gateway's JSON. */
function errorPage(status: number): string {
  const title = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' }[status] ?? 'Error';
  return `<html><head><title>${status} ${title}</title></head><body><center><h1>${status} ${title}</h1></center><hr><center>nginx</center></body></html>\n`;
}

/** `YYYY-MM-DDThh:mm:ss-05:00`: Panamá has no daylight saving time. */
export function panamaDateTime(date: Date): string {
  return `${new Date(date.getTime() - 5 * 3600_000).toISOString().slice(0, 19)}-05:00`;
}

/** JSON with object keys sorted at every level, so equal documents give equal digests. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** HS256 JWT (header {"alg":"HS256","typ":"JWT"}). */
export function signJwt(payload: Record<string, unknown>, key: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', key).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}
