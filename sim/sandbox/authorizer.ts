// What the sandbox answers for a document it accepts: its CUFE (with a security code drawn from a seeded stream),
// the signed QR address, the DGI's reception time in Panama and an authorization protocol number.
import { buildCufe } from './fiscal/cufe.ts';
import type { SandboxDocument } from './rules/gateway-fields.ts';
import type { SandboxIssuer } from './sandbox-pdf.ts';
import { mulberry32 } from './seeded-random.ts';
import { qrSigningKey, signedQrUrl } from './signed-qr.ts';

export interface Authorization {
  cufe: string;
  qr: string;
  receptionDateDGI: string;
  nroAuthorizationProtocol: string;
}

/** Panama keeps UTC−05:00 all year (docs/reference/panama-fe.md §3.11). */
const PANAMA_OFFSET_MS = -5 * 60 * 60 * 1000;

export class Authorizer {
  readonly #securityCodes: () => number;
  readonly #signingKey: Promise<CryptoKey>;
  #protocolCounter = 0;

  constructor(seed: number, signingKey: string) {
    // A stream of its own, so that the security codes do not shift the fault sequence.
    this.#securityCodes = mulberry32(seed ^ 0x5eed5eed);
    this.#signingKey = qrSigningKey(signingKey);
  }

  /**
   * The authorization of `document` (`raw` is the document as sent, whose digest the QR carries) for `environment`
   * ("1" producción, anything else pruebas). Everything but the QR's signature happens synchronously.
   */
  async authorize(document: SandboxDocument, raw: unknown, environment: string, issuer: SandboxIssuer, now: Date): Promise<Authorization> {
    const data = document.dataTransaction;
    const env = environment === '1' ? '1' : '2';
    const cufe = buildCufe({
      typeDocument: data.typeDocument,
      taxpayerType: issuer.taxpayerType,
      ruc: issuer.ruc,
      dv: issuer.dv,
      branch: document.codeBranchIssuer,
      date: data.dateBroadcast.slice(0, 10).replaceAll('-', ''),
      fiscalNumber: data.numberDocumentFiscal,
      billingPoint: data.pointBillingFiscal,
      emissionType: data.typeEmission,
      environment: env,
      securityCode: String(Math.floor(this.#securityCodes() * 1e9)).padStart(9, '0'),
    });
    const receptionDateDGI = panamaDateTime(now);
    this.#protocolCounter++;
    // Reception time to the second + a per-instance counter: unique digits for this gateway.
    const nroAuthorizationProtocol = receptionDateDGI.slice(0, 19).replace(/\D/g, '') + String(this.#protocolCounter).padStart(6, '0');
    const qr = await signedQrUrl(cufe, env, raw, await this.#signingKey);
    return { cufe, qr, receptionDateDGI, nroAuthorizationProtocol };
  }
}

/** `YYYY-MM-DDThh:mm:ss-05:00`, the instant in Panama. */
export function panamaDateTime(now: Date): string {
  return new Date(now.getTime() + PANAMA_OFFSET_MS).toISOString().slice(0, 19) + '-05:00';
}
