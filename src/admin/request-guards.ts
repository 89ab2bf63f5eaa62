// What the admin API refuses before a handler runs: bodies that are not JSON (415), bodies that are not an
// object or name fields the route does not know (400), and dates the database cannot hold (400). A body
// sent as text/plain used to be read as {} and reset the shop's settings.
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import { shopOf } from './session-token.ts';

/** Whether the request carries a body at all (the rule of the `type-is` package Express uses). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * For a state-changing route, after `express.json()`: a body must be JSON (415 otherwise), a JSON object,
 * and name only `keys` (400 naming the others). `required`: the route cannot do without one.
 */
export function jsonObjectBody(keys: readonly string[], o: { required: boolean }): RequestHandler {
  const known = new Set(keys);
  return (req, res, next) => {
    if (!hasBody(req)) {
      if (o.required) res.status(400).json({ error: '(body): send a JSON object', problems: [{ path: '(body)', message: 'is missing' }] });
      else next();
      return;
    }
    if (!req.is('application/json')) {
      res.status(415).json({ error: 'send the body as JSON, with Content-Type: application/json' });
      return;
    }
    const body: unknown = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      res.status(400).json({ error: '(body): must be a JSON object', problems: [{ path: '(body)', message: 'must be a JSON object' }] });
      return;
    }
    const unknown = Object.keys(body).filter((k) => !known.has(k));
    if (unknown.length > 0) {
      res.status(400).json({
        error: `unknown field${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')} (known: ${keys.join(', ') || 'none'})`,
        problems: unknown.map((k) => ({ path: k, message: 'is not a field of this request' })),
      });
      return;
    }
    if (refusedNul(req, res)) return;
    next();
  };
}

/** Where in a JSON value a key or a string holds a NUL (which PostgreSQL's text and jsonb cannot store), if anywhere. */
export function nulPath(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at || '(body)' : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const here = at ? `${at}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const found = nulPath(child, here);
    if (found) return found;
  }
  return undefined;
}

/** 400 naming the field when the JSON body holds a NUL anywhere (it answered 500 from the database). */
function refusedNul(req: Request, res: Response): boolean {
  const at = nulPath(req.body);
  if (at === undefined) return false;
  res
    .status(400)
    .json({ error: `${at}: must not contain a NUL character`, problems: [{ path: at, message: 'must not contain a NUL character' }] });
  return true;
}

/** For a route that reads its JSON body itself, after `express.json()`: a NUL anywhere in it is a 400. */
export const noNulInBody: RequestHandler = (req, res, next) => {
  if (!refusedNul(req, res)) next();
};

/** Years the database's timestamps and the invoices' own dates can be in (year 0 and 10000 are not). */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2999;

function inYears(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

/** A calendar day, 2026-03-01, in the years the app can store. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-03-01')
  .refine((d) => {
    const date = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(d);
  }, 'is not a calendar date')
  .refine((d) => inYears(new Date(`${d}T00:00:00Z`)), `must be a date from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31`);

/** A cursor's UTC time with microseconds (2026-03-01T14:05:09.123456Z) that names a real instant. */
export function isCursorTime(text: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z$/.exec(text);
  if (!match) return false;
  const date = new Date(`${match[1]}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString() === `${match[1]}Z` && inYears(date);
}

/**
 * At most `perMinute` requests a minute for each shop (the session token's), then 429 with Retry-After.
 * For routes that call the gateway with the shop's credentials on demand (*Probar conexión*).
 */
export function perShopRateLimit(perMinute: number, what: string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    keyGenerator: (_req, res) => shopOf(res),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    message: { error: `too many ${what}: at most ${perMinute} a minute; try again shortly` },
  });
}
