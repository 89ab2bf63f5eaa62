// The answers the fault proxy makes up or alters (docs/gateway-api.md's shapes), and the bodies it streams.
import type { ServerResponse } from 'node:http';
import { buildCufe, parseCufe } from '../sandbox/fiscal/cufe.ts';

/** A JSON body as text, or undefined when it is not JSON. */
export function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A gateway error answer as the specification shows it. */
export function errorAnswer(code: string, message: string): string {
  return JSON.stringify({ code, result: 'error', message });
}

/** A SendDocument success with another CUFE (only a success is altered). */
export function withCufe(upstream: string, cufe: (original: string) => string): string {
  const body = parseJson(upstream);
  if (!body || body.code !== '200' || typeof body.cufe !== 'string') return upstream;
  return JSON.stringify({ ...body, cufe: cufe(body.cufe) });
}

/** A well-formed CUFE (right check digit) that names another fiscal number than `cufe` does. */
export function cufeNamingOtherNumber(cufe: string, offset: number): string {
  const fields = parseCufe(cufe);
  if (!fields) return cufe;
  const number = String((Number(fields.fiscalNumber) + offset) % 10_000_000_000).padStart(10, '0');
  return buildCufe({ ...fields, fiscalNumber: number });
}

/**
 * A 201 whose message repeats what the request carried: the Authorization header and the passwords of the
 * credentials block, raw, URL-encoded, in HTTP Basic (base64) and JSON-escaped inside a quoted string.
 */
export function echoSecretsAnswer(authorization: string, request: Record<string, unknown> | undefined): string {
  const text = (name: string) => (typeof request?.[name] === 'string' ? (request[name] as string) : '');
  const token = text('Token');
  const gwToken = text('GW_Token');
  const basic = Buffer.from(`${text('Company')}:${token}`).toString('base64');
  const message =
    `error processing the request. Authorization: ${authorization}; GW_Token=${gwToken}; ` +
    `Token=${encodeURIComponent(token)}; form=${new URLSearchParams({ t: gwToken }).toString()}; ` +
    `Basic ${basic}; b64=${Buffer.from(token).toString('base64')}; body=${JSON.stringify({ Token: token })}`;
  return errorAnswer('201', message);
}

/** Which document a DownloadPDF request names, or undefined. */
export function requestedNumber(request: Record<string, unknown> | undefined): string | undefined {
  const data = request?.documentData as Record<string, unknown> | undefined;
  if (!data) return undefined;
  return `${String(data.typeDocument)}:${String(data.codeBranchIssuing)}:${String(data.pointBillingFiscal)}:${String(data.numberDocumentFiscal)}`;
}

/** Wait until the response can take more, or the client went away (false). */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/** Write a body of `bytes` bytes made as it goes, 64 KiB at a time, minding back-pressure; stops if the client leaves. */
export async function streamHuge(res: ServerResponse, bytes: number, shape: 'pdf' | 'message'): Promise<void> {
  const head = shape === 'pdf' ? `{"code":"200","document":"${Buffer.from('%PDF-1.7\n').toString('base64')}` : '{"code":"200","message":"';
  const tail = '"}';
  const fill = (shape === 'pdf' ? 'QUFB' : 'xxxx').repeat(16 * 1024);
  res.writeHead(200, { 'content-type': 'application/json' });
  let left = Math.max(0, bytes - head.length - tail.length);
  if (!res.write(head) && !(await drained(res))) return;
  while (left > 0) {
    if (res.destroyed) return;
    const chunk = left >= fill.length ? fill : fill.slice(0, left);
    left -= chunk.length;
    if (!res.write(chunk) && !(await drained(res))) return;
  }
  res.end(tail);
}

/** Send the body `tickBytes` at a time every `tickMs`, until it is sent or the client leaves. */
export function trickle(res: ServerResponse, status: number, body: Buffer, tickMs: number, tickBytes: number): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length) });
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body.subarray(at, at + tickBytes));
    at += tickBytes;
  }, tickMs);
  res.once('close', () => clearInterval(timer));
}
