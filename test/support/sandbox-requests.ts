// Bodies the sandbox gateway's tests send, built from a SendDocument request they sent before.
import { readFileSync } from 'node:fs';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../../sim/sandbox/sandbox-gateway.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely

/**
 * The DownloadPDF / StatusDocument body for a sent request: its credentials and documentData. `withSerial` adds the
 * optional empty fields DownloadPDF documents; `typeDocument` asks for another type under the same number.
 */
export function documentData(request: Json, withSerial: boolean, typeDocument?: string): Json {
  const { Company, Token, GW_Company, GW_Token, Id_Pac, Enterprise } = request;
  const d = request.document.dataTransaction;
  return {
    GW_Company,
    GW_Token,
    Id_Pac,
    Enterprise,
    Company,
    Token,
    ...(withSerial ? { Branch: '', invoiceId: '' } : {}),
    documentData: {
      codeBranchIssuing: request.document.codeBranchIssuer,
      numberDocumentFiscal: d.numberDocumentFiscal,
      pointBillingFiscal: d.pointBillingFiscal,
      ...(withSerial ? { serialDevice: '' } : {}),
      typeDocument: typeDocument ?? d.typeDocument,
      typeEmission: d.typeEmission,
    },
  };
}
export const EXAMPLE: Json = JSON.parse(readFileSync(new URL('../fixtures/gateway/send-document-example.json', import.meta.url), 'utf8'));

export const SIGNING_KEY = 'test-signing-key';

export const BEARER = `Bearer ${DEFAULT_SANDBOX_AUTH_TOKEN}`;

let numbers = 1000;

/** The example request with a number never used before in this file. */
export function sendRequest(change?: (r: Json) => void): Json {
  const request = structuredClone(EXAMPLE);
  request.document.dataTransaction.numberDocumentFiscal = String(++numbers).padStart(10, '0');
  change?.(request);
  return request;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: Json;
  elapsedMs: number;
}

export async function post(
  base: string,
  operation: string,
  body: unknown,
  init: { auth?: string | null; signal?: AbortSignal; raw?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const auth = init.auth === undefined ? BEARER : init.auth;
  if (auth !== null) headers.authorization = auth;
  const started = performance.now();
  const response = await fetch(`${base}/${operation}`, {
    method: 'POST',
    headers,
    body: init.raw ?? JSON.stringify(body),
    signal: init.signal,
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text);
  } catch {
    // non-JSON bodies are checked through `text`
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
    json,
    elapsedMs: performance.now() - started,
  };
}

export async function listDocuments(base: string): Promise<Json[]> {
  const response = await fetch(`${base}/_sandbox/documents`);
  return ((await response.json()) as Json).documents;
}
