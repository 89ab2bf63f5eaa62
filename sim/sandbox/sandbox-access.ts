// Who may use the sandbox gateway: the platform operator's Authorization JWT on every request, and the taxpayer
// credentials in the body.
//
// Conventions (docs/gateway-api.md leaves them open; these are the sandbox's choices):
// - Taxpayer credentials: with `taxpayers` configured, only those {Company, Token} pairs are valid;
//   without, any non-empty Token is valid except one starting with "bad" (→ 101).
// - Authorization header: `Bearer <authToken>` or the bare `<authToken>` (authScheme 'any', the default);
//   'bearer' / 'bare' accept only that form. The token is opaque here, as it is to the gateway's clients:
//   compared whole, in constant time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SandboxCredentials } from './rules/gateway-fields.ts';
import type { SandboxIssuer } from './sandbox-pdf.ts';

export interface SandboxTaxpayer {
  Company: string;
  Token: string;
  /** Issuer identity of this taxpayer; defaults to the gateway's `issuer`. */
  issuer?: SandboxIssuer;
}

export type AuthScheme = 'any' | 'bearer' | 'bare';

/** HS256 key of the default Authorization JWT and, unless configured, of the QR's jwt. */
export const DEFAULT_SANDBOX_SIGNING_KEY = 'factura-pa-sandbox-signing-key';

/**
 * The Authorization JWT the sandbox expects unless told otherwise: {"iss":"factura-pa-sandbox","sub":"sandbox-platform"}
 * signed HS256 with DEFAULT_SANDBOX_SIGNING_KEY (a test verifies it with jose). A literal, so that it is there
 * synchronously for the tests, the demo and docs/operators.md, which prints it.
 */
export const DEFAULT_SANDBOX_AUTH_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJmYWN0dXJhLXBhLXNhbmRib3giLCJzdWIiOiJzYW5kYm94LXBsYXRmb3JtIn0.MOv5XpJgiBCI4tCuQwksPTvH6DB2sGxk8aarwrL30ek';

/** Credentials the sandbox accepts by default (any Token not starting with "bad" would do). */
export const DEFAULT_SANDBOX_CREDENTIALS: SandboxCredentials = {
  GW_Company: 'sandbox-platform',
  GW_Token: 'sandbox-platform-password',
  Id_Pac: 'EBI',
  Enterprise: 'SANDBOX',
  Company: 'sandbox-taxpayer',
  Token: 'sandbox-token',
};

export const DEFAULT_SANDBOX_ISSUER: SandboxIssuer = {
  // HKA's public sample RUC; its DV is valid (docs/reference/panama-fe.md §4.1).
  ruc: '155596713-2-2015',
  dv: '59',
  taxpayerType: '2',
  name: 'Comercio Sandbox, S.A.',
  address: 'Avenida Balboa, Bella Vista, Panamá',
};

export class SandboxAccess {
  readonly #taxpayers: SandboxTaxpayer[] | undefined;
  readonly #authToken: string;
  readonly #authScheme: AuthScheme;

  constructor(options: { taxpayers?: SandboxTaxpayer[]; authToken?: string; authScheme?: AuthScheme }) {
    this.#taxpayers = options.taxpayers;
    this.#authToken = options.authToken ?? DEFAULT_SANDBOX_AUTH_TOKEN;
    this.#authScheme = options.authScheme ?? 'any';
  }

  /** True when the header carries the expected JWT in an accepted form. */
  checkAuthorization(header: string | undefined): boolean {
    if (header === undefined) return false;
    const match = /^bearer\s+(.+)$/i.exec(header.trim());
    if (match && this.#authScheme === 'bare') return false;
    if (!match && this.#authScheme === 'bearer') return false;
    return sameSecret(match ? match[1]!.trim() : header.trim(), this.#authToken);
  }

  /** The taxpayer these credentials name, or undefined when their Token is not valid (→ 101). */
  taxpayer(credentials: SandboxCredentials): SandboxTaxpayer | undefined {
    const { Company, Token } = credentials;
    if (this.#taxpayers === undefined) {
      return Token.startsWith('bad') ? undefined : { Company, Token };
    }
    return this.#taxpayers.find((t) => t.Company === Company && sameSecret(t.Token, Token));
  }
}

/** A key of this process only: two secrets are compared by their HMACs, equal in length whatever theirs. */
const COMPARISON_KEY = randomBytes(32);

/** Whether two secrets are equal, in a time that says nothing of where they differ or how long either is. */
function sameSecret(sent: string, held: string): boolean {
  const mac = (text: string): Buffer => createHmac('sha256', COMPARISON_KEY).update(text).digest();
  return timingSafeEqual(mac(sent), mac(held));
}
