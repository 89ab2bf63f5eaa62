// 201: the request carries only fields the gateway knows (gateway-fields.ts), each a string where one is expected.
// Run last, once every other rule passed: it turns the request into the typed body the gateway files.
import { sendDocumentSchema, type SendDocumentBody } from './gateway-fields.ts';
import { invalid, type RuleProblem } from './rule-problem.ts';

export type FieldCheck = { ok: true; body: SendDocumentBody } | { ok: false; problem: RuleProblem };

export function checkKnownFields(request: unknown): FieldCheck {
  const parsed = sendDocumentSchema.safeParse(request);
  if (parsed.success) return { ok: true, body: parsed.data };
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const path = [...issue.path, key].join('.');
    return { ok: false, problem: invalid(key, `campo desconocido: ${path} no es un campo de la pasarela`) };
  }
  const path = issue.path.join('.');
  const field = String(issue.path.at(-1) ?? '(raíz)');
  return { ok: false, problem: invalid(field, `tipo inválido: ${path || '(raíz)'}: ${issue.message}`) };
}
