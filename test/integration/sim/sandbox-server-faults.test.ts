// The sandbox gateway over real HTTP on loopback: StatusDocument, Authorization, configured taxpayers, every
// injected fault, and close().
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCufe } from '../../../mappers/fiscal/cufe.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, SandboxGateway } from '../../../sim/sandbox/sandbox-gateway.ts';
import { DEFAULT_SANDBOX_SIGNING_KEY } from '../../../sim/sandbox/sandbox-access.ts';
import { startSandboxServer, type RunningSandbox } from '../../../sim/sandbox/sandbox-server.ts';
import { documentData } from '../../support/sandbox-requests.ts';
import { SIGNING_KEY, BEARER, sendRequest, post, listDocuments } from '../../support/sandbox-requests.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely

async function setFaults(base: string, faults: unknown): Promise<Response> {
  return fetch(`${base}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer({ signingKey: SIGNING_KEY });
});
afterAll(async () => {
  await sandbox.close();
});

describe('StatusDocument', () => {
  it('Autorizada for an issued document', async () => {
    const request = sendRequest();
    await post(sandbox.url, 'SendDocument', request);
    const answer = await post(sandbox.url, 'StatusDocument', documentData(request, false));
    expect(answer.json).toEqual({ code: '200', statusDocument: 'Autorizada', messageDocument: 'Autorizado el uso de la FE' });
  });

  it('No encontrado (code 201) for an unknown document; 101 for a bad token', async () => {
    const request = sendRequest();
    expect((await post(sandbox.url, 'StatusDocument', documentData(request, false))).json).toEqual({
      code: '201',
      result: 'error',
      message: 'Documento no encontrado',
      statusDocument: 'No encontrado',
      messageDocument: 'El documento no existe en el gateway',
    });
    const badToken = { ...documentData(request, false), Token: 'bad-one' };
    expect((await post(sandbox.url, 'StatusDocument', badToken)).json.code).toBe('101');
  });
});

describe('Authorization header', () => {
  const unauthorized = { code: '401', result: 'error', message: expect.stringContaining('Authorization') };

  it('missing or wrong → HTTP 401 JSON, and nothing is issued', async () => {
    const request = sendRequest();
    const missing = await post(sandbox.url, 'SendDocument', request, { auth: null });
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual(unauthorized);
    const wrong = await post(sandbox.url, 'SendDocument', request, { auth: 'Bearer not-the-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual(unauthorized);
    expect(wrong.text).not.toContain(DEFAULT_SANDBOX_AUTH_TOKEN);
    const status = await post(sandbox.url, 'StatusDocument', documentData(request, false), { auth: 'nope' });
    expect(status.status).toBe(401);
    const number = request.document.dataTransaction.numberDocumentFiscal;
    expect((await listDocuments(sandbox.url)).some((d) => d.numberDocumentFiscal === number)).toBe(false);
  });

  it('the default token is an HS256 JWT signed with the default key, as jose verifies it', async () => {
    const { payload, protectedHeader } = await jwtVerify(DEFAULT_SANDBOX_AUTH_TOKEN, new TextEncoder().encode(DEFAULT_SANDBOX_SIGNING_KEY));
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ iss: 'factura-pa-sandbox', sub: 'sandbox-platform' });
    await expect(jwtVerify(DEFAULT_SANDBOX_AUTH_TOKEN, new TextEncoder().encode('another key'))).rejects.toThrow(/signature/);
  });

  it('accepts "Bearer <t>" and the bare "<t>" by default', async () => {
    expect((await post(sandbox.url, 'SendDocument', sendRequest(), { auth: BEARER })).json.code).toBe('200');
    expect((await post(sandbox.url, 'SendDocument', sendRequest(), { auth: DEFAULT_SANDBOX_AUTH_TOKEN })).json.code).toBe('200');
    expect((await post(sandbox.url, 'SendDocument', sendRequest(), { auth: `bearer ${DEFAULT_SANDBOX_AUTH_TOKEN}` })).json.code).toBe(
      '200',
    );
  });

  it('can require one scheme and a configured token', async () => {
    const bearerOnly = await startSandboxServer({ authToken: 'jwt-1', authScheme: 'bearer' });
    const bareOnly = await startSandboxServer({ authToken: 'jwt-2', authScheme: 'bare' });
    try {
      expect((await post(bearerOnly.url, 'SendDocument', sendRequest(), { auth: 'Bearer jwt-1' })).status).toBe(200);
      expect((await post(bearerOnly.url, 'SendDocument', sendRequest(), { auth: 'jwt-1' })).status).toBe(401);
      expect((await post(bearerOnly.url, 'SendDocument', sendRequest(), { auth: BEARER })).status).toBe(401);
      expect((await post(bareOnly.url, 'SendDocument', sendRequest(), { auth: 'jwt-2' })).status).toBe(200);
      expect((await post(bareOnly.url, 'SendDocument', sendRequest(), { auth: 'Bearer jwt-2' })).status).toBe(401);
    } finally {
      await bearerOnly.close();
      await bareOnly.close();
    }
  });
});

describe('configured taxpayers', () => {
  it("accepts only the configured Company/Token pairs and uses each one's issuer in the cufe", async () => {
    const issuer = { ruc: '8-442-445', dv: '08', taxpayerType: '1' as const, name: 'José Núñez', address: 'David, Chiriquí' };
    const server = await startSandboxServer({ taxpayers: [{ Company: 'shop-a', Token: 'secret-a', issuer }] });
    try {
      const ok = await post(
        server.url,
        'SendDocument',
        sendRequest((r) => Object.assign(r, { Company: 'shop-a', Token: 'secret-a' })),
      );
      expect(ok.json.code).toBe('200');
      expect(parseCufe(ok.json.cufe)).toMatchObject({ ruc: '8-442-445', dv: '08', taxpayerType: '1' });
      const wrong = await post(
        server.url,
        'SendDocument',
        sendRequest((r) => Object.assign(r, { Company: 'shop-a', Token: 'secret-b' })),
      );
      expect(wrong.json.code).toBe('101');
      const other = await post(
        server.url,
        'SendDocument',
        sendRequest((r) => Object.assign(r, { Company: 'shop-b', Token: 'secret-a' })),
      );
      expect(other.json.code).toBe('101');
    } finally {
      await server.close();
    }
  });
});

describe('fault injection', () => {
  let faulty: RunningSandbox;
  beforeAll(async () => {
    faulty = await startSandboxServer({ seed: 42 });
  });
  afterAll(async () => {
    await faulty.close();
  });

  it('latency: answers arrive no sooner than latencyMs (set at runtime over HTTP)', async () => {
    const set = await setFaults(faulty.url, { latencyMs: 300 });
    expect(set.status).toBe(200);
    expect(((await set.json()) as Json).faults).toEqual({ latencyMs: 300 });
    faulty.gateway.resetStats();
    const answer = await post(faulty.url, 'SendDocument', sendRequest());
    expect(answer.json.code).toBe('200');
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(295);
    expect(faulty.gateway.stats().injected.latency).toBe(1);
    await setFaults(faulty.url, {});
    const quick = await post(faulty.url, 'SendDocument', sendRequest());
    expect(quick.elapsedMs).toBeLessThan(295);
  });

  it('5xx: HTTP 500/502/503 with an HTML body that is not JSON', async () => {
    await setFaults(faulty.url, { rate5xx: 1 });
    faulty.gateway.resetStats();
    for (const operation of ['SendDocument', 'DownloadPDF', 'StatusDocument']) {
      const answer = await post(faulty.url, operation, sendRequest());
      expect([500, 502, 503]).toContain(answer.status);
      expect(answer.contentType).toMatch(/^text\/html/);
      expect(() => JSON.parse(answer.text)).toThrow();
      expect(answer.text).toContain(`<h1>${answer.status} `);
    }
    expect(faulty.gateway.stats().injected.http5xx).toBe(3);
    await setFaults(faulty.url, {});
  });

  it('drop: the socket is destroyed, fetch rejects', async () => {
    await setFaults(faulty.url, { rateDrop: 1 });
    faulty.gateway.resetStats();
    const request = sendRequest();
    await expect(post(faulty.url, 'SendDocument', request)).rejects.toThrow();
    expect(faulty.gateway.stats().injected.drop).toBe(1);
    await setFaults(faulty.url, {});
    // A dropped request never reached the operation: the number is still free.
    expect((await post(faulty.url, 'SendDocument', request)).json.code).toBe('200');
  });

  it('rate201: a generic 201 without issuing', async () => {
    faulty.gateway.setFaults({ rate201: 1 });
    faulty.gateway.resetStats();
    const request = sendRequest();
    const answer = await post(faulty.url, 'SendDocument', request);
    expect(answer.json).toEqual({ code: '201', result: 'error', message: 'Error al procesar solicitud.' });
    expect(faulty.gateway.stats().injected.error201).toBe(1);
    // StatusDocument is not affected by rate201 and shows the document was not issued.
    expect((await post(faulty.url, 'StatusDocument', documentData(request, false))).json.statusDocument).toBe('No encontrado');
    faulty.gateway.setFaults({});
    expect((await post(faulty.url, 'SendDocument', request)).json.code).toBe('200');
  });

  it('authorize-then-late: the document is issued, the answer comes after the client gave up', async () => {
    await setFaults(faulty.url, { rateAuthorizeThenLate: 1, lateMs: 3000 });
    faulty.gateway.resetStats();
    const request = sendRequest();
    await expect(post(faulty.url, 'SendDocument', request, { signal: AbortSignal.timeout(300) })).rejects.toThrow(/aborted|timeout/i);
    expect(faulty.gateway.stats().injected.authorizeThenLate).toBe(1);
    await setFaults(faulty.url, {});

    const status = await post(faulty.url, 'StatusDocument', documentData(request, false));
    expect(status.json).toEqual({ code: '200', statusDocument: 'Autorizada', messageDocument: 'Autorizado el uso de la FE' });
    const number = request.document.dataTransaction.numberDocumentFiscal;
    const listed = (await listDocuments(faulty.url)).find((d) => d.numberDocumentFiscal === number);
    expect(listed).toMatchObject({
      company: 'sandbox-taxpayer',
      codeBranchIssuer: '0000',
      pointBillingFiscal: '001',
      typeDocument: '01',
      totalInvoice: '60.15',
    });
    expect(parseCufe(listed!.cufe)?.fiscalNumber).toBe(number);
    expect((await post(faulty.url, 'SendDocument', request)).json.code).toBe('102');
  });

  it('rejects an invalid fault configuration with HTTP 400 and keeps the old one', async () => {
    await setFaults(faulty.url, { latencyMs: 1 });
    const bad = await setFaults(faulty.url, { rate5xx: 2 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).message).toContain('rate5xx');
    expect(faulty.gateway.faults()).toEqual({ latencyMs: 1 });
    expect((await setFaults(faulty.url, { rateTypo: 1 })).status).toBe(400);
    await setFaults(faulty.url, {});
  });

  it('the same seed gives the same fault sequence', async () => {
    const outcomes = async (seed: number): Promise<string[]> => {
      const gateway = new SandboxGateway({ faults: { rate5xx: 0.3, rateDrop: 0.2, rate201: 0.2, latencyMs: { min: 0, max: 50 }, seed } });
      const result: string[] = [];
      for (let i = 0; i < 30; i++) {
        const reply = await gateway.handle('SendDocument', sendRequest(), BEARER);
        result.push(
          `${reply.kind}:${reply.kind === 'drop' ? '' : reply.status}:${reply.kind === 'json' ? reply.body.code : ''}:${reply.delayMs}`,
        );
      }
      return result;
    };
    const a = await outcomes(7);
    expect(await outcomes(7)).toEqual(a);
    expect(await outcomes(8)).not.toEqual(a);
    expect(new Set(a.map((o) => o.split(':')[0]))).toEqual(new Set(['json', 'html', 'drop']));
  });

  it('maxFaults: only so many faults, then answers as usual, counted afresh by each configuration', async () => {
    const gateway = new SandboxGateway({ faults: { rate5xx: 1, maxFaults: 2 } });
    const kinds = async (n: number): Promise<string[]> => {
      const result: string[] = [];
      for (let i = 0; i < n; i++) result.push((await gateway.handle('StatusDocument', documentData(sendRequest(), false), BEARER)).kind);
      return result;
    };
    expect(await kinds(4)).toEqual(['html', 'html', 'json', 'json']);
    gateway.setFaults({ rate5xx: 1, maxFaults: 1 });
    expect(await kinds(2)).toEqual(['html', 'json']);
    expect(gateway.stats().injected.http5xx).toBe(3);
  });

  it('counts what it injected', async () => {
    const gateway = new SandboxGateway({ faults: { rate5xx: 0.5, seed: 3 } });
    for (let i = 0; i < 40; i++) await gateway.handle('StatusDocument', documentData(sendRequest(), false), BEARER);
    const stats = gateway.stats();
    expect(stats.requests.StatusDocument).toBe(40);
    expect(stats.injected.http5xx + (stats.codes['201'] ?? 0)).toBe(40);
    expect(stats.injected.http5xx).toBeGreaterThan(10);
    expect(stats.injected.http5xx).toBeLessThan(30);
  });
});

describe('close()', () => {
  it('does not wait for keep-alive sockets or delayed answers', async () => {
    const server = await startSandboxServer({ faults: { rateAuthorizeThenLate: 1, lateMs: 10_000 } });
    // One finished keep-alive request, one still waiting for its late answer.
    expect((await post(server.url, 'StatusDocument', documentData(sendRequest(), false))).json.code).toBe('201');
    const waiting = post(server.url, 'SendDocument', sendRequest());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(waiting).rejects.toThrow();
  });
});
