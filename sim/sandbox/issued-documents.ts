// The documents the sandbox authorized, filed as the gateway files them: by (Company, environment, codeBranchIssuer,
// pointBillingFiscal, typeDocument, numberDocumentFiscal); typeEmission is kept but not part of the key, so each
// document type has its own numbers, and the test and production environments (the DGI's two registries) each their
// own. DownloadPDF and StatusDocument name no environment: they find the latest document filed under the rest of the
// key (docs/gateway-api.md, what the app assumes). Also by CUFE, for the notes that reference an invoice, with the sum of the
// notes of each invoice.
import type { SandboxDocument } from './rules/gateway-fields.ts';
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
  /** A credit note's reference: the invoice's CUFE and issue date as the note gave them; null for an invoice. */
  reference: { cufe: string; date: string } | null;
  document: SandboxDocument;
}

export interface IssuedDocument extends IssuedDocumentSummary {
  issuer: SandboxIssuer;
  /** The PDF, drawn once (when first downloaded, or at issue with a PDF thread). */
  pdf?: Promise<Uint8Array>;
}

/** A credit note's amount, held against the invoice it references. */
export interface NoteCredit {
  company: string;
  invoiceCufe: string;
  /** In cents. */
  amount: number;
}

/** A number held while its document is being authorized (the QR's signature is asynchronous). */
export interface Reservation {
  /** File the authorized document under the reserved number. */
  file(issued: IssuedDocument): void;
  /** Give the number (and the note's amount) back: the document was not authorized. */
  release(): void;
}

/** `environment` undefined: the key DownloadPDF and StatusDocument look a document up by, whatever its environment. */
export function documentKey(company: string, branch: string, point: string, type: string, number: string, environment?: string): string {
  return JSON.stringify([company, branch, point, type, number, ...(environment === undefined ? [] : [environment])]);
}

/** The key without its environment. */
function lookupKeyOf(key: string): string {
  const parts = JSON.parse(key) as string[];
  return JSON.stringify(parts.slice(0, 5));
}

export class IssuedDocuments {
  readonly #byKey = new Map<string, IssuedDocument>();
  /** The latest document filed under each key without its environment. */
  readonly #latest = new Map<string, IssuedDocument>();
  readonly #byCufe = new Map<string, IssuedDocument>();
  readonly #reserved = new Set<string>();
  readonly #credited = new Map<string, number>();

  /** Whether the number is taken: authorized, or being authorized. */
  has(key: string): boolean {
    return this.#byKey.has(key) || this.#reserved.has(key);
  }

  /** By its key, or by a key without environment (the latest filed under it). */
  get(key: string): IssuedDocument | undefined {
    return this.#byKey.get(key) ?? this.#latest.get(key);
  }

  /** The document this taxpayer had authorized with this CUFE. */
  byCufe(company: string, cufe: string): IssuedDocument | undefined {
    return this.#byCufe.get(JSON.stringify([company, cufe]));
  }

  /** Σ totalInvoice, in cents, of the credit notes authorized, or being authorized, against this invoice. */
  credited(company: string, invoiceCufe: string): number {
    return this.#credited.get(JSON.stringify([company, invoiceCufe])) ?? 0;
  }

  /**
   * Hold `key`, and a note's amount against its invoice, from now: a concurrent request for the same number answers
   * 102 and a concurrent note of the same invoice counts this one.
   */
  reserve(key: string, credit: NoteCredit | undefined): Reservation {
    this.#reserved.add(key);
    if (credit) this.#credit(credit, credit.amount);
    return {
      file: (issued) => {
        this.#reserved.delete(key);
        this.#byKey.set(key, issued);
        this.#latest.set(lookupKeyOf(key), issued);
        this.#byCufe.set(JSON.stringify([issued.company, issued.cufe]), issued);
      },
      release: () => {
        this.#reserved.delete(key);
        if (credit) this.#credit(credit, -credit.amount);
      },
    };
  }

  /** Authorized documents, oldest first, without the cached PDFs. */
  list(): IssuedDocumentSummary[] {
    return [...this.#byKey.values()].map(({ issuer: _issuer, pdf: _pdf, ...summary }) => structuredClone(summary));
  }

  #credit({ company, invoiceCufe }: NoteCredit, amount: number): void {
    const key = JSON.stringify([company, invoiceCufe]);
    this.#credited.set(key, (this.#credited.get(key) ?? 0) + amount);
  }
}
