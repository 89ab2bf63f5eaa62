// What a rule answers and the small checks every rule family is built from. The messages are the gateway's:
// 109 "field X is required" for a missing field, 201 with a Spanish reason for anything else.

export interface RuleProblem {
  code: '109' | '201';
  message: string;
  /** The gateway field name as the gateway would name it (bare, e.g. `priceItem`). */
  fieldName: string;
}

export type Json = Record<string, unknown>;
export type Check = () => RuleProblem | undefined;

const PREFIX = 'Error al procesar solicitud: ';

/** The first problem of the checks, run in order. */
export function firstOf(...checks: Check[]): RuleProblem | undefined {
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A value that counts as sent: anything but undefined, null or a blank string. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

export function missing(fieldName: string): RuleProblem {
  return { code: '109', message: `field ${fieldName} is required`, fieldName };
}

export function invalid(fieldName: string, detail: string): RuleProblem {
  return { code: '201', message: `${PREFIX}${detail}`, fieldName };
}

/** 201 naming the DGI validation code and, when it has one, the rule number of docs/reference/panama-fe.md §5. */
export function rule(dgiCode: string, ruleNo: number | undefined, fieldName: string, detail: string): RuleProblem {
  const name = ruleNo === undefined ? `regla ${dgiCode}` : `regla ${dgiCode} (§5 regla ${ruleNo})`;
  return invalid(fieldName, `${name}: ${detail}`);
}

export function requireString(container: Json | undefined, field: string): RuleProblem | undefined {
  const value = container?.[field];
  if (!present(value)) return missing(field);
  if (typeof value !== 'string') return invalid(field, `tipo inválido: ${field} debe ser texto (string JSON), no ${typeof value}`);
  return undefined;
}

export function optionalString(container: Json | undefined, field: string): RuleProblem | undefined {
  const value = container?.[field];
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  return invalid(field, `tipo inválido: ${field} debe ser texto (string JSON), no ${typeof value}`);
}

export function checkOptionalStrings(container: Json, fields: readonly string[]): RuleProblem | undefined {
  return firstOf(...fields.map((f) => () => optionalString(container, f)));
}

export function requireNonEmptyArray(container: Json, field: string): RuleProblem | undefined {
  const value = container[field];
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return missing(field);
  if (!Array.isArray(value)) return invalid(field, `tipo inválido: ${field} debe ser una lista`);
  return undefined;
}

/** " (item 3)" when the field belongs to a numbered line or payment. */
export function where(line: number | undefined, what: string): string {
  return line === undefined ? '' : ` (${what} ${line})`;
}

export function checkFormat(
  container: Json,
  field: string,
  pattern: RegExp,
  requirement: string,
  line?: number,
  what = 'item',
): RuleProblem | undefined {
  const value = container[field] as string;
  if (pattern.test(value)) return undefined;
  return invalid(field, `formato inválido${where(line, what)}: ${field} "${value}" ${requirement}`);
}

export function checkLength(container: Json, field: string, min: number, max: number): RuleProblem | undefined {
  const value = container[field];
  if (!present(value)) return undefined;
  const length = [...(value as string)].length;
  if (length >= min && length <= max) return undefined;
  return invalid(field, `longitud inválida: ${field} debe tener de ${min} a ${max} caracteres (tiene ${length})`);
}
