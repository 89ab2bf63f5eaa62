// "Test connection": ask the gateway for the status of a document that cannot exist (number 0 is never
// issued), with the credentials the merchant entered. The gateway checks the credentials before it looks
// for the document, so 101 means they are wrong and any answer about the document means they work.
import { createGatewayClient } from '../gateway/gateway-client.ts';
import type { GatewayCredentials, GatewayEnvironment } from '../gateway/gateway-types.ts';
import type { GatewaySettings } from '../gateway/gateway-client.ts';

export type ConnectionResult =
  | { result: 'valid'; environment: GatewayEnvironment; durationMs: number }
  | { result: 'invalid'; environment: GatewayEnvironment; code: string; message: string; durationMs: number }
  | { result: 'unknown'; environment: GatewayEnvironment; message: string; durationMs: number };

export async function testGatewayConnection(o: {
  gateway: GatewaySettings;
  credentials: GatewayCredentials;
  environment: GatewayEnvironment;
  branchCode: string;
  billingPoint: string;
  fetch?: typeof fetch;
}): Promise<ConnectionResult> {
  const client = createGatewayClient({ ...o.gateway, ...(o.fetch ? { fetch: o.fetch } : {}) });
  const started = performance.now();
  const outcome = await client.statusDocument({
    credentials: o.credentials,
    key: {
      codeBranchIssuing: o.branchCode,
      pointBillingFiscal: o.billingPoint,
      numberDocumentFiscal: '0000000000',
      typeDocument: '01',
      typeEmission: '01',
    },
  });
  const durationMs = Math.round(performance.now() - started);
  const environment = o.environment;
  switch (outcome.kind) {
    case 'credentials':
      return { result: 'invalid', environment, code: outcome.code, message: outcome.message, durationMs };
    case 'unavailable':
      return { result: 'unknown', environment, message: outcome.reason, durationMs };
    case 'authorized':
    case 'other':
      return { result: 'valid', environment, durationMs };
  }
}
