// The shop's number series and locations in the admin API (docs/series.md), for *Configuración*: every series with its
// last number used, next number and gaps; moving a series' next number forward (as `series set-next`); the shop's
// Shopify locations with their names beside the `locations` setting. Behind the session token; the shop comes only
// from the token.
import type { Shopify } from '@shopify/shopify-api';
import express, { Router } from 'express';
import { z } from 'zod';
import CODES from '../../mappers/fiscal/data/dgi-codes.json' with { type: 'json' };
import type { Db } from '../db/database.ts';
import { refusalText } from '../documents/series-text.ts';
import { listSeries, setNextNumber } from '../documents/store/series-statements.ts';
import type { Logger } from '../logger.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { readShopLocations } from '../shopify/shop-locations.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { billingPointSchema, branchCodeSchema } from '../shops/shop-settings.ts';
import { zodProblems } from './admin-api.ts';
import { jsonObjectBody } from './request-guards.ts';
import { requireSessionToken, shopOf, userOf } from './session-token.ts';

export interface SeriesApiDeps {
  db: Db;
  shopify: Shopify;
  shops: ShopRepository;
  /** The shop's Admin API, for its locations; absent: the page shows the mapped ids only. */
  shopifyAdmin?: ShopifyAdmin | undefined;
  logger: Logger;
}

const setNextSchema = z.object({
  environment: z.enum(['pruebas', 'produccion'], { error: 'must be "pruebas" or "produccion"' }),
  branchCode: branchCodeSchema,
  billingPoint: billingPointSchema,
  documentType: z.string().refine((t) => Object.hasOwn(CODES.typeDocument, t), 'must be a DGI document type (01, 04, …)'),
  // A number, or its digits as text (a form's value).
  next: z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be from 1 to 9999999999')
      .max(9_999_999_999, 'must be from 1 to 9999999999'),
  ),
});

export function seriesApiRouter(deps: SeriesApiDeps): Router {
  const router = Router();
  const auth = requireSessionToken({ shopify: deps.shopify });
  const json = express.json({ limit: '16kb' });

  router.get('/series', auth, async (_req, res) => {
    const shop = await deps.shops.get(shopOf(res));
    if (!shop) return void res.status(404).json({ error: 'this shop has not installed the app' });
    res.json({ environment: shop.settings.environment, series: await listSeries(deps.db, shop.shop) });
  });

  router.post('/series/next', auth, json, jsonObjectBody(Object.keys(setNextSchema.shape), { required: true }), async (req, res) => {
    const shop = shopOf(res);
    if (!(await deps.shops.get(shop))) return void res.status(404).json({ error: 'this shop has not installed the app' });
    const parsed = setNextSchema.safeParse(req.body);
    if (!parsed.success) {
      const problems = zodProblems(parsed.error);
      return void res.status(400).json({ error: `${problems[0]!.path}: ${problems[0]!.message}`, problems });
    }
    const { next, ...key } = parsed.data;
    const by = `admin:${userOf(res) ?? 'unknown user'}`;
    const outcome = await setNextNumber(deps.db, { shop, ...key }, next, by);
    if (outcome.kind === 'refused') {
      res.status(409).json({ error: `refused, nothing changed: ${refusalText(outcome)}`, code: 'series_next_refused', refusal: outcome });
      return;
    }
    deps.logger.info({ shop, ...key, outcome }, 'admin: series next number set');
    res.json({ outcome, series: await listSeries(deps.db, shop) });
  });

  router.get('/locations', auth, async (_req, res) => {
    const shop = await deps.shops.get(shopOf(res));
    if (!shop) return void res.status(404).json({ error: 'this shop has not installed the app' });
    const mapped = shop.settings.locations;
    const read = deps.shopifyAdmin ? await readShopLocations(deps.shopifyAdmin, shop.shop) : undefined;
    const known = read?.ok ? read.data : [];
    const knownIds = new Set(known.map((l) => l.id));
    res.json({
      // Whether the shop's locations could be read (read_locations granted, Shopify reachable); why not.
      available: read?.ok ?? false,
      error: read && !read.ok ? read.message : null,
      locations: known.map((l) => ({ ...l, mapping: Object.hasOwn(mapped, l.id) ? mapped[l.id] : null })),
      // Ids in the settings the shop does not have (kept, flagged): a location deleted, or an id mistyped.
      unknown: read?.ok ? Object.keys(mapped).filter((id) => !knownIds.has(id)) : [],
    });
  });

  return router;
}
