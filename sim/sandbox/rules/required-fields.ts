// 109: the fields the gateway requires, checked before any other rule (docs/reference/panama-fe.md §2, docs/gateway-api.md).
import { CREDENTIAL_FIELDS } from './gateway-fields.ts';
import REQUIRED from './required-fields.json' with { type: 'json' };
import type { Json, RuleProblem } from './rule-problem.ts';
import { asObject, firstOf, invalid, missing, optionalString, requireNonEmptyArray, requireString } from './rule-problem.ts';

/** 109 for a missing credential; used by every operation before the token is checked. */
export function checkCredentialsPresent(request: unknown): RuleProblem | undefined {
  const body = asObject(request);
  return firstOf(...CREDENTIAL_FIELDS.map((f) => () => requireString(body, f)));
}

/** 109 for a missing `documentData` field of DownloadPDF / StatusDocument (`serialDevice` may be empty). */
export function checkDocumentDataPresent(request: unknown): RuleProblem | undefined {
  const body = asObject(request);
  const data = asObject(body?.documentData);
  if (data === undefined) return missing('documentData');
  return firstOf(...REQUIRED.documentData.map((f) => () => requireString(data, f)));
}

/**
 * 109 for the first missing field of a SendDocument body, in document order. `dataTransactionExtra` checks what a
 * document type adds to `dataTransaction` (a credit note's reference).
 */
export function checkRequired(request: unknown, dataTransactionExtra: (data: Json) => RuleProblem | undefined): RuleProblem | undefined {
  const body = asObject(request);
  if (body === undefined) return missing('document');
  const document = asObject(body.document);
  const data = asObject(document?.dataTransaction);
  const client = asObject(data?.client);
  const totals = asObject(document?.totalsSubTotals);
  return firstOf(
    () => checkCredentialsPresent(body),
    () => requireString(body, 'identifierControlShipping'),
    () => requireString(body, 'environment'),
    () => (document === undefined ? missing('document') : undefined),
    () => requireString(document, 'codeBranchIssuer'),
    () => (data === undefined ? missing('dataTransaction') : undefined),
    ...REQUIRED.dataTransaction.map((f) => () => requireString(data, f)),
    () => (client === undefined ? missing('client') : undefined),
    () => requireString(client, 'typeClientEB'),
    () => requireString(client, 'country'),
    () => checkClientRequiredByType(client!),
    () => dataTransactionExtra(data!),
    () => requireNonEmptyArray(document!, 'listItems'),
    () => firstOf(...(document!.listItems as unknown[]).map((item) => () => checkItemRequired(item))),
    () => (totals === undefined ? missing('totalsSubTotals') : undefined),
    ...REQUIRED.totals.map((f) => () => requireString(totals, f)),
    () => optionalString(totals, 'totalISC'),
    () => requireNonEmptyArray(totals!, 'listFormPayment'),
    () => firstOf(...(totals!.listFormPayment as unknown[]).map((p) => () => checkPaymentRequired(p))),
  );
}

/** The taxpayer and government types (01, 03) carry the RUC, the name and the address (§3.6). */
function checkClientRequiredByType(client: Json): RuleProblem | undefined {
  const type = client.typeClientEB;
  if (type !== '01' && type !== '03') return undefined;
  return firstOf(...REQUIRED.clientWithRuc.map((f) => () => requireString(client, f)));
}

function checkItemRequired(value: unknown): RuleProblem | undefined {
  const item = asObject(value);
  if (item === undefined) return invalid('listItems', 'tipo inválido: cada elemento de listItems debe ser un objeto');
  return firstOf(...REQUIRED.item.map((f) => () => requireString(item, f)));
}

function checkPaymentRequired(value: unknown): RuleProblem | undefined {
  const payment = asObject(value);
  if (payment === undefined) return invalid('listFormPayment', 'tipo inválido: cada elemento de listFormPayment debe ser un objeto');
  return firstOf(...REQUIRED.payment.map((f) => () => requireString(payment, f)));
}
