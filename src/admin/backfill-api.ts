// The backfill in the admin API (docs/backfill.md), behind the session token; the shop comes only from the token.
// POST /api/backfill/dry-run {from, to} · POST /api/backfill {from, to, expected?} · GET /api/backfill ·
// POST /api/backfill/cancel. Refusals (a bad range, a shop not installed, read_all_orders missing, one running) name
// what is wrong in the reader's language, and nothing starts.
import type { Shopify } from '@shopify/shopify-api';
import express, { type Request, type Response, Router } from 'express';
import { BackfillReadError, dryRunBackfill, dryRunJson } from '../backfill/backfill-dry-run.ts';
import {
  type BackfillRefusal,
  backfillProgress,
  cancelBackfill,
  checkBackfill,
  latestBackfill,
  startBackfill,
} from '../backfill/backfill-service.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { render } from '../messages/catalogue.ts';
import { message } from '../messages/message.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { jsonObjectBody } from './request-guards.ts';
import { requestLanguage } from './request-language.ts';
import { requireSessionToken, shopOf } from './session-token.ts';

export interface BackfillApiDeps {
  db: Db;
  shopify: Shopify;
  shops: ShopRepository;
  sessions: { loadSession(id: string): Promise<{ scope?: string | undefined } | undefined> };
  shopifyAdmin?: ShopifyAdmin | undefined;
  /** Start reading at once in this process (the runner would take it on its next tick anyway). */
  wakeBackfill?: () => void;
  now?: () => Date;
  logger: Logger;
}

/** The scopes the shop granted, from its offline session (`offline_<shop>`, the library's id). */
export function grantedScopesOf(sessions: BackfillApiDeps['sessions']) {
  return async (shop: string): Promise<string[] | undefined> => {
    const offline = await sessions.loadSession(`offline_${shop}`);
    return offline ? (offline.scope ?? '').split(',').map((s) => s.trim()) : undefined;
  };
}

export function backfillApiRouter(deps: BackfillApiDeps): Router {
  const router = Router();
  const auth = requireSessionToken({ shopify: deps.shopify });
  const json = express.json({ limit: '4kb' });
  const now = () => (deps.now ?? (() => new Date()))();
  const checkDeps = { shops: deps.shops, grantedScopes: grantedScopesOf(deps.sessions) };
  const refuse = (req: Request, res: Response, r: BackfillRefusal) => {
    const text = render(r.error, requestLanguage(req));
    res.status(r.status).json({ error: text, code: r.code, ...(r.field ? { problems: [{ path: r.field, message: text }] } : {}) });
  };

  router.post('/backfill/dry-run', auth, json, jsonObjectBody(['from', 'to'], { required: true }), async (req, res) => {
    const shop = shopOf(res);
    const body = req.body as { from: unknown; to: unknown };
    const checked = await checkBackfill(checkDeps, shop, body, now(), 'dry_run');
    if (!checked.ok) return refuse(req, res, checked.refusal);
    if (!deps.shopifyAdmin) return void res.status(503).json({ error: 'the Admin API is not available on this server' });
    try {
      const dry = await dryRunBackfill({ db: deps.db, admin: deps.shopifyAdmin }, shop, checked.shop.settings, checked.range);
      const language = requestLanguage(req);
      res
        .set('Cache-Control', 'no-store')
        .json({ from: checked.range.from, to: checked.range.to, ...dryRunJson(dry, (m) => render(m, language)) });
    } catch (error) {
      if (!(error instanceof BackfillReadError)) throw error;
      deps.logger.warn({ shop, error: error.message }, 'admin: backfill dry run could not read the orders');
      res
        .status(502)
        .json({ error: render(message('backfill_no_access', { detail: error.message }), requestLanguage(req)), code: 'shopify' });
    }
  });

  router.post('/backfill', auth, json, jsonObjectBody(['from', 'to', 'expected'], { required: true }), async (req, res) => {
    const shop = shopOf(res);
    const body = req.body as { from: unknown; to: unknown; expected?: unknown };
    const expected = body.expected;
    if (expected !== undefined && !(typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0)) {
      return void res.status(400).json({
        error: 'expected: must be a whole number of 0 or more',
        problems: [{ path: 'expected', message: 'must be a whole number of 0 or more' }],
      });
    }
    const checked = await checkBackfill(checkDeps, shop, body, now(), 'start');
    if (!checked.ok) return refuse(req, res, checked.refusal);
    const started = await startBackfill(deps.db, shop, checked.range, expected);
    if (!started.ok) return refuse(req, res, started.refusal);
    deps.logger.info(
      { shop, backfill: started.backfill.id, from: checked.range.from, to: checked.range.to, attached: started.attached },
      'admin: backfill started',
    );
    deps.wakeBackfill?.();
    res
      .status(started.attached ? 200 : 202)
      .json({ attached: started.attached, backfill: await backfillProgress(deps.db, started.backfill, now()) });
  });

  router.get('/backfill', auth, async (_req, res) => {
    const row = await latestBackfill(deps.db, shopOf(res));
    res.set('Cache-Control', 'no-store').json({ backfill: row ? await backfillProgress(deps.db, row, now()) : null });
  });

  router.post('/backfill/cancel', auth, json, jsonObjectBody([], { required: false }), async (req, res) => {
    const shop = shopOf(res);
    const cancelled = await cancelBackfill(deps.db, shop);
    if (!cancelled.ok) return refuse(req, res, cancelled.refusal);
    deps.logger.info({ shop, backfill: cancelled.backfill.id, removed: cancelled.removed }, 'admin: backfill cancelled');
    res.json({ removed: cancelled.removed, backfill: await backfillProgress(deps.db, cancelled.backfill, now()) });
  });

  return router;
}
