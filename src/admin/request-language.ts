// The language a person reads an API answer in: the admin page says its own (Accept-Language: es or en); any other
// caller, or none named, gets English, as the API always answered. Only the texts people read change with it.
import type { Request } from 'express';
import type { Language } from '../db/languages.ts';

export function requestLanguage(req: Request): Language {
  const header = req.get('accept-language');
  if (!header || header.trim() === '*') return 'en';
  return req.acceptsLanguages('en', 'es') === 'es' ? 'es' : 'en';
}
