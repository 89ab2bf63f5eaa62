// The DGI's code tables (docs/reference/panama-fe.md §3.1–§3.10) and the check that a field's code is in its table.
import { invalid, where, type Json, type RuleProblem } from './rule-problem.ts';

const CODES = {
  environment: ['1', '2'],
  typeEmission: ['01', '02', '03', '04'],
  typeDocument: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'],
  natureOperation: ['01', '02', '03', '04', '10', '11', '12', '13', '14', '20', '21'],
  typeOperation: ['1', '2'],
  destinationOperation: ['1', '2'],
  formatCAFE: ['1', '2', '3'],
  deliveryCAFE: ['1', '2', '3'],
  shippingContainer: ['1', '2'],
  processGeneration: ['1', '2', '3', '4', '5'],
  typeSale: ['1', '2', '3', '4'],
  typeClientEB: ['01', '02', '03', '04'],
  typeTaxpayer: ['1', '2'],
  rateITBMS: ['00', '01', '02', '03'],
  formPaymentInvoice: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '99'],
  timePayment: ['1', '2', '3'],
} as const satisfies Record<string, readonly string[]>;

/** ITBMS rate in percent per `rateITBMS` code (§3.9). */
export const ITBMS_PERCENT: Readonly<Record<string, bigint>> = { '00': 0n, '01': 7n, '02': 10n, '03': 15n };

/** typeDocument of a credit note that references an invoice by its CUFE (§7.3). */
export const CREDIT_NOTE = '04';
/** Credit and debit notes (§3.3): a credit note may not reference one of these (DGI 1712/1715). */
export const NOTE_TYPES: readonly string[] = ['04', '05', '06', '07'];

export function checkCode(container: Json, field: keyof typeof CODES, line?: number, what = 'item'): RuleProblem | undefined {
  const value = container[field] as string;
  const table: readonly string[] = CODES[field];
  if (table.includes(value)) return undefined;
  return invalid(field, `código inválido: ${field} "${value}"${where(line, what)} no está en la tabla (${table.join(', ')})`);
}
