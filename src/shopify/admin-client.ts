// Admin API calls for a shop with its offline session, over one long-lived ky client whose retry policy is the
// whole of the app's: 429 and 503 wait as Retry-After says, other 5xx, network errors and time-outs back off with
// jitter, a 401 refreshes the session once, and GraphQL throttling (THROTTLED inside a 200) waits and retries.
import { abstractFetch } from '@shopify/shopify-api/runtime';
import type { Session } from '@shopify/shopify-api';
import ky, { type KyInstance, isForceRetryError, isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import type { Logger } from '../logger.ts';
import { AnswerDeadlineError, boundedFetch } from '../bounded-fetch.ts';

export type AdminResult<T> = { ok: true; data: T } | { ok: false; retryable: boolean; message: string };

/** The port the worker, the sweep and the admin use; tests and the demo reach the store simulator through it. */
export interface ShopifyAdmin {
  graphql<T>(shop: string, query: string, variables?: Record<string, unknown>): Promise<AdminResult<T>>;
  /** GET a REST resource (`orders/1.json`): its body, or null on 404. */
  rest(shop: string, path: string): Promise<AdminResult<string | null>>;
}

export interface OfflineSessions {
  /** A usable offline session (refreshed if near expiry), or undefined when the shop has none. */
  get(shop: string): Promise<Session | undefined>;
  /** Called after a 401: the token may have been revoked or rotated elsewhere. */
  invalidate?(shop: string): Promise<void>;
}

export interface AdminClientOptions {
  sessions: OfflineSessions;
  apiVersion: string;
  logger: Logger;
  /** Retries after the first try. */
  retries?: number;
  baseDelayMs?: number;
  /** One call, its answer's body included (each retry has its own). */
  timeoutMs?: number;
  /** Bytes an answer may have; a larger one is dropped while it streams (a failure that may pass). */
  maxAnswerBytes?: number;
  /** Default: the Shopify library's fetch, so a configured Admin API origin (the simulator) answers. */
  fetch?: typeof fetch;
}

const TOKEN_HEADER = 'X-Shopify-Access-Token';

class NoSession extends Error {}

export function createShopifyAdmin(o: AdminClientOptions): ShopifyAdmin {
  const base = o.baseDelayMs ?? 500;
  const shopOf = (request: Request) => new URL(request.url).hostname;
  const authorize = async (request: Request) => {
    const session = await o.sessions.get(shopOf(request));
    if (!session?.accessToken)
      throw new NoSession(`no Shopify access for ${shopOf(request)}: install the app or add the shop's access token`);
    request.headers.set(TOKEN_HEADER, session.accessToken);
  };

  const timeoutMs = o.timeoutMs ?? 15_000;
  // The whole answer is read within the time-out and its bound before ky sees it: a body that trickles or stalls
  // cannot hold a call (a metafieldsSet, an order read) past the deadline, nor a huge one the memory.
  const bounded = boundedFetch(o.fetch ?? ((input, init) => abstractFetch(input, init)), {
    deadlineMs: timeoutMs,
    maxBytes: o.maxAnswerBytes ?? 16 * 1024 * 1024,
  });
  const http: KyInstance = ky.create({
    timeout: timeoutMs,
    fetch: bounded,
    headers: { Accept: 'application/json' },
    retry: {
      limit: o.retries ?? 3,
      methods: ['get', 'post'],
      statusCodes: [401, 429, 500, 502, 503, 504],
      afterStatusCodes: [429, 503],
      maxRetryAfter: 10_000,
      retryOnTimeout: true,
      delay: (attempt) => base * 2 ** (attempt - 1),
      backoffLimit: 8_000,
      jitter: (delay) => delay * (0.5 + Math.random() / 2),
      // A second 401 in a row is not going to change: the token is gone.
      shouldRetry: ({ error, retryCount }) => (isHTTPError(error) && error.response.status === 401 ? retryCount <= 1 : undefined),
    },
    hooks: {
      beforeRequest: [({ request }) => authorize(request)],
      beforeRetry: [
        async ({ request, error, retryCount }) => {
          if (isHTTPError(error) && error.response.status === 401) await o.sessions.invalidate?.(shopOf(request));
          o.logger.warn({ shop: shopOf(request), retry: retryCount, error: describe(error) }, 'shopify admin call failed; retrying');
          await authorize(request);
        },
      ],
      afterResponse: [
        async ({ request, response }) => {
          // The request's address: the answer ky hands here is a copy of the one read whole, without its own URL.
          if (response.status !== 200 || !new URL(request.url).pathname.endsWith('/graphql.json')) return undefined;
          const body = (await response.clone().json()) as { errors?: unknown };
          return isThrottled(body.errors) ? ky.retry({ code: 'THROTTLED' }) : undefined;
        },
      ],
    },
  });

  const url = (shop: string, path: string) => `https://${shop}/admin/api/${o.apiVersion}/${path}`;

  return {
    async graphql<T>(shop: string, query: string, variables?: Record<string, unknown>): Promise<AdminResult<T>> {
      try {
        const body = await http.post(url(shop, 'graphql.json'), { json: { query, variables } }).json<{ data?: T; errors?: unknown }>();
        if (body.errors) return { ok: false, retryable: isThrottled(body.errors), message: describeErrors(body.errors) };
        return { ok: true, data: body.data as T };
      } catch (error) {
        return failure(error);
      }
    },

    async rest(shop: string, path: string): Promise<AdminResult<string | null>> {
      try {
        return { ok: true, data: await http.get(url(shop, path)).text() };
      } catch (error) {
        if (isHTTPError(error) && error.response.status === 404) return { ok: true, data: null };
        return failure(error);
      }
    },
  };
}

function failure(error: unknown): { ok: false; retryable: boolean; message: string } {
  if (error instanceof NoSession) return { ok: false, retryable: false, message: error.message };
  if (isHTTPError(error)) {
    const code = error.response.status;
    return {
      ok: false,
      retryable: code === 429 || code >= 500 || code === 401,
      message: `HTTP ${code} ${error.response.statusText}`.trim(),
    };
  }
  if (isTimeoutError(error) || error instanceof AnswerDeadlineError)
    return { ok: false, retryable: true, message: 'Shopify did not answer in time' };
  if (isNetworkError(error)) return { ok: false, retryable: true, message: 'network error reaching Shopify' };
  // ky's retries ran out on GraphQL throttling.
  if (isForceRetryError(error)) return { ok: false, retryable: true, message: 'Throttled' };
  return { ok: false, retryable: true, message: error instanceof Error ? error.message : 'unknown error' };
}

function describe(error: unknown): string {
  return failure(error).message;
}

function isThrottled(errors: unknown): boolean {
  return Array.isArray(errors) && errors.some((e) => (e as { extensions?: { code?: string } })?.extensions?.code === 'THROTTLED');
}

function describeErrors(errors: unknown): string {
  const list = Array.isArray(errors) ? errors : [errors];
  return list
    .map((e) => (typeof e === 'string' ? e : ((e as { message?: string })?.message ?? JSON.stringify(e))))
    .join('; ')
    .slice(0, 500);
}
