// A webhook's body, read whole and decoded once, for the HMAC over the raw text. Leaner than express.text
// (no content-type parsing, no chunk-by-chunk decoding): this runs on every delivery of a flash sale.
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';

/** The bytes of each webhook body, beside its text: stored as they came, they need no second UTF-8 encoding. */
const bodyBytes = new WeakMap<Request, Buffer>();

/** The body's bytes as they arrived (undefined for a request this middleware did not read). */
export function webhookBodyBytes(req: Request): Buffer | undefined {
  return bodyBytes.get(req);
}

/** An error the app's error handler answers with its status and message (a 413 names its limit). */
function httpError(status: number, message: string, limit?: number): Error {
  return Object.assign(new Error(message), { status, expose: true, limit });
}

export function webhookBody(limitBytes: number): RequestHandler {
  return (req, _res, next) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      next(httpError(415, `content encoding ${encoding} is not accepted`));
      return;
    }
    const tooLarge = () => httpError(413, `body larger than ${limitBytes} bytes`, limitBytes);
    if (Number(req.headers['content-length']) > limitBytes) {
      next(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      if (error) next(error);
      else {
        const bytes = Buffer.concat(chunks, size);
        bodyBytes.set(req, bytes);
        req.body = bytes.toString('utf8');
        next();
      }
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limitBytes) {
        chunks.length = 0;
        finish(tooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => finish());
    req.on('error', () => finish(httpError(400, 'request aborted')));
  };
}

/** A webhook's JSON answer, without Express's ETag (a hash of every answer; nothing caches a POST's). */
export function answer(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
