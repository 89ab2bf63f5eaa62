// A credit note (typeDocument 04) and its reference to the invoice it corrects (docs/design.md §9, docs/reference/panama-fe.md §7.3).
// The field names are the sandbox's own (gateway-fields.ts REFERENCE): exactly these are required of a type 04.
// Shape first (pure, with the other rules); then, once the sandbox knows the number is free, the note against
// the invoice it names (checkNoteAgainstInvoice, given what the registry knows of that invoice).
import { parseCufe } from '../fiscal/cufe.ts';
import { CREDIT_NOTE, NOTE_TYPES } from './code-tables.ts';
import { formatCents, toCents } from './decimal.ts';
import { REFERENCE, type SandboxReference } from './gateway-fields.ts';
import type { Json, RuleProblem } from './rule-problem.ts';
import { asObject, firstOf, invalid, missing, requireNonEmptyArray, requireString, rule } from './rule-problem.ts';
import { badDateFormat, parseDateBroadcast } from './transaction-rules.ts';

const { list: LIST, date: DATE, cufe: CUFE, paperNumber: PAPER, fiscalPrinterNumber: FISCAL_PRINTER } = REFERENCE;
const ENVIRONMENTS: Readonly<Record<string, string>> = { '1': '1 (producción)', '2': '2 (pruebas)' };

/** 109: a credit note carries one reference with every field; the paper and fiscal-printer numbers may be empty. */
export function checkReferenceRequired(data: Json): RuleProblem | undefined {
  if (data.typeDocument !== CREDIT_NOTE) return undefined;
  return firstOf(
    () => requireNonEmptyArray(data, LIST),
    () => firstOf(...(data[LIST] as unknown[]).map((entry) => () => checkEntryRequired(entry))),
  );
}

function checkEntryRequired(value: unknown): RuleProblem | undefined {
  const entry = asObject(value);
  if (entry === undefined) return invalid(LIST, `tipo inválido: cada elemento de ${LIST} debe ser un objeto`);
  return firstOf(
    () => requireString(entry, DATE),
    () => requireString(entry, CUFE),
    ...[PAPER, FISCAL_PRINTER].map((field) => () => requireText(entry, field)),
  );
}

/** 201: no reference on anything but a credit note; a note's reference is one well-formed CUFE and its date. */
export function checkReferenceRules(data: Json): RuleProblem | undefined {
  const type = data.typeDocument as string;
  const references = data[LIST];
  if (type !== CREDIT_NOTE) {
    if (references === undefined || references === null) return undefined;
    return invalid(LIST, `typeDocument ${type} no lleva ${LIST}: solo una nota de crédito (${CREDIT_NOTE}) referencia una factura`);
  }
  const entries = references as Json[];
  if (entries.length > 1) {
    return invalid(LIST, `${LIST} tiene ${entries.length} documentos; esta pasarela acepta una sola factura referenciada por nota`);
  }
  const entry = entries[0]!;
  const cufe = entry[CUFE] as string;
  return firstOf(
    () => (parseDateBroadcast(entry[DATE] as string) === undefined ? badDateFormat(DATE, entry[DATE] as string) : undefined),
    () =>
      parseCufe(cufe) === undefined
        ? rule('1703', undefined, CUFE, `${CUFE} "${cufe}" no es un CUFE válido (66 caracteres con su dígito verificador)`)
        : undefined,
    ...[PAPER, FISCAL_PRINTER].map(
      (field) => () =>
        entry[field] !== ''
          ? invalid(field, `${field} "${entry[field] as string}" debe ir vacío: la factura se referencia por su CUFE`)
          : undefined,
    ),
  );
}

/** What the registry knows of the document a note references (an issued document satisfies it). */
export interface ReferencedAuthorization {
  typeDocument: string;
  environment: string;
  totalInvoice: string;
  document: { dataTransaction: { dateBroadcast: string } };
}

export interface CreditNote {
  environment: string;
  reference: SandboxReference;
  totalInvoice: string;
}

/**
 * 201 when the note's reference does not name an invoice this sandbox authorized for the same taxpayer (`invoice`
 * undefined), names a note, another environment, another date, or when the notes of the invoice would exceed it.
 * `credited` is the sum, in cents, of the notes already authorized (or being authorized) against that invoice.
 */
export function checkNoteAgainstInvoice(
  note: CreditNote,
  invoice: ReferencedAuthorization | undefined,
  credited: number,
): RuleProblem | undefined {
  const cufe = note.reference[CUFE];
  if (invoice === undefined) {
    return rule('1704', undefined, CUFE, `${CUFE} ${cufe} no es una factura autorizada por esta pasarela para este contribuyente`);
  }
  if (NOTE_TYPES.includes(invoice.typeDocument)) {
    return rule(
      '1712',
      undefined,
      CUFE,
      `${CUFE} ${cufe} es una nota (typeDocument ${invoice.typeDocument}): una nota de crédito solo referencia facturas`,
    );
  }
  if (invoice.environment !== note.environment) {
    return rule(
      '1704',
      undefined,
      CUFE,
      `la factura ${cufe} se autorizó en el ambiente ${ENVIRONMENTS[invoice.environment]} y esta nota va al ambiente ${ENVIRONMENTS[note.environment]}`,
    );
  }
  const date = note.reference[DATE];
  const issued = invoice.document.dataTransaction.dateBroadcast;
  if (parseDateBroadcast(date) !== parseDateBroadcast(issued)) {
    return invalid(DATE, `${DATE} ${date} no es la fecha de emisión de la factura ${cufe} (${issued})`);
  }
  const amount = toCents(note.totalInvoice);
  if (credited + amount > toCents(invoice.totalInvoice)) {
    return invalid(
      'totalInvoice',
      `las notas de crédito de la factura ${cufe} sumarían ${formatCents(credited + amount)} ` +
        `(${formatCents(credited)} ya autorizadas + ${note.totalInvoice} de esta nota), más que su totalInvoice ${invoice.totalInvoice}`,
    );
  }
  return undefined;
}

/** A field that must be sent as text, possibly empty. */
function requireText(container: Json, field: string): RuleProblem | undefined {
  const value = container[field];
  if (value === undefined || value === null) return missing(field);
  if (typeof value !== 'string') return invalid(field, `tipo inválido: ${field} debe ser texto (string JSON), no ${typeof value}`);
  return undefined;
}
