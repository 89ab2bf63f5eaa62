// Contract tests: our gateway client against the sandbox gateway over real HTTP, one per outcome (docs/design.md §5).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCufe } from '../../../mappers/fiscal/cufe.ts';
import { type GatewayCallRecord, type GatewayClient, createGatewayClient } from '../../../src/gateway/gateway-client.ts';
import type { DocumentKey, GatewayCredentials, SendDocumentRequest } from '../../../src/gateway/gateway-types.ts';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from '../../../sim/sandbox/sandbox-gateway.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';

const example = JSON.parse(
  fs.readFileSync(new URL('../../fixtures/gateway/send-document-example.json', import.meta.url), 'utf8'),
) as SendDocumentRequest;
const credentials: GatewayCredentials = DEFAULT_SANDBOX_CREDENTIALS;

let nextNumber = 100;
/** The example document under a fresh fiscal number. */
function freshDocument(): GatewayDocument {
  const doc = structuredClone(example.document);
  doc.dataTransaction.numberDocumentFiscal = String(nextNumber++).padStart(10, '0');
  return doc;
}
const keyOf = (doc: GatewayDocument): DocumentKey => ({
  codeBranchIssuing: doc.codeBranchIssuer,
  numberDocumentFiscal: doc.dataTransaction.numberDocumentFiscal,
  pointBillingFiscal: doc.dataTransaction.pointBillingFiscal,
  typeDocument: doc.dataTransaction.typeDocument,
  typeEmission: doc.dataTransaction.typeEmission,
});

describe('gateway client against the sandbox gateway', () => {
  let sandbox: RunningSandbox;
  let client: GatewayClient;
  const calls: GatewayCallRecord[] = [];

  beforeAll(async () => {
    sandbox = await startSandboxServer({ seed: 7 });
    client = createGatewayClient({
      baseUrl: sandbox.url,
      authToken: DEFAULT_SANDBOX_AUTH_TOKEN,
      authScheme: 'bearer',
      timeoutMs: 1500,
      onCall: (c) => calls.push(c),
    });
  });
  afterEach(() => {
    sandbox.gateway.setFaults({});
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('authorized: code 200 gives the cufe, QR address, protocol and reception time', async () => {
    const doc = freshDocument();
    const outcome = await client.sendDocument({ credentials, environment: 'pruebas', document: doc });
    expect(outcome.kind).toBe('authorized');
    if (outcome.kind !== 'authorized') return;
    expect(outcome.cufe).toHaveLength(66);
    expect(parseCufe(outcome.cufe)).toMatchObject({ fiscalNumber: doc.dataTransaction.numberDocumentFiscal, environment: '2' });
    expect(outcome.qr).toMatch(/^https:\/\/dgi-fep-test\.mef\.gob\.pa:40001\/Consultas\/FacturasPorQR\?chFE=/);
    expect(outcome.receptionDateDgi).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
    expect(outcome.protocol).toMatch(/^\d+$/);

    const status = await client.statusDocument({ credentials, key: keyOf(doc) });
    expect(status).toEqual({ kind: 'authorized', status: 'Autorizada', message: 'Autorizado el uso de la FE' });
    const pdf = await client.downloadPdf({ credentials, key: keyOf(doc) });
    expect(pdf.kind).toBe('pdf');
    if (pdf.kind === 'pdf') expect(pdf.pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('duplicate: the same number sent again answers 102', async () => {
    const doc = freshDocument();
    expect((await client.sendDocument({ credentials, environment: 'pruebas', document: doc })).kind).toBe('authorized');
    const again = await client.sendDocument({ credentials, environment: 'pruebas', document: doc });
    expect(again).toMatchObject({ kind: 'duplicate', code: '102' });
  });

  it('rejected: 109 names the missing field', async () => {
    const doc = freshDocument();
    doc.dataTransaction.numberDocumentFiscal = '';
    const outcome = await client.sendDocument({ credentials, environment: 'pruebas', document: doc });
    expect(outcome).toEqual({
      kind: 'rejected',
      code: '109',
      message: 'field numberDocumentFiscal is required',
      fieldName: 'numberDocumentFiscal',
    });
  });

  it('rejected: 201 for a document that breaks a DGI rule', async () => {
    const doc = freshDocument();
    doc.totalsSubTotals.totalInvoice = '999.99';
    const outcome = await client.sendDocument({ credentials, environment: 'pruebas', document: doc });
    expect(outcome).toMatchObject({ kind: 'rejected', code: '201', fieldName: undefined });
    if (outcome.kind === 'rejected') expect(outcome.message).toMatch(/totalInvoice/);
  });

  it('credentials: 101 for a wrong taxpayer token, and the token never shows in the call record', async () => {
    calls.length = 0;
    const outcome = await client.sendDocument({
      credentials: { ...credentials, Token: 'bad-token-123' },
      environment: 'pruebas',
      document: freshDocument(),
    });
    expect(outcome).toEqual({ kind: 'credentials', code: '101', message: 'Token de emisor invalido.' });
    const recorded = JSON.stringify(calls);
    expect(recorded).not.toContain('bad-token-123');
    expect(recorded).not.toContain(credentials.GW_Token);
    expect(recorded).not.toContain(DEFAULT_SANDBOX_AUTH_TOKEN);
    expect(calls[0]).toMatchObject({ operation: 'SendDocument', outcome: 'credentials', code: '101' });
  });

  it('unavailable: a 5xx with an HTML body from the sandbox', async () => {
    const before = sandbox.gateway.documents().length;
    sandbox.gateway.setFaults({ rate5xx: 1 });
    const outcome = await client.sendDocument({ credentials, environment: 'pruebas', document: freshDocument() });
    expect(outcome.kind).toBe('unavailable');
    if (outcome.kind === 'unavailable') {
      expect([500, 502, 503]).toContain(outcome.httpStatus);
      expect(outcome.reason).toMatch(/not JSON/);
    }
    expect(sandbox.gateway.documents().length).toBe(before);
  });

  it('unavailable: a dropped connection', async () => {
    const before = sandbox.gateway.documents().length;
    sandbox.gateway.setFaults({ rateDrop: 1 });
    const outcome = await client.sendDocument({ credentials, environment: 'pruebas', document: freshDocument() });
    expect(outcome).toMatchObject({ kind: 'unavailable', httpStatus: undefined });
    expect(sandbox.gateway.documents().length).toBe(before);
  });

  it('indeterminate: the gateway authorized the invoice but answered after the time-out', async () => {
    sandbox.gateway.setFaults({ rateAuthorizeThenLate: 1, lateMs: 3000 });
    const doc = freshDocument();
    const outcome = await client.sendDocument({ credentials, environment: 'pruebas', document: doc });
    expect(outcome).toEqual({ kind: 'indeterminate', reason: 'no answer within the time-out' });
    sandbox.gateway.setFaults({});
    // The invoice exists at the gateway: status says so, and a resend is a duplicate.
    expect(await client.statusDocument({ credentials, key: keyOf(doc) })).toMatchObject({ kind: 'authorized' });
    expect(await client.sendDocument({ credentials, environment: 'pruebas', document: doc })).toMatchObject({
      kind: 'duplicate',
      code: '102',
    });
  });

  it('unavailable: the platform Authorization token refused (HTTP 401)', async () => {
    const wrongAuth = createGatewayClient({ baseUrl: sandbox.url, authToken: 'not-the-jwt', authScheme: 'bearer', timeoutMs: 1500 });
    const outcome = await wrongAuth.sendDocument({ credentials, environment: 'pruebas', document: freshDocument() });
    expect(outcome).toMatchObject({ kind: 'unavailable', httpStatus: 401 });
  });

  it('bare token scheme: the header carries the token without "Bearer"', async () => {
    const bare = createGatewayClient({ baseUrl: sandbox.url, authToken: DEFAULT_SANDBOX_AUTH_TOKEN, authScheme: 'bare', timeoutMs: 1500 });
    expect((await bare.sendDocument({ credentials, environment: 'pruebas', document: freshDocument() })).kind).toBe('authorized');
  });

  it('StatusDocument and DownloadPDF for a number never issued', async () => {
    const key = keyOf(freshDocument());
    expect((await client.statusDocument({ credentials, key })).kind).toBe('other');
    expect((await client.downloadPdf({ credentials, key })).kind).toBe('not_found');
  });
});

describe('gateway client against a proxy answering 502 with HTML', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/GFGatewayEB`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('is unavailable, with the status and no attempt to read JSON', async () => {
    const client = createGatewayClient({ baseUrl: url, authToken: 't', authScheme: 'bearer', timeoutMs: 1000 });
    expect(await client.sendDocument({ credentials, environment: 'pruebas', document: freshDocument() })).toEqual({
      kind: 'unavailable',
      reason: 'HTTP 502 with a body that is not JSON',
      httpStatus: 502,
    });
  });
});
