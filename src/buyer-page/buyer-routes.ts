// The buyer's page over HTTP (docs/buyer-page.md). The link is the only credential (no cookies, no session):
//   GET  /d/<token>          the page (HTML)            GET  /d/<token>.json  the same as JSON
//   POST /d/<token>/request  the client as JSON: 202 with the outcome, 400 with the problems by field, 409 when the
//                            invoice takes no request, 415 when the body is not JSON
//   POST /d/<token>/check    the client checked by the same rules, nothing saved (the form's live check)
// 404 for any link that is not a document's; 429 past the per-link and per-address limits. Errors say nothing of the
// code or the database.
import path from 'node:path';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Db } from '../db/database.ts';
import type { Language } from '../db/languages.ts';
import { LANGUAGES } from '../db/languages.ts';
import { buyerLanguage } from '../buyer-email/email-recipient.ts';
import { BUYER_PATH, BUYER_TOKEN } from '../documents/buyer-link.ts';
import { type DocumentWithPdf, buyerRelatives, buyerRequestOf, documentByBuyerToken, orderSnapshotOf } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import { PROJECT_ROOT } from '../project-root.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { defaultShopSettings, type BuyerRequestSettings } from '../shops/shop-settings.ts';
import { BUYER_ASSETS_PATH, buyerMessageHtml, buyerPageHtml } from './buyer-html.ts';
import { checkClient, text } from './buyer-problems.ts';
import { type BuyerRequestDeps, currentPlan, submitBuyerRequest } from './buyer-request.ts';
import { type BuyerDocumentView, buyerView, refusalText, requestedText } from './buyer-view.ts';

export interface BuyerPageDeps {
  db: Db;
  shops: Pick<ShopRepository, 'get'>;
  appUrl: string;
  limits: { perLinkPerMinute: number; perAddressPerMinute: number };
  /** Look for due documents now (after a request). */
  wakeWorker: () => void;
  logger: Logger;
}

const PUBLIC_DIR = path.join(PROJECT_ROOT, 'src', 'buyer-page', 'public');
const FILE = /^([A-Za-z0-9_-]+?)(\.json)?$/;

const HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The link is the credential: it must not leave in a Referer (the DGI look-up, the PDF).
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
};

export function mountBuyerPage(app: express.Express, deps: BuyerPageDeps): void {
  app.use(BUYER_ASSETS_PATH, express.static(PUBLIC_DIR, { index: false, maxAge: '1h', fallthrough: false }));
  app.use(BUYER_PATH, buyerRouter(deps));
}

function buyerRouter(deps: BuyerPageDeps): Router {
  const router = Router();
  const requestDeps: BuyerRequestDeps = { db: deps.db, settingsOf: (shop) => requestSettings(deps, shop) };
  const limited = [
    limiter(deps.limits.perAddressPerMinute, (req) => ipKeyGenerator(req.ip ?? '')),
    limiter(deps.limits.perLinkPerMinute, (req) => `link:${tokenOf(req) ?? ''}`),
  ];
  const json = express.json({ limit: '16kb', type: () => true });

  router.get('/:file', ...limited, async (req, res) => {
    const wantsJson = FILE.exec(String(req.params['file']))?.[2] !== undefined;
    const doc = await found(req, res, wantsJson);
    if (!doc) return;
    const view = await viewOf(doc, await languageOf(req, doc));
    res.set(HEADERS);
    if (wantsJson) res.set('Access-Control-Allow-Origin', '*').json(view);
    else res.type('html').send(buyerPageHtml(view));
  });

  router.post('/:token/check', ...limited, jsonOnly, json, async (req, res) => {
    const doc = await found(req, res, true);
    if (!doc) return;
    const checked = checkClient(req.body, await languageOf(req, doc));
    res.set(HEADERS).status(checked.ok ? 200 : 400);
    res.json(
      checked.ok ? { problems: [] } : { error: invalidText(checked.problems, await languageOf(req, doc)), problems: checked.problems },
    );
  });

  router.post('/:token/request', ...limited, jsonOnly, json, async (req, res) => {
    const doc = await found(req, res, true);
    if (!doc) return;
    const lang = await languageOf(req, doc);
    res.set(HEADERS);
    const checked = checkClient(req.body, lang);
    if (!checked.ok) return void res.status(400).json({ error: invalidText(checked.problems, lang), problems: checked.problems });
    const result = await submitBuyerRequest(requestDeps, doc, checked.client, lang);
    if (result.kind === 'needs_taxpayer') {
      const problems = [{ path: 'type', message: text(lang, 'problem_type_reissue') }];
      return void res.status(400).json({ error: invalidText(problems, lang), problems });
    }
    if (result.kind === 'refused') {
      const days = (await requestSettings(deps, doc.shop)).days;
      return void res.status(409).json({ error: refusalText(result.reason, doc, days, lang), reason: result.reason });
    }
    const { request } = result;
    if (!result.repeat) {
      deps.logger.info({ shop: doc.shop, invoiceId: doc.id, outcome: request.outcome }, 'buyer asked for the invoice in a company name');
      deps.wakeWorker();
    }
    res.status(202).json({
      outcome: request.outcome,
      message: requestedText(request, lang),
      requestedAt: request.createdAt.toISOString(),
      repeat: result.repeat,
      creditNoteId: request.creditNoteId,
      replacementId: request.replacementId,
      document: await viewOf((await documentByBuyerToken(deps.db, doc.buyerToken)) ?? doc, lang),
    });
  });

  router.all('/{*rest}', ...limited, (req, res) => notFound(req, res, wantsJsonPath(req)));

  // Bodies that are not JSON, too large, or anything unexpected: a plain answer, nothing of the code or the data.
  router.use(((error, req, res, _next) => {
    const type = (error as { type?: unknown })?.type;
    const lang = queryLanguage(req) ?? 'es';
    if (type === 'entity.parse.failed') {
      return void res
        .status(400)
        .json({ error: text(lang, 'problem_body'), problems: [{ path: '(body)', message: text(lang, 'problem_body') }] });
    }
    if (type === 'entity.too.large') return void res.status(413).json({ error: text(lang, 'problem_body') });
    deps.logger.error({ err: error, path: BUYER_PATH }, "buyer's page: request failed");
    if (res.headersSent) return;
    res.set(HEADERS).status(500);
    if (wantsJsonPath(req) || req.method !== 'GET') res.json({ error: text(lang, 'serverError') });
    else res.type('html').send(buyerMessageHtml(lang, 'serverError'));
  }) as ErrorRequestHandler);

  async function found(req: Request, res: Response, wantsJson: boolean): Promise<DocumentWithPdf | undefined> {
    const token = tokenOf(req);
    const doc = token && BUYER_TOKEN.test(token) ? await documentByBuyerToken(deps.db, token) : undefined;
    if (!doc) notFound(req, res, wantsJson);
    return doc;
  }

  async function viewOf(doc: DocumentWithPdf, language: Language): Promise<BuyerDocumentView> {
    const [relatives, request, settings] = await Promise.all([
      buyerRelatives(deps.db, doc),
      doc.kind === 'invoice' ? buyerRequestOf(deps.db, doc.id) : undefined,
      requestSettings(deps, doc.shop),
    ]);
    const plan = await currentPlan(requestDeps, doc);
    return buyerView({ doc, relatives, request, plan, days: settings.days, language, appUrl: deps.appUrl });
  }

  async function languageOf(req: Request, doc: DocumentWithPdf): Promise<Language> {
    return queryLanguage(req) ?? buyerLanguage(await orderSnapshotOf(deps.db, doc));
  }

  return router;
}

/** The shop's setting; a shop that is not installed and enabled takes no request. */
async function requestSettings(deps: Pick<BuyerPageDeps, 'shops'>, shop: string): Promise<BuyerRequestSettings> {
  const found = await deps.shops.get(shop);
  const settings = found?.settings.buyerRequests ?? defaultShopSettings.buyerRequests;
  return found?.installed && found.enabled ? settings : { ...settings, enabled: false };
}

function tokenOf(req: Request): string | undefined {
  const raw = req.params['token'] ?? FILE.exec(String(req.params['file'] ?? ''))?.[1];
  return typeof raw === 'string' ? raw : undefined;
}

function queryLanguage(req: Request): Language | undefined {
  const lang = req.query['lang'];
  return typeof lang === 'string' && (LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : undefined;
}

function wantsJsonPath(req: Request): boolean {
  return req.method !== 'GET' || req.path.endsWith('.json');
}

function notFound(req: Request, res: Response, wantsJson: boolean): void {
  const lang = queryLanguage(req) ?? 'es';
  res.set(HEADERS).status(404);
  if (wantsJson) res.json({ error: text(lang, 'notFound') });
  else res.type('html').send(buyerMessageHtml(lang, 'notFound'));
}

function invalidText(problems: readonly { path: string; message: string }[], lang: Language): string {
  return text(lang, 'invalid', { fields: problems.map((p) => `${p.path}: ${p.message}`).join(' ') });
}

/** JSON only: a form post from another site (text/plain, form-encoded) is refused before anything is read. */
const jsonOnly: RequestHandler = (req, res, next) => {
  if (req.is('application/json')) return next();
  const lang = queryLanguage(req) ?? 'es';
  res
    .set(HEADERS)
    .status(415)
    .json({ error: text(lang, 'notJson') });
};

function limiter(perMinute: number, key: (req: Request) => string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    keyGenerator: key,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // The app trusts its proxy's X-Forwarded-For (src/http/http-app.ts); the per-link limit holds whatever it says.
    validate: { trustProxy: false, xForwardedForHeader: false },
    handler: (req, res) => {
      const lang = queryLanguage(req) ?? 'es';
      res.set(HEADERS).status(429);
      if (wantsJsonPath(req)) res.json({ error: text(lang, 'tooMany') });
      else res.type('html').send(buyerMessageHtml(lang, 'tooMany'));
    },
  });
}
