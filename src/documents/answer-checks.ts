// What the app checks before it believes a gateway's "authorized" (docs/gateway-checks.md): the CUFE is well-formed
// with its check digit and names the document that was sent (type, issuer branch, billing point, number, issue date,
// emission type, environment), its issuer is the shop's, the QR address names it, and the reception time and
// protocol are well-formed. Pure: the use case asks the store about uniqueness and the shop's issuer.
import { type CufeParts, parseCufe } from '../../mappers/fiscal/cufe.ts';
import { isValidRucCheckDigit } from '../../mappers/fiscal/ruc-check-digit.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { ENVIRONMENT_CODE, type GatewayEnvironment } from '../gateway/gateway-types.ts';

/** Which check failed (a catalogue `select` case), and what was seen, for the merchant. */
export type CheckFailure = {
  check: 'cufe_format' | 'cufe_other_document' | 'cufe_issuer' | 'cufe_duplicate' | 'qr' | 'reception_date' | 'protocol';
  detail: string;
};

export interface AuthorizationAnswer {
  cufe: string;
  qr: string;
  protocol: string;
  receptionDateDgi: string;
}

/** The first way the CUFE does not name this document as it was sent, or undefined when it does. */
export function cufeMismatch(cufe: string, sent: GatewayDocument, environment: GatewayEnvironment): CheckFailure | undefined {
  const parts = parseCufe(cufe);
  if (!parts) return { check: 'cufe_format', detail: 'not 66 well-formed characters with a valid check digit' };
  if (!isValidRucCheckDigit(parts.ruc, parts.dv)) return { check: 'cufe_format', detail: `issuer RUC ${parts.ruc} with DV ${parts.dv}` };
  const t = sent.dataTransaction;
  const expected: Partial<Record<keyof CufeParts, string>> = {
    typeDocument: t.typeDocument,
    branch: sent.codeBranchIssuer,
    fiscalNumber: t.numberDocumentFiscal.padStart(10, '0'),
    billingPoint: t.pointBillingFiscal.padStart(3, '0'),
    emissionType: t.typeEmission,
    environment: ENVIRONMENT_CODE[environment],
    date: t.dateBroadcast.slice(0, 10).replaceAll('-', ''),
  };
  for (const [field, value] of Object.entries(expected) as [keyof CufeParts, string][]) {
    if (parts[field] !== value) return { check: 'cufe_other_document', detail: `${FIELD_NAMES[field]} ${parts[field]}, sent ${value}` };
  }
  return undefined;
}

const FIELD_NAMES: Partial<Record<keyof CufeParts, string>> = {
  typeDocument: 'document type',
  branch: 'branch',
  fiscalNumber: 'number',
  billingPoint: 'billing point',
  emissionType: 'emission type',
  environment: 'environment',
  date: 'issue date',
};

/** The issuer a CUFE names: RUC, DV and taxpayer type. */
export function cufeIssuer(cufe: string): string | undefined {
  const parts = parseCufe(cufe);
  return parts && `${parts.taxpayerType}:${parts.ruc}:${parts.dv}`;
}

/**
 * The first check an authorization fails, or undefined when it checks out. `shopIssuerCufe`: a CUFE the shop was
 * authorized under before (its issuer is the shop's), if any.
 */
export function authorizationMismatch(
  answer: AuthorizationAnswer,
  sent: GatewayDocument,
  environment: GatewayEnvironment,
  shopIssuerCufe: string | undefined,
): CheckFailure | undefined {
  const cufe = cufeMismatch(answer.cufe, sent, environment);
  if (cufe) return cufe;
  if (shopIssuerCufe !== undefined) {
    const known = cufeIssuer(shopIssuerCufe);
    const named = cufeIssuer(answer.cufe);
    if (known !== undefined && known !== named) return { check: 'cufe_issuer', detail: `RUC ${named?.split(':')[1] ?? '?'}` };
  }
  if (!qrNamesCufe(answer.qr, answer.cufe, environment)) return { check: 'qr', detail: answer.qr.slice(0, 80) };
  if (!isIsoDateTime(answer.receptionDateDgi)) return { check: 'reception_date', detail: answer.receptionDateDgi.slice(0, 40) };
  if (!/^[0-9A-Za-z-]{1,64}$/.test(answer.protocol)) return { check: 'protocol', detail: answer.protocol.slice(0, 40) };
  return undefined;
}

/** An https address whose `chFE` is this CUFE and whose `iAmb` (when present) is this environment. */
function qrNamesCufe(qr: string, cufe: string, environment: GatewayEnvironment): boolean {
  let url: URL;
  try {
    url = new URL(qr);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const amb = url.searchParams.get('iAmb');
  return url.searchParams.get('chFE') === cufe && (amb === null || amb === ENVIRONMENT_CODE[environment]);
}

/** ISO 8601 date-time with a UTC offset (docs/gateway-api.md), a real instant. */
function isIsoDateTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text));
}
