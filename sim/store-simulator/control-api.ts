// The control API (opt-in): a thin JSON face of the StoreSimulator methods under `/_simulator/`, so another
// process (the demo driver) can drive the simulator. It never returns tokens. Bad input answers 400 with
// what is wrong, and nothing changes.
//
//   PUT   orders              {shop, order, transactions?}                       → {orderGid}
//   PATCH orders              {shop, orderGid, patch}                            → {ok}
//   POST  orders/paid         {shop, order, address, transactions?, ids…}        → {orderGid, delivery}
//   POST  refunds             {shop, orderGid, refund}                           → {refundGid}
//   POST  refunds/create      {shop, refund, address, ids…}                      → {delivery}
//   POST  orders/refund       {shop, orderGid, request, address, ids…}           → {refund, delivery}   (as a merchant refunds)
//   PUT   customers/metafield {shop, customerGid, namespace, key, value, type?}  → {ok}
//   PUT   customers/locale    {shop, customerGid, locale}                        → {ok}
//   PUT   company-locations   {shop, locationGid, taxRegistrationId, companyName?, locationName?, taxExempt?} → {ok}
//   POST  locations           {shop, name, id?, active?}  (a store or till's place; orders there carry id) → {id, gid}
//   POST  webhooks            WebhookOptions (address, topic, shop, payload, ids…) → WebhookResult
//   GET   metafields?owner=&shop=  (or ?order=)                                  → {metafields}
//   GET   flow-triggers?shop=  (the Flow triggers Shopify took)                → {triggers}
//   GET   calls, GET webhook-log, POST faults {rates…, seed?}

import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { StoreSimulator } from './types.ts';

const shop = z.string().min(1);
const gid = z.string().startsWith('gid://shopify/');
const json = z.record(z.string(), z.unknown());
const transaction = z.object({
  gateway: z.string(),
  kind: z.string().optional(),
  status: z.string().optional(),
  amount: z.string(),
  currencyCode: z.string().optional(),
});
const deliveryIds = {
  webhookId: z.string().optional(),
  eventId: z.string().optional(),
  triggeredAt: z.string().optional(),
  apiVersion: z.string().optional(),
};

/** RefundRequest (refund-payload.ts): what a merchant refunds on the order's page. Amounts are cents. */
const cents = z.number().int().positive();
const refundRequest = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        lineItemId: z.union([z.number().int(), z.string()]),
        quantity: z.number().int().positive(),
        restockType: z.enum(['no_restock', 'cancel', 'return']).optional(),
        locationId: z.number().int().optional(),
      }),
    )
    .optional(),
  shipping: z.union([z.literal('full'), z.strictObject({ amount: cents })]).optional(),
  amountOnly: z.strictObject({ amount: cents, reason: z.string().optional() }).optional(),
  tip: z.boolean().optional(),
  noMoney: z.boolean().optional(),
  gateway: z.string().optional(),
  status: z.enum(['success', 'pending']).optional(),
  id: z.number().int().positive().optional(),
  createdAt: z.string().optional(),
  note: z.string().optional(),
  userId: z.number().int().optional(),
});

const schemas = {
  setOrder: z.object({ shop, order: json, transactions: z.array(transaction).optional() }),
  updateOrder: z.object({ shop, orderGid: gid, patch: json }),
  orderPaid: z.object({ shop, order: json, address: z.url(), transactions: z.array(transaction).optional(), ...deliveryIds }),
  addRefund: z.object({ shop, orderGid: gid, refund: json }),
  refundCreated: z.object({ shop, refund: json, address: z.url(), ...deliveryIds }),
  refund: z.object({ shop, orderGid: gid, request: refundRequest, address: z.url(), ...deliveryIds }),
  customerMetafield: z.object({
    shop,
    customerGid: gid,
    namespace: z.string(),
    key: z.string(),
    value: z.string(),
    type: z.string().optional(),
  }),
  customerLocale: z.object({ shop, customerGid: gid, locale: z.string() }),
  companyLocation: z.object({
    shop,
    locationGid: gid,
    taxRegistrationId: z.string().nullable(),
    companyName: z.string().optional(),
    locationName: z.string().optional(),
    taxExempt: z.boolean().optional(),
  }),
  location: z.object({ shop, name: z.string().min(1), id: z.number().int().positive().optional(), active: z.boolean().optional() }),
  webhook: z.object({ address: z.url(), topic: z.string().min(1), shop, payload: z.union([z.string(), json]), ...deliveryIds }),
  faults: z.object({
    graphqlThrottledRate: z.number().min(0).max(1).optional(),
    http429Rate: z.number().min(0).max(1).optional(),
    http5xxRate: z.number().min(0).max(1).optional(),
    http5xxStatus: z.number().int().min(500).max(599).optional(),
    seed: z.number().int().optional(),
  }),
};

class ControlError extends Error {}

function input<T>(schema: z.ZodType<T>, req: Request): T {
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) throw new ControlError(parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return parsed.data;
}

/** `undefined`-free copy: the simulator's options treat a present key as given. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function controlApiRoutes(sim: () => StoreSimulator): express.Router {
  const control = express.Router();
  control.use(express.json({ limit: '10mb' }));
  const ok = { ok: true };

  control.put('/orders', (req, res) => {
    const b = input(schemas.setOrder, req);
    res.json({ orderGid: sim().setOrder(b.shop, b.order, defined({ transactions: b.transactions })) });
  });
  control.patch('/orders', (req, res) => {
    const b = input(schemas.updateOrder, req);
    sim().updateOrder(b.shop, b.orderGid, b.patch);
    res.json(ok);
  });
  control.post('/orders/paid', async (req, res) => {
    const { shop, order, address, transactions, ...ids } = input(schemas.orderPaid, req);
    const orderGid = sim().setOrder(shop, order, defined({ transactions }));
    const delivery = await sim().sendWebhook(defined({ ...ids, address, topic: 'orders/paid', shop, payload: order }));
    res.json({ orderGid, delivery });
  });
  control.post('/refunds', (req, res) => {
    const b = input(schemas.addRefund, req);
    res.json({ refundGid: sim().addRefund(b.shop, b.orderGid, b.refund) });
  });
  control.post('/refunds/create', async (req, res) => {
    const { shop, refund, address, ...ids } = input(schemas.refundCreated, req);
    res.json({ delivery: await sim().refundCreated(shop, refund, address, defined(ids)) });
  });
  control.post('/orders/refund', async (req, res) => {
    const { shop, orderGid, request, address, ...ids } = input(schemas.refund, req);
    const { refund, delivery } = await sim().refund(shop, orderGid, defined(request), address, defined(ids));
    res.json({ refund, delivery });
  });
  control.put('/customers/metafield', (req, res) => {
    const b = input(schemas.customerMetafield, req);
    sim().setCustomerMetafield(b.shop, b.customerGid, b.namespace, b.key, b.value, b.type);
    res.json(ok);
  });
  control.put('/customers/locale', (req, res) => {
    const b = input(schemas.customerLocale, req);
    sim().setCustomerLocale(b.shop, b.customerGid, b.locale);
    res.json(ok);
  });
  control.put('/company-locations', (req, res) => {
    const { shop: s, locationGid, taxRegistrationId, ...options } = input(schemas.companyLocation, req);
    sim().setCompanyLocationTaxId(s, locationGid, taxRegistrationId, defined(options));
    res.json(ok);
  });
  control.post('/locations', (req, res) => {
    const { shop: s, ...location } = input(schemas.location, req);
    res.json(sim().addLocation(s, defined(location)));
  });
  control.post('/webhooks', async (req, res) => {
    res.json(await sim().sendWebhook(defined(input(schemas.webhook, req))));
  });
  control.get('/metafields', (req, res) => {
    const owner = typeof req.query['owner'] === 'string' ? req.query['owner'] : req.query['order'];
    if (typeof owner !== 'string') throw new ControlError('owner (an order or customer GID) is required');
    const inShop = typeof req.query['shop'] === 'string' ? req.query['shop'] : undefined;
    res.json({ metafields: sim().metafields(owner, inShop) });
  });
  control.get('/flow-triggers', (req, res) => {
    const inShop = typeof req.query['shop'] === 'string' ? req.query['shop'] : undefined;
    res.json({ triggers: sim().flowTriggers(inShop) });
  });
  control.get('/calls', (_req, res) => {
    res.json({ calls: sim().calls() });
  });
  control.get('/webhook-log', (_req, res) => {
    res.json({ attempts: sim().webhookLog() });
  });
  control.post('/faults', (req, res) => {
    sim().setFaults(defined(input(schemas.faults, req)));
    res.json(ok);
  });
  // Everything a control route throws comes from its input (the simulator's own checks included).
  control.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof Error)) return next(err);
    const fromBodyParser = 'status' in err && !(err instanceof ControlError);
    res.status(400).json({ error: fromBodyParser ? 'Bad Request' : err.message });
  });
  return control;
}
