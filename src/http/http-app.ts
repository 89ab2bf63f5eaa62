// The app's HTTP surface. Webhook routes come before any JSON parser: their HMAC is over the raw body.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { bodyBudget } from './body-budget.ts';
import { webhookBody } from './webhook-body.ts';

/** A bound on the JSON bodies of the routes mounted after the webhooks: each parses its own, smaller (admin API 256 kB). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface HttpRoutes {
  logger: Logger;
  webhookBodyLimitBytes: number;
  /** Webhooks whose bodies may be larger (a privacy request lists any number of orders): path → bytes. */
  webhookBodyLimits?: Record<string, number>;
  /** Bytes of request bodies in flight at once, all routes together (503 beyond). */
  bodyBytesInFlight: number;
  /** path → handler, for POST webhooks. */
  webhooks: Record<string, RequestHandler>;
  /** Mounted after the webhooks; a route that reads JSON parses it itself, within its own limit. */
  mount?: (app: express.Express) => void;
}

export function createHttpApp(routes: HttpRoutes): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);

  const limits = Object.values(routes.webhookBodyLimits ?? {});
  const usual = Math.max(routes.webhookBodyLimitBytes, JSON_BODY_LIMIT_BYTES);
  app.use(bodyBudget({ maxBytes: routes.bodyBytesInFlight, largestBody: Math.max(usual, ...limits), undeclaredBody: usual }));
  for (const [path, handler] of Object.entries(routes.webhooks)) {
    app.post(path, webhookBody(routes.webhookBodyLimits?.[path] ?? routes.webhookBodyLimitBytes), handler);
  }

  routes.mount?.(app);

  app.use(((error, _req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413) {
      // The route's own limit: every body parser's 413 carries it (webhooks, the admin API, the rest).
      res.status(413).json({ error: typeof error.limit === 'number' ? `body larger than ${error.limit} bytes` : 'body too large' });
      return;
    }
    if (status >= 400 && status < 500) {
      res.status(status).json({ error: error.expose && error.message ? error.message : 'bad request' });
      return;
    }
    routes.logger.error({ err: error }, 'request failed');
    res.status(500).json({ error: 'internal error' });
  }) as ErrorRequestHandler);
  return app;
}
