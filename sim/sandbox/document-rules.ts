// The sandbox gateway's document validation: what the real gateway (and the DGI behind it) would reject, as
// code 109 (required field missing) or 201 (any other rule, message naming the rule). One family of rules per
// module under rules/; this module only puts them in order.
// Sources: docs/gateway-api.md, docs/reference/panama-fe.md §3 (codes, formats), §5 (arithmetic), §7.3 (notes), docs/design.md §9.
// Pure: no I/O, the clock is a parameter. All arithmetic on BigInt in exact decimal units.
import { checkClient } from './rules/client-rules.ts';
import { checkCode } from './rules/code-tables.ts';
import { checkReferenceRequired, checkReferenceRules } from './rules/credit-note-rules.ts';
import { checkItem } from './rules/item-rules.ts';
import { checkKnownFields, type FieldCheck } from './rules/known-fields.ts';
import { checkRequired } from './rules/required-fields.ts';
import { checkFormat, firstOf, rule, type Json, type RuleProblem } from './rules/rule-problem.ts';
import { MAX_ITEMS, checkTotals } from './rules/totals-rules.ts';
import { checkDataTransaction } from './rules/transaction-rules.ts';

export type { RuleProblem } from './rules/rule-problem.ts';

/**
 * Validate a SendDocument request body (parsed JSON, any shape). Returns the FIRST problem found,
 * in this order: required fields (109), then codes and formats, a note's reference, client rules, per-item
 * rules, totals and payments, and last any field the gateway does not know (201). `now` decides the
 * "no more than 2 days in the future" rule.
 */
export function validateSendDocument(request: unknown, now: Date = new Date()): RuleProblem | undefined {
  const checked = checkSendDocument(request, now);
  return checked.ok ? undefined : checked.problem;
}

/** validateSendDocument, with the typed body when it passes. */
export function checkSendDocument(request: unknown, now: Date = new Date()): FieldCheck {
  const problem = firstOf(
    () => checkRequired(request, checkReferenceRequired),
    () => checkRules(request as Json, now),
  );
  return problem ? { ok: false, problem } : checkKnownFields(request);
}

/** 201: codes, formats, reference, client, items, totals (every required string is known to be present here). */
function checkRules(body: Json, now: Date): RuleProblem | undefined {
  const document = body.document as Json;
  const data = document.dataTransaction as Json;
  const items = document.listItems as Json[];
  return firstOf(
    () => checkCode(body, 'environment'),
    () => checkFormat(document, 'codeBranchIssuer', /^[A-Za-z0-9]{4}$/, 'debe tener exactamente 4 caracteres alfanuméricos'),
    () => checkDataTransaction(data, now),
    () => checkReferenceRules(data),
    () => checkClient(data.client as Json, data),
    () => (items.length > MAX_ITEMS ? rule('2001', 12, 'listItems', `${items.length} ítems; el máximo es ${MAX_ITEMS}`) : undefined),
    ...items.map((item, i) => () => checkItem(item, i + 1)),
    () => checkTotals(items, document.totalsSubTotals as Json),
  );
}
