// The fault proxy (sim/fault-proxy/) over HTTP in front of a tiny upstream: each fault does what it says.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningFaultProxy, startFaultProxy } from '../../../sim/fault-proxy/fault-proxy.ts';
import { buildCufe, parseCufe } from '../../../sim/sandbox/fiscal/cufe.ts';

const CUFE = buildCufe({
  typeDocument: '01',
  taxpayerType: '2',
  ruc: '155596713-2-2015',
  dv: '59',
  branch: '0000',
  date: '20261127',
  fiscalNumber: '0000000007',
  billingPoint: '001',
  emissionType: '01',
  environment: '2',
  securityCode: '123456789',
});

let upstream: Server;
let proxy: RunningFaultProxy;
let pdfNumber = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.endsWith('/SendDocument')) res.end(JSON.stringify({ code: '200', result: 'procesado', message: 'ok', cufe: CUFE }));
      else res.end(JSON.stringify({ code: '200', document: Buffer.from(`%PDF-1.7 number ${++pdfNumber}`).toString('base64') }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  proxy = await startFaultProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v1/GW` });
});
afterEach(() => proxy.setRules([]));
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => upstream.close(() => r()));
});

const post = (operation: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${proxy.url}/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('fault proxy', () => {
  it('passes requests through untouched without rules', async () => {
    expect(await (await post('SendDocument', {})).json()).toMatchObject({ code: '200', cufe: CUFE });
  });

  it('answers a code to everything, for `times` requests only', async () => {
    proxy.setRules([{ operation: 'SendDocument', fault: { kind: 'code', code: '201' }, times: 2 }]);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(((await (await post('SendDocument', {})).json()) as { code: string }).code);
    expect(codes).toEqual(['201', '201', '200']);
  });

  it('replaces the CUFE: 66 × X, another number (well-formed), the first one seen', async () => {
    proxy.setRules([
      { fault: { kind: 'fake_cufe' }, times: 1 },
      { fault: { kind: 'cufe_other_number' }, times: 1 },
    ]);
    const fake = (await (await post('SendDocument', {})).json()) as { cufe: string };
    expect(fake.cufe).toBe('X'.repeat(66));
    const other = (await (await post('SendDocument', {})).json()) as { cufe: string };
    expect(parseCufe(other.cufe)).toMatchObject({ fiscalNumber: '0000001007', ruc: '155596713-2-2015' });
    proxy.setRules([{ fault: { kind: 'duplicate_cufe' } }]);
    expect(((await (await post('SendDocument', {})).json()) as { cufe: string }).cufe).toBe(CUFE);
  });

  it("answers DownloadPDF with another document's PDF", async () => {
    const key = (n: string) => ({
      documentData: { typeDocument: '01', codeBranchIssuing: '0000', pointBillingFiscal: '001', numberDocumentFiscal: n },
    });
    const first = ((await (await post('DownloadPDF', key('1'))).json()) as { document: string }).document;
    proxy.setRules([{ operation: 'DownloadPDF', fault: { kind: 'other_pdf' } }]);
    const second = ((await (await post('DownloadPDF', key('2'))).json()) as { document: string }).document;
    expect(second).toBe(first);
  });

  it('echoes the Authorization header and the passwords in several encodings', async () => {
    proxy.setRules([{ fault: { kind: 'echo_secrets' } }]);
    const answer = (await (
      await post('SendDocument', { Company: 'u', Token: 'p@ss w/+"rd' }, { authorization: 'Bearer jwt-1' })
    ).json()) as {
      message: string;
    };
    expect(answer.message).toContain('Bearer jwt-1');
    expect(answer.message).toContain(encodeURIComponent('p@ss w/+"rd'));
    expect(answer.message).toContain(Buffer.from('u:p@ss w/+"rd').toString('base64'));
    expect(answer.message).toContain('\\"rd');
  });

  it('streams a huge answer without holding it, and stops when the client leaves', async () => {
    proxy.setRules([{ fault: { kind: 'huge', bytes: 3 * 1024 ** 3 } }]);
    const answer = await post('DownloadPDF', {});
    const reader = answer.body!.getReader();
    let read = 0;
    while (read < 5 * 1024 * 1024) read += (await reader.read()).value?.length ?? 0;
    await reader.cancel();
    expect(read).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    await expect.poll(() => proxy.openAnswers()).toBe(0);
  });

  it('trickles a body and stalls one midway', async () => {
    proxy.setRules([{ fault: { kind: 'trickle', tickMs: 5, bytesPerTick: 8 }, times: 1 }, { fault: { kind: 'stall', afterBytes: 4 } }]);
    expect(await (await post('SendDocument', {})).json()).toMatchObject({ cufe: CUFE });
    const stalled = await post('SendDocument', {});
    const result = await Promise.race([stalled.text().then(() => 'ended'), new Promise((r) => setTimeout(() => r('stalled'), 300))]);
    expect(result).toBe('stalled');
  });

  it('loses the answer after the upstream acted', async () => {
    proxy.setRules([{ fault: { kind: 'lose_answer' } }]);
    await expect(post('SendDocument', {})).rejects.toThrow();
    expect(proxy.requests.at(-1)).toMatchObject({ operation: 'SendDocument', fault: 'lose_answer' });
  });
});
