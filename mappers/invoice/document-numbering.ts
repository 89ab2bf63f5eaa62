// A mapped document receives its number last: the mappers produce a draft, and the pipeline applies the branch,
// billing point, fiscal number and submission time to it once it has reserved the number. Pure.
import type { DataTransaction, GatewayDocument } from '../gateway/gateway-document.ts';

/** What the pipeline adds to a mapped document. */
export interface Numbering {
  /** `codeBranchIssuer`: 4 letters or digits, "0000" the head office. */
  branchCode: string;
  /** `pointBillingFiscal`: 3 digits, not 000. */
  billingPoint: string;
  /** `numberDocumentFiscal` as a number, 1 … 9 999 999 999. */
  fiscalNumber: number;
}

/** The branch and billing point a document is issued from: each keeps its own number sequence per document type. */
export type IssuingPoint = Omit<Numbering, 'fiscalNumber'>;

type NumberedFields = 'numberDocumentFiscal' | 'pointBillingFiscal' | 'dateBroadcast';

/** A mapped document without its number, billing point, branch and submission time. */
export interface DocumentDraft extends Omit<GatewayDocument, 'codeBranchIssuer' | 'dataTransaction'> {
  dataTransaction: Omit<DataTransaction, NumberedFields>;
}

/** The draft with its number applied: the document as SendDocument carries it. */
export function numberDocument(draft: DocumentDraft, numbering: Numbering, now: Date): GatewayDocument {
  checkNumbering(numbering);
  const { typeEmission, typeDocument, ...rest } = draft.dataTransaction;
  return {
    codeBranchIssuer: numbering.branchCode,
    dataTransaction: {
      typeEmission,
      typeDocument,
      numberDocumentFiscal: formatFiscalNumberDigits(numbering.fiscalNumber),
      pointBillingFiscal: numbering.billingPoint,
      dateBroadcast: panamaDateTime(now),
      ...rest,
    },
    listItems: draft.listItems,
    totalsSubTotals: draft.totalsSubTotals,
  };
}

/** `numberDocumentFiscal`: ten digits, zero-padded. */
export function formatFiscalNumberDigits(fiscalNumber: number): string {
  return String(fiscalNumber).padStart(10, '0');
}

/** The numbering comes from the pipeline; a bad value there is a bug, not a merchant problem. */
function checkNumbering(n: Numbering): void {
  if (!/^[0-9A-Za-z]{4}$/.test(n.branchCode)) throw new RangeError(`branch code must be 4 letters or digits: ${n.branchCode}`);
  if (!/^(?!000)\d{3}$/.test(n.billingPoint)) throw new RangeError(`billing point must be 3 digits, not 000: ${n.billingPoint}`);
  if (!Number.isSafeInteger(n.fiscalNumber) || n.fiscalNumber < 1 || n.fiscalNumber > 9_999_999_999) {
    throw new RangeError(`fiscal number must be 1 to 9999999999: ${n.fiscalNumber}`);
  }
}

const PANAMA_OFFSET_MS = -5 * 60 * 60 * 1000;

/** `YYYY-MM-DDThh:mm:ss-05:00`: Panama has no daylight saving time; the DGI rejects fractions and `Z`. */
export function panamaDateTime(now: Date): string {
  const local = new Date(now.getTime() + PANAMA_OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${p(local.getUTCFullYear(), 4)}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())}` +
    `T${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:${p(local.getUTCSeconds())}-05:00`
  );
}
