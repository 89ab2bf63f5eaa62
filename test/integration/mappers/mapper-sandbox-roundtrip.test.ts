// Every mappable fixture's document, sent over HTTP to the sandbox gateway (which validates by the DGI's
// rules), is authorized: code 200, `procesado`, a CUFE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MappingSettings, mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from '../../../sim/sandbox/sandbox-gateway.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { mapFixture, orderFixtureNames } from '../../support/order-fixtures.ts';

/** Fixtures that must not become documents (the fixture tests check their problems). */
const UNMAPPABLE = new Set(['bad-check-digit', 'unknown-rate', 'eur-currency']);

let sandbox: RunningSandbox;
let fiscalNumber = 1000;

beforeAll(async () => {
  sandbox = await startSandboxServer();
});

afterAll(async () => {
  await sandbox.close();
});

async function send(document: GatewayDocument): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}/SendDocument`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEFAULT_SANDBOX_AUTH_TOKEN}` },
    body: JSON.stringify({ ...DEFAULT_SANDBOX_CREDENTIALS, identifierControlShipping: '1', environment: '2', document }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

function documentOf(name: string, settings?: MappingSettings): GatewayDocument {
  const result = mapFixture(name, { fiscalNumber: ++fiscalNumber, now: new Date(), ...(settings ? { settings } : {}) });
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.problems)}`);
  return result.document;
}

const mappable = orderFixtureNames().filter((n) => !UNMAPPABLE.has(n));

describe('fixture documents authorized by the sandbox gateway over HTTP', () => {
  it('covers every mappable fixture', () => {
    expect(mappable.length).toBeGreaterThanOrEqual(14);
  });

  it.each(mappable)('%s', async (name) => {
    const answer = await send(documentOf(name));
    expect(answer).toMatchObject({ code: '200', result: 'procesado' });
    expect(answer.cufe).toMatch(/^FE01\d/);
  });

  it.each([
    ['unknown-rate', { taxRateCodes: { '0.08': '01' } }],
    ['gift-card-line', { includeGiftCards: true }],
    ['tip', { includeTips: true }],
  ] as const)('%s with settings %j', async (name, settings) => {
    const answer = await send(documentOf(name, mappingSettingsSchema.parse(settings)));
    expect(answer).toMatchObject({ code: '200', result: 'procesado' });
  });
});
