// The documents the sandbox authorized, filed as the gateway files them: by (Company, codeBranchIssuer,
// pointBillingFiscal, typeDocument, numberDocumentFiscal); typeEmission is kept but not part of the key, so each
// document type has its own numbers.
import type { GatewayDocument } from '../../mappers/gateway-document.ts';
import type { SandboxIssuer } from './sandbox-pdf.ts';

export interface IssuedDocumentSummary {
  company: string;
  codeBranchIssuer: string;
  pointBillingFiscal: string;
  typeDocument: string;
  numberDocumentFiscal: string;
  typeEmission: string;
  environment: string;
  cufe: string;
  qr: string;
  receptionDateDGI: string;
  nroAuthorizationProtocol: string;
  totalInvoice: string;
  document: GatewayDocument;
}

export interface IssuedDocument extends IssuedDocumentSummary {
  issuer: SandboxIssuer;
  /** The PDF, drawn once (when first downloaded, or at issue with a PDF thread). */
  pdf?: Promise<Uint8Array>;
}

/** A number held while its document is being authorized (the QR's signature is asynchronous). */
export interface Reservation {
  /** File the authorized document under the reserved number. */
  file(issued: IssuedDocument): void;
  /** Give the number back: the document was not authorized. */
  release(): void;
}

export function documentKey(company: string, branch: string, point: string, type: string, number: string): string {
  return JSON.stringify([company, branch, point, type, number]);
}

export class IssuedDocuments {
  readonly #byKey = new Map<string, IssuedDocument>();
  readonly #reserved = new Set<string>();

  /** Whether the number is taken: authorized, or being authorized. */
  has(key: string): boolean {
    return this.#byKey.has(key) || this.#reserved.has(key);
  }

  get(key: string): IssuedDocument | undefined {
    return this.#byKey.get(key);
  }

  /** Hold `key` from now: a concurrent request for the same number answers 102. */
  reserve(key: string): Reservation {
    this.#reserved.add(key);
    return {
      file: (issued) => {
        this.#reserved.delete(key);
        this.#byKey.set(key, issued);
      },
      release: () => {
        this.#reserved.delete(key);
      },
    };
  }

  /** Authorized documents, oldest first, without the cached PDFs. */
  list(): IssuedDocumentSummary[] {
    return [...this.#byKey.values()].map(({ issuer: _issuer, pdf: _pdf, ...summary }) => structuredClone(summary));
  }
}
