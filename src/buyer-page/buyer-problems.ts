// The buyer's client checked with the very rules of the merchant's correction (mappers/invoice/client-correction.ts),
// its problems told field by field in the buyer's language: the schema's own messages are the merchant's English.
import type { z } from 'zod';
import { type ClientCorrection, clientCorrectionSchema } from '../../mappers/invoice/client-correction.ts';
import { normalizeRuc } from '../../mappers/fiscal/ruc-check-digit.ts';
import type { Language } from '../db/languages.ts';
import { format } from '../messages/catalogue.ts';

export interface FieldProblem {
  /** The field (`dv`, `ruc`, …), or `(body)`. */
  path: string;
  message: string;
}

export const CLIENT_FIELDS = ['type', 'ruc', 'dv', 'name', 'address', 'locationCode', 'email'] as const;

export type ClientCheck = { ok: true; client: ClientCorrection } | { ok: false; problems: FieldProblem[] };

export function checkClient(body: unknown, language: Language): ClientCheck {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, problems: [{ path: '(body)', message: text(language, 'problem_body') }] };
  }
  const parsed = clientCorrectionSchema.safeParse(body);
  if (parsed.success) return { ok: true, client: parsed.data };
  return { ok: false, problems: localize(parsed.error, body as Record<string, unknown>, language) };
}

/** One problem per field, in the order of the form. */
function localize(error: z.ZodError, body: Record<string, unknown>, language: Language): FieldProblem[] {
  const byField = new Map<string, string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) byField.set(key, text(language, 'problem_unknown'));
      continue;
    }
    const field = String(issue.path[0] ?? 'type');
    if (byField.has(field)) continue;
    byField.set(field, fieldText(field, issue, body, language));
  }
  const order = (f: string) => {
    const i = (CLIENT_FIELDS as readonly string[]).indexOf(f);
    return i < 0 ? CLIENT_FIELDS.length : i;
  };
  return [...byField].sort((a, b) => order(a[0]) - order(b[0])).map(([path, message]) => ({ path, message }));
}

function fieldText(field: string, issue: z.core.$ZodIssue, body: Record<string, unknown>, language: Language): string {
  if (field === 'dv' && issue.code === 'custom') {
    // The check digit does not belong to the RUC (the schema's last rule, run once every field reads).
    const ruc = normalizeRuc(String(body['ruc'] ?? '').trim()) ?? String(body['ruc']);
    const dv = String(body['dv'] ?? '')
      .trim()
      .padStart(2, '0');
    return text(language, 'problem_dv_wrong', { dv, ruc });
  }
  if (field === 'dv') return text(language, 'problem_dv_format');
  if ((CLIENT_FIELDS as readonly string[]).includes(field)) return text(language, `problem_${field}`);
  return text(language, 'problem_unknown');
}

export function text(language: Language, key: string, params: Record<string, string> = {}): string {
  return format(language, 'buyerPage', key, params) ?? key;
}
