// The Admin API over HTTP: `POST /admin/api/<version>/graphql.json` and the REST order read
// `GET /admin/api/<version>/orders/<id>.json`. Each call is authenticated by its access token, may meet an
// injected fault, and is recorded for tests to read back (never with its token).

import express, { type Request, type Response } from 'express';
import { parseOperation, runAdminGraphql } from './admin-graphql.ts';
import type { FaultDice } from './faults.ts';
import { isRecord, str } from './rest-values.ts';
import type { SimState } from './shop-state.ts';
import { type TokenStore, shopFromHeader } from './tokens.ts';
import type { ApiCall, CallOutcome } from './types.ts';

const INVALID_TOKEN_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

export interface AdminApiParts {
  state: SimState;
  tokens: TokenStore;
  faults: FaultDice;
  calls: ApiCall[];
}

export function adminApiRoutes({ state, tokens, faults, calls }: AdminApiParts): express.Router {
  const router = express.Router();

  function logCall(operation: string, shop: string, variables: Record<string, unknown>, status: number, outcome: CallOutcome): void {
    calls.push({ operation, shop, variables: structuredClone(variables), at: new Date().toISOString(), status, outcome });
  }

  /** The caller's shop and scopes, or undefined once the answer (401 or a fault) has been sent. */
  function admit(req: Request, res: Response, operation: string, variables: Record<string, unknown>, graphql: boolean) {
    res.set('X-Shopify-API-Version', req.params['version']);
    const auth = tokens.authenticate(req);
    if (!auth) {
      logCall(operation, shopFromHeader(req) ?? '', variables, 401, 'unauthorized');
      res.status(401).json(INVALID_TOKEN_BODY);
      return undefined;
    }
    const fault = faults.roll(graphql);
    if (fault) {
      logCall(operation, auth.shop, variables, faults.send(res, fault), fault);
      return undefined;
    }
    return auth;
  }

  router.post('/admin/api/:version/graphql.json', express.json({ limit: '10mb' }), async (req: Request, res: Response) => {
    const body: Record<string, unknown> = isRecord(req.body) ? req.body : {};
    const variables = isRecord(body['variables']) ? body['variables'] : {};
    const query = typeof body['query'] === 'string' ? body['query'] : '';
    const operationName = str(body['operationName']);
    const parsed = parseOperation(query, operationName);

    const auth = admit(req, res, parsed.operation, variables, true);
    if (!auth) return;
    if (!query.trim()) {
      logCall(parsed.operation, auth.shop, variables, 400, 'graphql_errors');
      res.status(400).json({ errors: { query: 'Required parameter missing or invalid' } });
      return;
    }
    const scopes = new Set(auth.scope.split(',').map((s) => s.trim()));
    const ctx = { state, shop: state.shop(auth.shop), scopes, userErrors: false };
    const answer = await runAdminGraphql(parsed, variables, operationName, ctx);
    logCall(parsed.operation, auth.shop, variables, 200, answer.outcome);
    res.status(200).json(answer.body);
  });

  router.get('/admin/api/:version/orders/:file', (req: Request, res: Response) => {
    const file = String(req.params['file']);
    const id = /^(\d+)\.json$/.exec(file)?.[1];
    const variables = { id: id ?? file };
    const auth = admit(req, res, 'rest:order', variables, false);
    if (!auth) return;
    const found = id ? state.shop(auth.shop).orders.get(`gid://shopify/Order/${id}`) : undefined;
    if (!found) {
      logCall('rest:order', auth.shop, variables, 404, 'not_found');
      res.status(404).json({ errors: 'Not Found' });
      return;
    }
    logCall('rest:order', auth.shop, variables, 200, 'ok');
    res.status(200).json({ order: found.rest });
  });

  return router;
}
