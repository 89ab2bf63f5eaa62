// The webhook body reader and answer, on a real server on loopback: exact text (UTF-8 split across
// chunks), 413 with and without a declared length, 415 for a compressed body, and JSON answers without ETag.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../src/http/http-app.ts';
import { answer } from '../../../src/http/webhook-body.ts';
import { silentLogger } from '../../../src/logger.ts';

const LIMIT = 64;
let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = createHttpApp({
    logger: silentLogger,
    webhookBodyLimitBytes: LIMIT,
    bodyBytesInFlight: 1024 * 1024,
    webhooks: { '/hook': (req, res) => answer(res, 200, { body: req.body as string, bytes: Buffer.byteLength(req.body as string) }) },
  });
  server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** POST the chunks as they are (chunked when no length is given), and read the whole answer. */
function post(
  chunks: Buffer[],
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/hook', method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('webhook body', () => {
  it('hands the handler the exact text, a character split across chunks included', async () => {
    const bytes = Buffer.from('{"name":"Panamá ñ"}', 'utf8');
    const split = bytes.indexOf(Buffer.from('á', 'utf8')) + 1; // between the two bytes of "á"
    const result = await post([bytes.subarray(0, split), bytes.subarray(split)]);
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ body: '{"name":"Panamá ñ"}', bytes: 21 });
    expect(result.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(result.headers['content-length']).toBe(String(Buffer.byteLength(result.body)));
    expect(result.headers.etag).toBeUndefined();
  });

  it('413 when the declared length is over the limit', async () => {
    const result = await post([Buffer.alloc(LIMIT + 1, 'x')], { 'content-length': String(LIMIT + 1) });
    expect(result).toMatchObject({ status: 413, body: JSON.stringify({ error: `body larger than ${LIMIT} bytes` }) });
  });

  it('413 when a body sent without a length grows over the limit', async () => {
    const result = await post([Buffer.alloc(40, 'x'), Buffer.alloc(40, 'x')]);
    expect(result).toMatchObject({ status: 413, body: JSON.stringify({ error: `body larger than ${LIMIT} bytes` }) });
  });

  it('a body of exactly the limit is read', async () => {
    const result = await post([Buffer.alloc(LIMIT, 'y')]);
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ body: 'y'.repeat(LIMIT), bytes: LIMIT });
  });

  it('415 for a compressed body: its signature would be over bytes we do not read', async () => {
    const result = await post([Buffer.from('{}')], { 'content-encoding': 'gzip' });
    expect(result).toMatchObject({ status: 415, body: JSON.stringify({ error: 'content encoding gzip is not accepted' }) });
  });
});

describe('bodies in flight', () => {
  it('answers 503 with Retry-After, without calling the handler, when a body does not fit beside those in flight', async () => {
    const handled: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const app = createHttpApp({
      logger: silentLogger,
      webhookBodyLimitBytes: LIMIT,
      bodyBytesInFlight: 100,
      webhooks: {
        '/hook': async (req, res) => {
          handled.push(req.body as string);
          if ((req.body as string).startsWith('hold')) await gate;
          answer(res, 200, { ok: true });
        },
      },
    });
    const busy = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const send = (text: string) =>
      fetch(`http://127.0.0.1:${(busy.address() as AddressInfo).port}/hook`, { method: 'POST', body: text.padEnd(60, '.') });
    try {
      const held = send('hold');
      await waitUntil(() => handled.length === 1);
      const refused = await send('second');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ error: 'too many request bodies in flight: retry shortly' });
      // 60 + 30 fits in 100.
      const small = await fetch(`http://127.0.0.1:${(busy.address() as AddressInfo).port}/hook`, { method: 'POST', body: 's'.repeat(30) });
      expect(small.status).toBe(200);
      release();
      expect((await held).status).toBe(200);
      // The held body is released with its answer: the refused one now goes through.
      expect((await send('second')).status).toBe(200);
      expect(handled.map((b) => b.replace(/\.+$/, ''))).toEqual(['hold', 's'.repeat(30), 'second']);
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}
