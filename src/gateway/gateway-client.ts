// The certification provider's gateway, spoken over HTTP (fetch, each answer read whole within its deadline and its
// size bound, docs/gateway-checks.md) and checked with zod.
// Every answer the gateway (or the network) can give becomes a value of a closed union; nothing throws for it.
import type { z } from 'zod';
import { AnswerDeadlineError, AnswerTooLargeError, fetchBounded } from '../bounded-fetch.ts';
import { scrubValue, secretScrubber } from '../secret-scrub.ts';
import {
  type DocumentKey,
  type GatewayCredentials,
  type GatewayEnvironment,
  CREDENTIAL_FIELDS,
  ENVIRONMENT_CODE,
  downloadPdfResponseSchema,
  errorResponseSchema,
  sendDocumentSuccessSchema,
  statusDocumentResponseSchema,
} from './gateway-types.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';

/** What a SendDocument answer means for the invoice (docs/design.md §5). */
export type SendOutcome =
  | {
      kind: 'authorized';
      cufe: string;
      qr: string;
      protocol: string;
      receptionDateDgi: string;
      message: string;
    }
  /** 102: the number is already used; ours (reconcile) or someone else's (skip it). */
  | { kind: 'duplicate'; code: string; message: string }
  /** 109, 201 or an unknown error code: the document (or data behind it) must change. */
  | { kind: 'rejected'; code: string; message: string; fieldName: string | undefined }
  /** 101: the taxpayer's credentials are refused; the whole shop waits for a settings change. */
  | { kind: 'credentials'; code: string; message: string }
  /** Nothing was issued: network error before an answer, 5xx, 429, a body that is not the documented JSON. */
  | { kind: 'unavailable'; reason: string; httpStatus: number | undefined }
  /** The request was sent and no answer came in time: the gateway may have issued the invoice. */
  | { kind: 'indeterminate'; reason: string };

export type PdfOutcome =
  | { kind: 'pdf'; pdf: Buffer }
  | { kind: 'not_found'; code: string; message: string }
  | { kind: 'credentials'; code: string; message: string }
  | { kind: 'unavailable'; reason: string; httpStatus: number | undefined };

export type StatusOutcome =
  | { kind: 'authorized'; status: string; message: string }
  | { kind: 'other'; code: string; status: string | undefined; message: string }
  | { kind: 'credentials'; code: string; message: string }
  | { kind: 'unavailable'; reason: string; httpStatus: number | undefined };

export type GatewayOperation = 'SendDocument' | 'DownloadPDF' | 'StatusDocument';

/** One call, secrets removed, for the audit table and the logs. */
export interface GatewayCallRecord {
  operation: GatewayOperation;
  outcome: string;
  code: string | undefined;
  message: string | undefined;
  durationMs: number;
  request: unknown;
  response: unknown;
}

export interface GatewayClientOptions {
  baseUrl: string;
  /** The platform operator's JWT for the Authorization header. */
  authToken: string;
  /** The spec leaves open whether the header says `Bearer <token>` or just `<token>`. */
  authScheme: 'bearer' | 'bare';
  /** The whole exchange of one call, headers and body (docs/gateway-checks.md). */
  timeoutMs: number;
  /** Bytes a JSON answer (SendDocument, StatusDocument) may have; larger ones are dropped while they stream. */
  maxAnswerBytes?: number;
  /** Bytes the PDF of a DownloadPDF answer may have (its answer: the base64 of it, plus a little JSON). */
  maxPdfBytes?: number;
  fetch?: typeof fetch;
  onCall?: (record: GatewayCallRecord) => void;
}

/** How the app reaches the gateway (configuration). */
export type GatewaySettings = Pick<GatewayClientOptions, 'baseUrl' | 'authToken' | 'authScheme' | 'timeoutMs'>;

/** Sees one call's record (secrets removed), e.g. to log it with the document it was made for. */
export type CallObserver = (record: GatewayCallRecord) => void;

/** One client for the process: each call may name its own observer. */
export interface GatewayClient {
  sendDocument(
    req: { credentials: GatewayCredentials; environment: GatewayEnvironment; document: GatewayDocument },
    observe?: CallObserver,
  ): Promise<SendOutcome>;
  downloadPdf(req: { credentials: GatewayCredentials; key: DocumentKey }, observe?: CallObserver): Promise<PdfOutcome>;
  statusDocument(req: { credentials: GatewayCredentials; key: DocumentKey }, observe?: CallObserver): Promise<StatusOutcome>;
}

type RawAnswer =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'not_json'; status: number; text: string }
  | { kind: 'timeout'; reason: string }
  | { kind: 'network'; reason: string };

/** Defaults of the answers' bounds: a gateway answer is a few hundred bytes; the DGI's CAFE a few hundred KB. */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024;
export const DEFAULT_MAX_PDF_BYTES = 5 * 1024 * 1024;

const REDACTED = '[redacted]';
/** Shops' scrubbers kept at once; past it they are worked out afresh. */
const MAX_SCRUBBERS = 1_000;

/** A copy of a request body with the credentials block blanked: what may be stored or logged. */
export function redactRequest(body: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  for (const field of CREDENTIAL_FIELDS) if (field in copy) copy[field] = REDACTED;
  return copy;
}

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const prefix = options.baseUrl.replace(/\/+$/, '') + '/';
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const headers = {
    Authorization: options.authScheme === 'bearer' ? `Bearer ${options.authToken}` : options.authToken,
    Accept: 'application/json',
    'Content-Type': 'application/json',
  };
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const maxPdfBytes = options.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES;

  // No retries here: a retried SendDocument could issue a second invoice; the worker decides.
  async function call(operation: GatewayOperation, body: Record<string, unknown>): Promise<{ raw: RawAnswer; durationMs: number }> {
    const started = performance.now();
    // A PDF comes as base64 (4 bytes per 3) inside a little JSON.
    const maxBytes = operation === 'DownloadPDF' ? Math.ceil((maxPdfBytes * 4) / 3) + 4096 : maxAnswerBytes;
    let raw: RawAnswer;
    try {
      const response = await fetchBounded(
        fetchImpl,
        prefix + operation,
        { method: 'POST', headers, body: JSON.stringify(body) },
        { deadlineMs: options.timeoutMs, maxBytes },
      );
      const text = response.body.toString('utf8');
      try {
        raw = { kind: 'json', status: response.status, body: JSON.parse(text) };
      } catch {
        raw = { kind: 'not_json', status: response.status, text: text.slice(0, 200) };
      }
    } catch (error) {
      raw = classifyThrown(error, operation === 'DownloadPDF' ? maxPdfBytes : maxBytes);
    }
    return { raw, durationMs: Math.round(performance.now() - started) };
  }

  /** One call's record for the audit (secrets removed): to the client's observer and the caller's. */
  function record(
    observe: CallObserver | undefined,
    operation: GatewayOperation,
    request: Record<string, unknown>,
    answer: { raw: RawAnswer; durationMs: number },
    outcome: { kind: string; code?: string; message?: string; reason?: string },
    successKind: string,
    scrub: Scrub,
  ): void {
    const { raw } = answer;
    const response =
      raw.kind === 'json'
        ? trimResponse(raw.body)
        : raw.kind === 'not_json'
          ? { status: raw.status, text: raw.text }
          : { error: raw.reason };
    const call: GatewayCallRecord = {
      operation,
      outcome: outcome.kind,
      code: outcome.code ?? (outcome.kind === successKind ? '200' : undefined),
      message: outcome.message ?? outcome.reason,
      durationMs: answer.durationMs,
      request: redactRequest(request),
      // What is kept of the answer is bounded and holds no secret the gateway echoed.
      response: boundedRecord(scrubValue(response, scrub)),
    };
    options.onCall?.(call);
    observe?.(call);
  }

  /**
   * The secrets a call's answer may echo: the platform token and the shop's passwords, in any encoding. Their forms
   * are worked out once per shop's credentials, not on every call (bounded: shops, not calls).
   */
  const scrubbers = new Map<string, Scrub>();
  const scrubberFor = (credentials: GatewayCredentials): Scrub => {
    const key = `${credentials.GW_Token}\u0000${credentials.Token}`;
    let scrub = scrubbers.get(key);
    if (!scrub) {
      if (scrubbers.size >= MAX_SCRUBBERS) scrubbers.clear();
      scrub = secretScrubber([options.authToken, credentials.GW_Token, credentials.Token]);
      scrubbers.set(key, scrub);
    }
    return scrub;
  };

  return {
    async sendDocument({ credentials, environment, document }, observe) {
      const request = { ...credentials, identifierControlShipping: '1', environment: ENVIRONMENT_CODE[environment], document };
      const answer = await call('SendDocument', request);
      const scrub = scrubberFor(credentials);
      const outcome = scrubOutcome(interpretSend(answer.raw), scrub);
      record(observe, 'SendDocument', request, answer, outcome, 'authorized', scrub);
      return outcome;
    },

    async downloadPdf({ credentials, key }, observe) {
      const request = { ...credentials, Branch: '', invoiceId: '', documentData: { ...key, serialDevice: '' } };
      const answer = await call('DownloadPDF', request);
      const scrub = scrubberFor(credentials);
      const outcome = scrubOutcome(interpretPdf(answer.raw), scrub);
      record(observe, 'DownloadPDF', request, answer, outcome, 'pdf', scrub);
      return outcome;
    },

    async statusDocument({ credentials, key }, observe) {
      const request = { ...credentials, documentData: { ...key } };
      const answer = await call('StatusDocument', request);
      const scrub = scrubberFor(credentials);
      const outcome = scrubOutcome(interpretStatus(answer.raw), scrub);
      record(observe, 'StatusDocument', request, answer, outcome, 'authorized', scrub);
      return outcome;
    },
  };
}

function classifyThrown(error: unknown, bound: number): RawAnswer {
  if (error instanceof AnswerDeadlineError) return { kind: 'timeout', reason: 'no answer within the time-out' };
  // The gateway answered something too big to be what it documents: as if it had not answered in time (it may have
  // issued the document), retried; the connection was dropped while the answer streamed.
  if (error instanceof AnswerTooLargeError) return { kind: 'timeout', reason: `the answer is larger than ${bound} bytes` };
  // fetch rejects with a TypeError for refused or dropped connections.
  return { kind: 'network', reason: describeNetworkError(error) };
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; cause?: { code?: string } } })?.cause;
  const code = cause?.code ?? cause?.cause?.code;
  return code ? `network error (${code})` : 'network error';
}

/** 5xx, 429 and other statuses without the documented JSON: the gateway did not process the request. */
function httpUnavailable(raw: RawAnswer & { kind: 'json' | 'not_json' }): { kind: 'unavailable'; reason: string; httpStatus: number } {
  return {
    kind: 'unavailable',
    reason: raw.kind === 'json' ? `HTTP ${raw.status} without a gateway answer` : `HTTP ${raw.status} with a body that is not JSON`,
    httpStatus: raw.status,
  };
}

/** The operator's Authorization token was refused: nothing the merchant can fix, so retry and show it. */
function platformRefused(status: number): { kind: 'unavailable'; reason: string; httpStatus: number } {
  return {
    kind: 'unavailable',
    reason: `HTTP ${status}: the gateway refused the platform Authorization token (check GATEWAY_AUTH_TOKEN)`,
    httpStatus: status,
  };
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> | undefined {
  const result = schema.safeParse(body);
  return result.success ? result.data : undefined;
}

export function interpretSend(raw: RawAnswer): SendOutcome {
  if (raw.kind === 'timeout') return { kind: 'indeterminate', reason: raw.reason };
  // A connection dropped mid-request may also have been processed; the invoice remembers that it
  // may have reached the gateway whatever this says, so a later 102 is reconciled, never skipped.
  if (raw.kind === 'network') return { kind: 'unavailable', reason: raw.reason, httpStatus: undefined };
  if (raw.kind === 'not_json' || raw.status >= 500 || raw.status === 429) return httpUnavailable(raw);
  if (raw.status === 401 || raw.status === 403) return platformRefused(raw.status);

  const success = parse(sendDocumentSuccessSchema, raw.body);
  if (success) {
    return {
      kind: 'authorized',
      cufe: success.cufe,
      qr: success.qr,
      protocol: success.nroAuthorizationProtocol,
      receptionDateDgi: success.receptionDateDGI,
      message: success.message,
    };
  }
  const error = parse(errorResponseSchema, raw.body);
  if (!error) return { kind: 'unavailable', reason: `HTTP ${raw.status}: answer is not the documented JSON`, httpStatus: raw.status };
  switch (error.code) {
    case '101':
      return { kind: 'credentials', code: error.code, message: error.message };
    case '102':
      return { kind: 'duplicate', code: error.code, message: error.message };
    default:
      return { kind: 'rejected', code: error.code, message: error.message, fieldName: requiredFieldName(error.message) };
  }
}

/** "field numberDocumentFiscal is required" → "numberDocumentFiscal". */
export function requiredFieldName(message: string): string | undefined {
  return /field\s+(\S+)\s+is required/i.exec(message)?.[1];
}

type Unavailable = { kind: 'unavailable'; reason: string; httpStatus: number | undefined };

/**
 * A read-only call's answer (DownloadPDF, StatusDocument): its documented body, or why there is none — no answer,
 * an HTTP error, the platform's refusal or an undocumented body all mean "ask again later".
 */
function documentedBody<T extends z.ZodType>(raw: RawAnswer, schema: T): { body: z.infer<T>; status: number } | Unavailable {
  if (raw.kind === 'timeout' || raw.kind === 'network') return { kind: 'unavailable', reason: raw.reason, httpStatus: undefined };
  if (raw.kind === 'not_json' || raw.status >= 500 || raw.status === 429) return httpUnavailable(raw);
  if (raw.status === 401 || raw.status === 403) return platformRefused(raw.status);
  const body = parse(schema, raw.body);
  if (!body) return { kind: 'unavailable', reason: `HTTP ${raw.status}: answer is not the documented JSON`, httpStatus: raw.status };
  return { body, status: raw.status };
}

function interpretPdf(raw: RawAnswer): PdfOutcome {
  const answer = documentedBody(raw, downloadPdfResponseSchema);
  if ('kind' in answer) return answer;
  const { body } = answer;
  if (body.code === '200' && body.document) {
    const pdf = Buffer.from(body.document, 'base64');
    if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
      return { kind: 'unavailable', reason: 'DownloadPDF answered 200 but the document is not a PDF', httpStatus: answer.status };
    }
    return { kind: 'pdf', pdf };
  }
  if (body.code === '101') return { kind: 'credentials', code: body.code, message: body.message ?? '' };
  return { kind: 'not_found', code: body.code, message: body.message ?? '' };
}

function interpretStatus(raw: RawAnswer): StatusOutcome {
  const answer = documentedBody(raw, statusDocumentResponseSchema);
  if ('kind' in answer) return answer;
  const { body } = answer;
  if (body.code === '101') return { kind: 'credentials', code: body.code, message: body.message ?? body.messageDocument ?? '' };
  if (body.code === '200' && body.statusDocument?.toLowerCase().startsWith('autorizad')) {
    return { kind: 'authorized', status: body.statusDocument, message: body.messageDocument ?? '' };
  }
  return { kind: 'other', code: body.code, status: body.statusDocument, message: body.messageDocument ?? body.message ?? '' };
}

type Scrub = (text: string) => string;

/** Longest text of the gateway's kept from one answer (a message shown to the merchant, a reason). */
const MAX_MESSAGE_CHARS = 500;
/** Largest answer kept whole in the audit; a larger one is kept as its start and size. */
const MAX_RECORD_CHARS = 8 * 1024;

/** The outcome with the gateway's texts scrubbed of secrets and bounded; nothing else changes. */
function scrubOutcome<T extends { kind: string }>(outcome: T, scrub: Scrub): T {
  const out: Record<string, unknown> = { ...outcome };
  for (const field of ['message', 'reason', 'status', 'fieldName']) {
    if (typeof out[field] === 'string') out[field] = scrub(out[field]).slice(0, MAX_MESSAGE_CHARS);
  }
  return out as T;
}

/** An audit value of bounded size: whole when small, else its start and its size. */
function boundedRecord(value: unknown): unknown {
  const text = JSON.stringify(value) ?? '';
  if (text.length <= MAX_RECORD_CHARS) return value;
  return { truncated: true, chars: text.length, start: text.slice(0, 2048) };
}

/** Keep audit rows small: a PDF answer is stored as its size, not its bytes. */
function trimResponse(body: unknown): unknown {
  if (body && typeof body === 'object' && 'document' in body && typeof (body as { document: unknown }).document === 'string') {
    const { document, ...rest } = body as { document: string };
    return { ...rest, document: `[${Math.floor((document.length * 3) / 4)} bytes of base64 PDF]` };
  }
  return body;
}
