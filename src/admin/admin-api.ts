// The merchant's admin API under /api. Every route sits behind the session-token check and reads the shop
// only from the token (res.locals via shopOf): ids, queries and bodies never choose the shop.
// Answers are JSON; errors are { error } (plus `problems` for field-by-field validation).
import type { Shopify } from '@shopify/shopify-api';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { z } from 'zod';
import {
  CODE_TABLES,
  DEFAULT_PAYMENT_FORMS,
  SALE_DOCUMENT_TYPES,
  TRANSACTION_DEFAULT_FIELDS,
  ownEntry,
} from '../../mappers/invoice/mapping-settings.ts';
import type { Db } from '../db/database.ts';
import { CREDENTIAL_FIELDS, type GatewayCredentials } from '../gateway/gateway-types.ts';
import type { GatewaySettings } from '../gateway/gateway-client.ts';
import type { Logger } from '../logger.ts';
import type { Shop, ShopRepository } from '../shops/shop-repository.ts';
import { credentialsInputSchema, maskCredentials, settingsInputSchema } from '../shops/shop-settings.ts';
import { settingsProblemsIn } from './settings-problems.ts';
import { testGatewayConnection } from './connection-test.ts';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES, RETRYABLE_STATUSES } from '../db/document-state.ts';
import {
  countByStatus,
  findDocument,
  fiscalNumbersOf,
  listDocuments,
  retryDocuments,
  retryShopDocument,
} from '../documents/store/index.ts';
import { decodeCursor, encodeCursor, isUuid, parseSearch } from './list-params.ts';
import { requestedIds } from './buyer-request-view.ts';
import { findDetail, shopState } from './document-detail.ts';
import { documentSummary, fiscalNumbers } from './document-view.ts';
import { localize, render } from '../messages/catalogue.ts';
import { message } from '../messages/message.ts';
import { requestLanguage } from './request-language.ts';
import { calendarDate, isCursorTime, jsonObjectBody, perShopRateLimit } from './request-guards.ts';
import { requireSessionToken, shopOf } from './session-token.ts';

export interface AdminApiDeps {
  db: Db;
  shopify: Shopify;
  shops: ShopRepository;
  /** The gateway the worker uses, for "test connection". */
  gateway: GatewaySettings;
  /** Public origin of the app, for PDF links. */
  appUrl: string;
  /** Look for due invoices now (after a retry or a settings change). */
  wakeWorker: () => void;
  /** The worker's gateway slots (GATEWAY_CONCURRENCY): a connection test waits for one like any call. */
  gatewaySlots: { run<T>(task: () => Promise<T>): Promise<T> };
  logger: Logger;
  /** Whether this server e-mails buyers (a document's resend action says so). */
  emails?: { configured: boolean } | undefined;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;
/** Panama keeps UTC−05:00 all year (no daylight saving): list dates are the merchant's calendar days. */
export const SHOP_UTC_OFFSET = '-05:00';

interface Problem {
  path: string;
  message: string;
}

/** 400 naming the field: `{ error: "<path>: <message>", problems: [...] }`. */
export function badRequest(res: Response, problems: Problem[], error?: string): void {
  const first = problems[0];
  res.status(400).json({ error: error ?? (first ? `${first.path}: ${first.message}` : 'bad request'), problems });
}

export function zodProblems(error: z.ZodError, prefix: string[] = []): Problem[] {
  return error.issues.map((i) => ({ path: [...prefix, ...i.path.map(String)].join('.') || '(body)', message: i.message }));
}

/** Connection tests a shop may run a minute: each is a gateway call with its credentials. */
export const CONNECTION_TESTS_PER_MINUTE = 6;

/** Text without C0/C1 control characters (NUL, tab, DEL, U+0080–U+009F). */
const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;

export const listQuerySchema = z.object({
  status: z.enum(DOCUMENT_STATUSES, { error: `must be one of ${DOCUMENT_STATUSES.join(', ')}` }).optional(),
  kind: z.enum(DOCUMENT_KINDS, { error: `must be one of ${DOCUMENT_KINDS.join(', ')}` }).optional(),
  from: calendarDate.optional(),
  to: calendarDate.optional(),
  // A NUL cannot reach PostgreSQL's text (it answered 500); no other control character names an order either.
  q: z
    .string({ error: 'must be one search text' })
    .max(100, 'must be at most 100 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters')
    .optional(),
  cursor: z.string({ error: 'must be one cursor' }).regex(NO_CONTROL_CHARACTERS, 'is not a cursor this API gave out').optional(),
  limit: z
    .string({ error: 'must be a number' })
    .regex(/^\d+$/, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .optional(),
});

const retryAllSchema = z.object({
  statuses: z
    .array(z.enum(RETRYABLE_STATUSES, { error: 'each status must be "failed" or "needs_attention"' }), {
      error: 'must be a list of statuses',
    })
    .min(1, 'name at least one status')
    .default([...RETRYABLE_STATUSES]),
});

const enabledSchema = z.object({ enabled: z.boolean({ error: 'must be true or false' }) });

/** Start of a Panama calendar day. */
export function dayStart(date: string): Date {
  return new Date(`${date}T00:00:00${SHOP_UTC_OFFSET}`);
}

export function nextDayStart(date: string): Date {
  return new Date(dayStart(date).getTime() + 24 * 3600 * 1000);
}

/** The shop's own payment-form entries: those that differ from the built-in table. */
export function ownPaymentForms(table: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(table).filter(([name, code]) => ownEntry(DEFAULT_PAYMENT_FORMS, name) !== code));
}

function missingCredentials(c: GatewayCredentials | undefined): string[] {
  return CREDENTIAL_FIELDS.filter((f) => !c?.[f]).map((f) => `credentials.${f}`);
}

/**
 * Credentials from a form: fields left empty keep the stored value, so a merchant can change one
 * (say, the Token) without typing the other five again. Nothing given at all keeps them all.
 */
export function mergeCredentials(stored: GatewayCredentials | undefined, given: unknown): unknown {
  if (given === undefined || given === null) return undefined;
  if (typeof given !== 'object' || Array.isArray(given)) return given; // the schema names the error
  const entered = Object.fromEntries(Object.entries(given).filter(([, v]) => !(typeof v === 'string' && v.trim() === '')));
  if (Object.keys(entered).length === 0) return undefined;
  return { ...stored, ...entered };
}

async function shopView(deps: AdminApiDeps, shop: Shop) {
  const missing = missingCredentials(shop.credentials);
  const { mapping, ...settings } = shop.settings;
  return {
    shop: shop.shop,
    installed: shop.installed,
    enabled: shop.enabled,
    // English as before the catalogue; `paused` has both languages.
    pausedReason: shop.pausedReason ? render(shop.pausedReason, 'en') : null,
    paused: shop.pausedReason ? localize(shop.pausedReason) : null,
    environment: shop.settings.environment,
    settings: { ...settings, mapping: { ...mapping, paymentForms: ownPaymentForms(mapping.paymentForms) } },
    credentials: maskCredentials(shop.credentials) ?? null,
    complete: missing.length === 0,
    missing,
    counts: await countByStatus(deps.db, shop.shop),
    // Code tables for the form's selects: the server's lists, so the page never drifts from the schema.
    choices: { ...CODE_TABLES, typeDocument: SALE_DOCUMENT_TYPES },
    defaultPaymentForms: DEFAULT_PAYMENT_FORMS,
    // The form's fields, from the schemas: the page never keeps its own list.
    fields: { credentials: CREDENTIAL_FIELDS, transactionDefaults: TRANSACTION_DEFAULT_FIELDS },
  };
}

function notInstalled(res: Response): void {
  res.status(404).json({ error: 'this shop has not installed the app' });
}

/** `:id` must be a UUID (400 otherwise); an id of another shop is simply not found (404). */
function documentIdOf(req: Request, res: Response): string | undefined {
  const id = String(req.params.id ?? '');
  if (isUuid(id)) return id;
  badRequest(res, [{ path: 'id', message: 'must be an invoice id (a UUID)' }]);
  return undefined;
}

function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

export function adminApiRouter(deps: AdminApiDeps): Router {
  const router = Router();
  const auth = requireSessionToken({ shopify: deps.shopify });
  const json = express.json({ limit: '256kb' });
  const guarded: RequestHandler[] = [auth, json];
  /** A state-changing route: its body, if any, is a JSON object of these fields. */
  const changing = (keys: readonly string[], required = false): RequestHandler[] => [...guarded, jsonObjectBody(keys, { required })];
  const connectionTest = [...changing(['credentials', 'environment']), perShopRateLimit(CONNECTION_TESTS_PER_MINUTE, 'connection tests')];

  router.get('/shop', ...guarded, async (_req, res) => {
    const shop = await deps.shops.get(shopOf(res));
    if (!shop) return notInstalled(res);
    res.json(await shopView(deps, shop));
  });

  router.put('/settings', ...changing(Object.keys(settingsInputSchema.shape), true), async (req, res) => {
    const current = await deps.shops.get(shopOf(res));
    if (!current) return notInstalled(res);
    const body = bodyObject(req);
    const credentials = mergeCredentials(current.credentials, body.credentials);
    const parsed = settingsInputSchema.safeParse({ ...body, credentials });
    if (!parsed.success) return badRequest(res, settingsProblemsIn(parsed.error, requestLanguage(req)), 'invalid settings');
    const saved = await deps.shops.saveSettings(current.shop, parsed.data);
    if (!saved.ok) {
      res.status(409).json({
        error: saved.problems.join(' '),
        problems: saved.problems.map((p) => ({ path: p.split(':')[0] ?? '(body)', message: p })),
      });
      return;
    }
    deps.logger.info({ shop: current.shop, environment: parsed.data.environment }, 'admin: settings saved');
    // Saving lifts a credentials pause: waiting invoices may go now.
    deps.wakeWorker();
    res.json(await shopView(deps, (await deps.shops.get(current.shop))!));
  });

  router.post('/settings/test-connection', ...connectionTest, async (req, res) => {
    const current = await deps.shops.get(shopOf(res));
    if (!current) return notInstalled(res);
    const body = bodyObject(req);
    const given = mergeCredentials(current.credentials, body.credentials) ?? current.credentials;
    const credentials = credentialsInputSchema.safeParse(given ?? {});
    if (!credentials.success)
      return badRequest(
        res,
        settingsProblemsIn(credentials.error, requestLanguage(req), ['credentials']),
        'enter all six gateway credentials to test them',
      );
    const environment = settingsInputSchema.shape.environment.safeParse(body.environment ?? current.settings.environment);
    if (!environment.success) return badRequest(res, settingsProblemsIn(environment.error, requestLanguage(req), ['environment']));
    const result = await deps.gatewaySlots.run(() =>
      testGatewayConnection({
        gateway: deps.gateway,
        credentials: credentials.data,
        environment: environment.data,
        branchCode: current.settings.branchCode,
        billingPoint: current.settings.billingPoint,
      }),
    );
    deps.logger.info({ shop: current.shop, result: result.result, durationMs: result.durationMs }, 'admin: gateway connection tested');
    res.json(result);
  });

  router.post('/shop/enabled', ...changing(['enabled'], true), async (req, res) => {
    const parsed = enabledSchema.safeParse(req.body);
    if (!parsed.success) return badRequest(res, zodProblems(parsed.error));
    const current = await deps.shops.get(shopOf(res));
    if (!current) return notInstalled(res);
    const missing = missingCredentials(current.credentials);
    if (parsed.data.enabled && missing.length > 0) {
      res.status(409).json({
        error: 'Invoicing cannot be turned on yet: enter and save the six gateway credentials in Settings first.',
        code: 'settings_incomplete',
        missing,
      });
      return;
    }
    const result = await deps.shops.setEnabled(current.shop, parsed.data.enabled);
    if (!result.ok) {
      res.status(409).json({ error: result.problems.join(' '), code: 'settings_incomplete', missing });
      return;
    }
    deps.logger.info({ shop: current.shop, enabled: parsed.data.enabled }, 'admin: invoicing switched');
    if (parsed.data.enabled) deps.wakeWorker();
    res.json(await shopView(deps, (await deps.shops.get(current.shop))!));
  });

  router.get('/invoices', ...guarded, async (req, res) => {
    const parsed = listQuerySchema.safeParse(req.query);
    if (!parsed.success) return badRequest(res, zodProblems(parsed.error));
    const { status, kind, from, to, q, cursor, limit } = parsed.data;
    if (from && to && from > to) {
      const language = requestLanguage(req);
      const said = language === 'en' ? 'must not be before from' : render(message('date_range_inverted', { from, to }), language);
      return badRequest(res, [{ path: 'to', message: said }], language === 'en' ? undefined : said);
    }
    const after = cursor === undefined || cursor === '' ? undefined : decodeCursor(cursor);
    if (cursor && (!after || !isCursorTime(after.createdAt)))
      return badRequest(res, [{ path: 'cursor', message: 'is not a cursor this API gave out' }]);
    const shop = shopOf(res);
    const [page, shopRow] = await Promise.all([
      listDocuments(deps.db, {
        shop,
        status,
        kind,
        from: from ? dayStart(from) : undefined,
        before: to ? nextDayStart(to) : undefined,
        search: q === undefined ? undefined : parseSearch(q),
        after,
        limit: limit ?? DEFAULT_PAGE_SIZE,
      }),
      deps.shops.get(shop),
    ]);
    const state = shopState(shopRow);
    // A note's row names its invoice's number.
    // A note's invoice, and the invoice a re-issue replaces: their numbers name them in the list.
    const invoiceIds = new Set(page.rows.flatMap((r) => [r.invoiceId, r.replacesId]).filter((i) => i !== null));
    const numbers = fiscalNumbers(await fiscalNumbersOf(deps.db, shop, [...invoiceIds]));
    const requested = await requestedIds(
      deps.db,
      page.rows.map((r) => r.id),
    );
    res.json({
      invoices: page.rows.map((r) => ({ ...documentSummary(r, state, numbers), buyerRequested: requested.has(r.id) })),
      nextCursor: page.next ? encodeCursor(page.next) : null,
    });
  });

  router.get('/invoices/counts', ...guarded, async (_req, res) => {
    res.json({ counts: await countByStatus(deps.db, shopOf(res)) });
  });

  router.post('/invoices/retry', ...changing(['statuses']), async (req, res) => {
    const parsed = retryAllSchema.safeParse(req.body ?? {});
    if (!parsed.success) return badRequest(res, zodProblems(parsed.error));
    const shop = shopOf(res);
    const retried = await retryDocuments(deps.db, { shop, statuses: parsed.data.statuses });
    deps.logger.info({ shop, statuses: parsed.data.statuses, retried }, 'admin: retry all');
    if (retried > 0) deps.wakeWorker();
    res.json({ retried, counts: await countByStatus(deps.db, shop) });
  });

  const detail = (shop: string, id: string) => findDetail(deps, shop, id);

  router.get('/invoices/:id', ...guarded, async (req, res) => {
    const id = documentIdOf(req, res);
    if (!id) return;
    const invoice = await detail(shopOf(res), id);
    if (!invoice) {
      res.status(404).json({ error: 'invoice not found' });
      return;
    }
    res.json({ invoice });
  });

  router.post('/invoices/:id/retry', ...changing([]), async (req, res) => {
    const id = documentIdOf(req, res);
    if (!id) return;
    const shop = shopOf(res);
    if (!(await findDocument(deps.db, id, shop))) {
      res.status(404).json({ error: 'invoice not found' });
      return;
    }
    const retried = await retryShopDocument(deps.db, shop, id);
    deps.logger.info({ shop, invoiceId: id, retried }, 'admin: retry one');
    if (retried > 0) deps.wakeWorker();
    res.json({ retried, invoice: await detail(shop, id) });
  });

  return router;
}
