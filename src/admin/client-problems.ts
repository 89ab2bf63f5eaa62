// The problems of a client correction (mappers/invoice/client-correction.ts) for the page, each with its path and its
// words in the reader's language: in English the schema's own (as the API always said), in Spanish the catalogue's,
// so the Spanish page shows Spanish under the field (docs/design.md §11).
import type { z } from 'zod';
import type { Language } from '../db/languages.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, type MessageParams, message } from '../messages/message.ts';

export interface ClientProblem {
  path: string;
  message: string;
}

/** The catalogue message of one issue of the client schema. */
function catalogued(issue: z.core.$ZodIssue, field: string): Message {
  const params = (issue as { params?: Record<string, unknown> }).params;
  if (issue.code === 'custom' && typeof params?.key === 'string') {
    const { key, ...rest } = params;
    return message(key, Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])) as MessageParams);
  }
  switch (issue.code) {
    case 'too_small':
      return message('client_too_short', { field, min: Number(issue.minimum) });
    case 'too_big':
      return message('client_too_long', { field, max: Number(issue.maximum) });
    case 'invalid_format':
      return message(field === 'email' ? 'client_email_invalid' : 'client_dv_format');
    case 'unrecognized_keys':
      return message('client_unknown_field', { field: issue.keys.join(', ') });
    case 'invalid_union':
      return message('client_type_invalid');
    default:
      return message('client_field_invalid', { field });
  }
}

export function clientProblems(error: z.ZodError, language: Language): ClientProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const text = language === 'en' ? issue.message : render(catalogued(issue, field || 'type'), language);
    return { path: field || '(body)', message: text };
  });
}
