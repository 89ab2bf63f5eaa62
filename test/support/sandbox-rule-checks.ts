// Requests for the sandbox's document rules, changed one field at a time, and the checks of what the rules answer.
import { expect } from 'vitest';
import { validateSendDocument, type RuleProblem } from '../../sim/sandbox/document-rules.ts';
import { EXAMPLE } from './sandbox-requests.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures are edited freely

// The example's dateBroadcast is 2026-04-10T09:30:00-05:00; "now" is a few hours later.
export const NOW = new Date('2026-04-10T20:00:00Z');

export function example(): Json {
  return structuredClone(EXAMPLE);
}

export function withChange(change: (request: Json) => void): Json {
  const request = example();
  change(request);
  return request;
}

export function check(request: Json, now = NOW): RuleProblem | undefined {
  return validateSendDocument(request, now);
}

export function expect201(problem: RuleProblem | undefined, fieldName: string, ...fragments: string[]): void {
  expect(problem, 'expected a 201').toBeDefined();
  expect(problem!.code).toBe('201');
  expect(problem!.fieldName).toBe(fieldName);
  expect(problem!.message.startsWith('Error al procesar solicitud: ')).toBe(true);
  for (const fragment of fragments) expect(problem!.message).toContain(fragment);
}

export function client(request: Json): Json {
  return request.document.dataTransaction.client;
}

export function item(request: Json, n: number): Json {
  return request.document.listItems[n - 1];
}

export function totals(request: Json): Json {
  return request.document.totalsSubTotals;
}

export function taxpayerClient(type: string): Json {
  return {
    typeClientEB: type,
    typeTaxpayer: '2',
    numberRUC: '155596713-2-2015',
    digitCheckRUC: '59',
    businessName: 'Distribuidora Ejemplo, S.A.',
    address: 'Calle 50, Obarrio',
  };
}
