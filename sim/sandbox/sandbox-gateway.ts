// The sandbox gateway's behaviour, free of any transport: the three operations on the issued documents (invoices
// and credit notes, type 04), behind the Authorization check and the injected faults. sandbox-server.ts puts it on HTTP; tests may also call it in-process.
// Everything it judges a document by (field names, codes, arithmetic, RUC check digit, CUFE) is its own, written from
// the gateway spec and the DGI rules (rules/, fiscal/): it imports nothing of the app it is the oracle for.
//
// Conventions (docs/gateway-api.md leaves them open; these are the sandbox's choices):
// - Every gateway answer (200, 101, 102, 109, 201) is HTTP 200 with the code in the body; GW_Company, GW_Token,
//   Id_Pac and Enterprise only have to be present (→ 109 when missing). Wrong or missing Authorization → HTTP 401
//   `{code:'401', result:'error', message:…}` (sandbox-access.ts says what is accepted).
// - DownloadPDF of an unknown document → `{code:'201', result:'error', message:'Documento no encontrado'}`.
// - StatusDocument of an unknown document → `{code:'201', result:'error', message:'Documento no encontrado',
//   statusDocument:'No encontrado', messageDocument:'El documento no existe en el gateway'}`.
import { Authorizer } from './authorizer.ts';
import { checkSendDocument } from './document-rules.ts';
import { documentKey, IssuedDocuments, type IssuedDocument, type IssuedDocumentSummary, type NoteCredit } from './issued-documents.ts';
import type { PdfRenderer } from './pdf-thread.ts';
import { checkNoteAgainstInvoice } from './rules/credit-note-rules.ts';
import { toCents } from './rules/decimal.ts';
import type { SandboxCredentials, SandboxDocument } from './rules/gateway-fields.ts';
import { checkCredentialsPresent, checkDocumentDataPresent } from './rules/required-fields.ts';
import {
  type AuthScheme,
  DEFAULT_SANDBOX_ISSUER,
  DEFAULT_SANDBOX_SIGNING_KEY,
  SandboxAccess,
  type SandboxTaxpayer,
} from './sandbox-access.ts';
import { errorPage, FaultInjector, type FaultConfig } from './sandbox-faults.ts';
import type { SandboxOperation } from './sandbox-operations.ts';
import { renderInvoicePdf, type SandboxIssuer } from './sandbox-pdf.ts';

// The names other modules, tests and the bench import from here.
export { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from './sandbox-access.ts';
export { mulberry32 } from './seeded-random.ts';

export interface SandboxGatewayOptions {
  /** Valid taxpayer credentials; absent = any Token not empty and not starting with "bad". */
  taxpayers?: SandboxTaxpayer[];
  issuer?: SandboxIssuer;
  /** Expected Authorization JWT; default DEFAULT_SANDBOX_AUTH_TOKEN. */
  authToken?: string;
  authScheme?: AuthScheme;
  faults?: FaultConfig;
  /** Seeds the fault PRNG and the CUFE security codes; default 1. */
  seed?: number;
  /** HS256 key of the QR's jwt; default DEFAULT_SANDBOX_SIGNING_KEY. */
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

export interface SandboxStats {
  requests: Record<SandboxOperation, number>;
  issued: number;
  /** Answers by body code ('200', '101', …, '401'); injected faults counted below, not here. */
  codes: Record<string, number>;
  injected: { latency: number; error201: number; http5xx: number; drop: number; authorizeThenLate: number };
}

type Failure = Record<string, unknown> & { code: string };

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
  readonly #access: SandboxAccess;
  readonly #issuer: SandboxIssuer;
  readonly #authorizer: Authorizer;
  readonly #now: () => Date;
  readonly #documents = new IssuedDocuments();
  #extraRequiredClientFields: string[];
  readonly #renderPdf: PdfRenderer | undefined;
  readonly #faults: FaultInjector;
  #stats: SandboxStats = emptyStats();

  constructor(options: SandboxGatewayOptions = {}) {
    this.#access = new SandboxAccess(options);
    this.#issuer = options.issuer ?? DEFAULT_SANDBOX_ISSUER;
    this.#now = options.now ?? (() => new Date());
    this.#extraRequiredClientFields = options.extraRequiredClientFields ?? [];
    this.#renderPdf = options.renderPdf;
    this.#faults = new FaultInjector(options.faults ?? {}, options.seed ?? 1);
    this.#authorizer = new Authorizer(this.#faults.seed, options.signingKey ?? DEFAULT_SANDBOX_SIGNING_KEY);
  }

  /** Fields of the client this gateway requires beyond the spec (see the option). */
  setExtraRequiredClientFields(fields: string[]): void {
    this.#extraRequiredClientFields = [...fields];
  }

  /** Replace the fault configuration (validated); a `seed` in it restarts the fault PRNG. */
  setFaults(config: unknown): FaultConfig {
    return this.#faults.set(config);
  }

  faults(): FaultConfig {
    return this.#faults.config();
  }

  stats(): SandboxStats {
    return structuredClone(this.#stats);
  }

  resetStats(): void {
    this.#stats = emptyStats();
  }

  /** Issued documents, oldest first, without the cached PDFs. */
  documents(): IssuedDocumentSummary[] {
    return this.#documents.list();
  }

  /** Σ totalInvoice, in cents, of the credit notes authorized against this taxpayer's invoice. */
  credited(company: string, invoiceCufe: string): number {
    return this.#documents.credited(company, invoiceCufe);
  }

  /** True when the header carries the expected JWT in an accepted form. */
  checkAuthorization(header: string | undefined): boolean {
    return this.#access.checkAuthorization(header);
  }

  /** One request as the transport sees it: faults, Authorization, then the operation. */
  async handle(operation: SandboxOperation, body: unknown, authorization: string | undefined): Promise<SandboxReply> {
    this.#stats.requests[operation]++;
    const draw = this.#faults.draw(operation);
    const { delayMs } = draw;
    if (delayMs > 0) this.#stats.injected.latency++;
    if (draw.fault === 'drop') {
      this.#stats.injected.drop++;
      return { kind: 'drop', delayMs };
    }
    if (draw.fault === '5xx') {
      this.#stats.injected.http5xx++;
      return { kind: 'html', status: draw.status, body: errorPage(draw.status), delayMs };
    }
    if (!this.checkAuthorization(authorization)) {
      return this.#json(401, { code: '401', result: 'error', message: MESSAGES.unauthorized }, delayMs);
    }
    if (draw.fault === '201') {
      this.#stats.injected.error201++;
      return { kind: 'json', status: 200, body: failure('201', MESSAGES.generic), delayMs };
    }
    const answer = await this.call(operation, body);
    if (draw.fault === 'late') {
      this.#stats.injected.authorizeThenLate++;
      return this.#json(200, answer, delayMs + this.#faults.lateMs());
    }
    return this.#json(200, answer, delayMs);
  }

  /** Run an operation without faults or Authorization (in-process use). */
  async call(operation: SandboxOperation, body: unknown): Promise<Record<string, unknown>> {
    if (operation === 'SendDocument') return this.sendDocument(body);
    if (operation === 'DownloadPDF') return this.downloadPdf(body);
    return this.statusDocument(body);
  }

  async sendDocument(body: unknown): Promise<Record<string, unknown>> {
    const problem = checkCredentialsPresent(body);
    if (problem) return failure(problem.code, problem.message);
    const taxpayer = this.#access.taxpayer(body as SandboxCredentials);
    if (taxpayer === undefined) return failure('101', MESSAGES.badToken);
    const now = this.#now();
    const checked = checkSendDocument(body, now);
    if (!checked.ok) return failure(checked.problem.code, checked.problem.message);
    const request = checked.body;
    const document = request.document;
    const data = document.dataTransaction;
    const client: Record<string, string | undefined> = data.client;
    const missing = this.#extraRequiredClientFields.find((f) => typeof client[f] !== 'string' || client[f] === '');
    if (missing) return failure('109', `field ${missing} is required`);
    const key = documentKey(
      request.Company,
      document.codeBranchIssuer,
      data.pointBillingFiscal,
      data.typeDocument,
      data.numberDocumentFiscal,
      request.environment,
    );
    if (this.#documents.has(key)) {
      const fiscalNumber = `${document.codeBranchIssuer}-${data.pointBillingFiscal}-${data.numberDocumentFiscal}`;
      return failure('102', `${MESSAGES.duplicate}: ${fiscalNumber} (tipo ${data.typeDocument}) ya existe`);
    }
    const note = this.#noteCredit(request.Company, request.environment, document);
    if ('failure' in note) return note.failure;
    // Held from here: the QR's signature is awaited, and a concurrent request must see the number taken (and a
    // concurrent note of the same invoice, this note's amount).
    const reservation = this.#documents.reserve(key, note.credit);
    let issued: IssuedDocument;
    try {
      issued = await this.#issue(
        request.Company,
        request.environment,
        document,
        (body as { document: unknown }).document,
        taxpayer.issuer ?? this.#issuer,
        now,
      );
    } catch (error) {
      reservation.release();
      throw error;
    }
    reservation.file(issued);
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
    return { code: '200', document: Buffer.from(await this.#pdfOf(found.issued)).toString('base64') };
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

  /**
   * A credit note against the invoice it references (checked once its number is known to be free, so that a resent
   * note answers 102, not "exceeds its invoice"): the amount to hold against that invoice, or the refusal.
   */
  #noteCredit(company: string, environment: string, document: SandboxDocument): { credit: NoteCredit | undefined } | { failure: Failure } {
    const reference = document.dataTransaction.listDocsFiscalReferenced?.[0];
    if (reference === undefined) return { credit: undefined }; // an invoice: the rules refused any reference on it
    const invoiceCufe = reference.cufeFEReferenced;
    const totalInvoice = document.totalsSubTotals.totalInvoice;
    const invoice = this.#documents.byCufe(company, invoiceCufe);
    const credited = this.#documents.credited(company, invoiceCufe);
    const refused = checkNoteAgainstInvoice({ environment, reference, totalInvoice }, invoice, credited);
    if (refused) return { failure: failure(refused.code, refused.message) };
    return { credit: { company, invoiceCufe, amount: toCents(totalInvoice) } };
  }

  #pdfOf(issued: IssuedDocument): Promise<Uint8Array> {
    const { issuer, environment, cufe, qr, receptionDateDGI, nroAuthorizationProtocol } = issued;
    const authorization = { issuer, environment, cufe, qr, receptionDateDGI, nroAuthorizationProtocol };
    issued.pdf ??= (this.#renderPdf ?? renderInvoicePdf)(issued.document, authorization);
    return issued.pdf;
  }

  #json(status: number, body: Record<string, unknown>, delayMs: number): SandboxReply {
    const code = String(body.code);
    this.#stats.codes[code] = (this.#stats.codes[code] ?? 0) + 1;
    return { kind: 'json', status, body, delayMs };
  }

  /** Credentials → 101 → documentData → the issued document, or the failure body to answer. */
  #lookup(body: unknown): { issued: IssuedDocument } | { failure: Failure } {
    const problem = checkCredentialsPresent(body);
    if (problem) return { failure: failure(problem.code, problem.message) };
    if (this.#access.taxpayer(body as SandboxCredentials) === undefined) return { failure: failure('101', MESSAGES.badToken) };
    const dataProblem = checkDocumentDataPresent(body);
    if (dataProblem) return { failure: failure(dataProblem.code, dataProblem.message) };
    const request = body as { Company: string; documentData: Record<string, string> };
    const d = request.documentData;
    const key = documentKey(request.Company, d.codeBranchIssuing!, d.pointBillingFiscal!, d.typeDocument!, d.numberDocumentFiscal!);
    const issued = this.#documents.get(key);
    return issued ? { issued } : { failure: failure('201', MESSAGES.notFound) };
  }

  /** The authorization of an accepted document, filed with what the registry keeps of it. */
  async #issue(
    company: string,
    environment: string,
    document: SandboxDocument,
    raw: unknown,
    issuer: SandboxIssuer,
    now: Date,
  ): Promise<IssuedDocument> {
    const data = document.dataTransaction;
    const reference = data.listDocsFiscalReferenced?.[0];
    const authorization = await this.#authorizer.authorize(document, raw, environment, issuer, now);
    return {
      company,
      codeBranchIssuer: document.codeBranchIssuer,
      pointBillingFiscal: data.pointBillingFiscal,
      typeDocument: data.typeDocument,
      numberDocumentFiscal: data.numberDocumentFiscal,
      typeEmission: data.typeEmission,
      environment,
      ...authorization,
      totalInvoice: document.totalsSubTotals.totalInvoice,
      reference: reference ? { cufe: reference.cufeFEReferenced, date: reference.dateEmissionDocFiscalReferenced } : null,
      document,
      issuer,
    };
  }
}

function emptyStats(): SandboxStats {
  return {
    requests: { SendDocument: 0, DownloadPDF: 0, StatusDocument: 0 },
    issued: 0,
    codes: {},
    injected: { latency: 0, error201: 0, http5xx: 0, drop: 0, authorizeThenLate: 0 },
  };
}

/** A failure body: only code, result and message (spec "Errors"). */
function failure(code: string, message: string): Failure {
  return { code, result: 'error', message };
}
