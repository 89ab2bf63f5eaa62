// Admin GraphQL calls for a shop with its offline session, through @shopify/shopify-api, with our own
// retries: the library retries only 429/503, while GraphQL throttling arrives as THROTTLED in a 200.
import { GraphqlQueryError, HttpRequestError, HttpResponseError, type Session, type Shopify } from '@shopify/shopify-api';
import type { Logger } from '../logger.ts';

export type AdminResult<T> = { ok: true; data: T } | { ok: false; retryable: boolean; message: string };

/** The port the invoice worker uses; tests and the demo reach the store simulator through the real one. */
export interface ShopifyAdmin {
  graphql<T>(shop: string, query: string, variables?: Record<string, unknown>): Promise<AdminResult<T>>;
}

export interface OfflineSessions {
  /** A usable offline session (refreshed if near expiry), or undefined when the shop has none. */
  get(shop: string): Promise<Session | undefined>;
  /** Called after a 401: the token may have been revoked or rotated elsewhere. */
  invalidate?(shop: string): Promise<void>;
}

export interface AdminClientOptions {
  shopify: Shopify;
  sessions: OfflineSessions;
  logger: Logger;
  attempts?: number;
  baseDelayMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createShopifyAdmin(o: AdminClientOptions): ShopifyAdmin {
  const attempts = o.attempts ?? 4;
  const base = o.baseDelayMs ?? 500;
  const sleep = o.sleep ?? delay;

  return {
    async graphql<T>(shop: string, query: string, variables?: Record<string, unknown>): Promise<AdminResult<T>> {
      let last: AdminResult<T> = { ok: false, retryable: true, message: 'not attempted' };
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const session = await o.sessions.get(shop);
        if (!session)
          return { ok: false, retryable: false, message: `no Shopify access for ${shop}: install the app or add the shop's access token` };
        last = await requestOnce<T>(o.shopify, session, query, variables, o.timeoutMs ?? 15_000);
        if (last.ok || !last.retryable) return last;
        if (last.message.startsWith('HTTP 401')) await o.sessions.invalidate?.(shop);
        if (attempt < attempts) {
          const wait = Math.min(base * 2 ** (attempt - 1), 8_000) * (0.5 + Math.random() / 2);
          o.logger.warn({ shop, attempt, error: last.message }, 'shopify admin call failed; retrying');
          await sleep(wait);
        }
      }
      return last;
    },
  };
}

async function requestOnce<T>(
  shopify: Shopify,
  session: Session,
  query: string,
  variables: Record<string, unknown> | undefined,
  timeoutMs: number,
): Promise<AdminResult<T>> {
  try {
    const client = new shopify.clients.Graphql({ session });
    const response = await client.request<T>(query, { variables, retries: 0, signal: AbortSignal.timeout(timeoutMs) });
    if (response.errors) return { ok: false, retryable: isThrottled(response.errors), message: describeErrors(response.errors) };
    return { ok: true, data: response.data as T };
  } catch (error) {
    if (error instanceof GraphqlQueryError) {
      const body = error.body as { errors?: unknown } | undefined;
      const errors = body?.errors ?? error.response?.errors;
      // Thrown only for HTTP 200 answers with GraphQL errors: only throttling is worth another try.
      return { ok: false, retryable: isThrottled(errors), message: describeErrors(errors) || error.message };
    }
    if (error instanceof HttpResponseError) {
      const code = error.response.code;
      return {
        ok: false,
        retryable: code === 429 || code >= 500 || code === 401,
        message: `HTTP ${code} ${error.response.statusText ?? ''}`.trim(),
      };
    }
    if (error instanceof HttpRequestError) return { ok: false, retryable: true, message: 'network error reaching Shopify' };
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return { ok: false, retryable: true, message: 'Shopify did not answer in time' };
    }
    return { ok: false, retryable: true, message: error instanceof Error ? error.message : 'unknown error' };
  }
}

function isThrottled(errors: unknown): boolean {
  const list = Array.isArray(errors) ? errors : (errors as { graphQLErrors?: unknown[] } | undefined)?.graphQLErrors;
  return Array.isArray(list) && list.some((e) => (e as { extensions?: { code?: string } })?.extensions?.code === 'THROTTLED');
}

function describeErrors(errors: unknown): string {
  if (!errors) return '';
  const list = Array.isArray(errors) ? errors : ((errors as { graphQLErrors?: unknown[]; message?: string }).graphQLErrors ?? [errors]);
  return list
    .map((e) => (typeof e === 'string' ? e : ((e as { message?: string })?.message ?? JSON.stringify(e))))
    .join('; ')
    .slice(0, 500);
}
