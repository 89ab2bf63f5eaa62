// 201: the codes and formats of `dataTransaction` and the issue date (docs/reference/panama-fe.md §3.1–§3.5, §3.11).
import { checkCode } from './code-tables.ts';
import { checkFormat, firstOf, invalid, rule, type Json, type RuleProblem } from './rule-problem.ts';

const DATE_BROADCAST = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;
const MAX_FUTURE_MS = 2 * 24 * 60 * 60 * 1000;

export function checkDataTransaction(data: Json, now: Date): RuleProblem | undefined {
  return firstOf(
    () => checkCode(data, 'typeEmission'),
    () => checkCode(data, 'typeDocument'),
    () => checkFormat(data, 'numberDocumentFiscal', /^(?!0{10})\d{10}$/, 'debe tener exactamente 10 dígitos y no ser todo ceros (§3.11)'),
    () => checkFormat(data, 'pointBillingFiscal', /^(?!000)\d{3}$/, 'debe tener exactamente 3 dígitos y no ser 000 (§3.11)'),
    () => checkDateBroadcast(data.dateBroadcast as string, now),
    () => checkCode(data, 'natureOperation'),
    () => checkCode(data, 'typeOperation'),
    () => checkCode(data, 'destinationOperation'),
    () => checkCode(data, 'formatCAFE'),
    () => checkCode(data, 'deliveryCAFE'),
    () => checkCode(data, 'shippingContainer'),
    () => checkCode(data, 'processGeneration'),
    () => checkCode(data, 'typeSale'),
  );
}

/** `YYYY-MM-DDThh:mm:ss±hh:mm`, a real calendar instant, not more than 2 days ahead of `now` (1520). */
function checkDateBroadcast(text: string, now: Date): RuleProblem | undefined {
  const instant = parseDateBroadcast(text);
  if (instant === undefined) return badDateFormat('dateBroadcast', text);
  if (instant - now.getTime() > MAX_FUTURE_MS) {
    return rule('1520', undefined, 'dateBroadcast', `dateBroadcast ${text} está más de 2 días en el futuro`);
  }
  return undefined;
}

export function badDateFormat(field: string, text: string): RuleProblem {
  return invalid(
    field,
    `formato inválido: ${field} "${text}" debe ser YYYY-MM-DDThh:mm:ss±hh:mm (con zona horaria, sin fracciones, ej. 2026-04-10T09:30:00-05:00)`,
  );
}

/** Epoch milliseconds of a dateBroadcast, or undefined when the text is not a valid instant. */
export function parseDateBroadcast(text: string): number | undefined {
  const m = DATE_BROADCAST.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second, , offH, offM] = m.slice(1).map((s) => Number(s));
  const sign = m[7] === '-' ? -1 : 1;
  if (month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59 || second! > 59) return undefined;
  if (offH! > 14 || offM! > 59) return undefined;
  const local = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  if (new Date(local).getUTCDate() !== day) return undefined; // e.g. 2026-02-30
  return local - sign * (offH! * 60 + offM!) * 60_000;
}
