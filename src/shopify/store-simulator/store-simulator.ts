// A fake Shopify for development, the demo and tests. It serves Shopify's own paths (OAuth, Admin GraphQL,
// one REST order read) and learns the shop from the `x-shopify-shop-domain` header that `rewritingFetch`
// adds, and it signs and sends webhooks exactly as Shopify does. Everything it is told or asked is kept so a
// test can read it back. Not for production: there is no persistence and no security beyond token checks.

import { mulberry32 } from '../../seeded-random.ts';
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { formatCents, parseCents } from '../../../mappers/money.ts';
import { SHOP_DOMAIN_HEADER } from '../admin-api-origin.ts';

// ───────────────────────────── public types ─────────────────────────────

export interface StoreSimulatorOptions {
  apiKey: string;
  apiSecret: string;
  /** Version sent in webhook headers. Default '2026-10'. */
  apiVersion?: string;
  /** Default 0 (any free port). Always binds 127.0.0.1. */
  port?: number;
  /** Numeric app id: the `$app` namespace is stored as `app--<appId>` like Shopify does. Default '1000001'. */
  appId?: string;
  /** `expires_in` of expiring offline tokens. Default 3600. */
  accessTokenTtlSeconds?: number;
  /** `refresh_token_expires_in`. Default 90 days. */
  refreshTokenTtlSeconds?: number;
  /**
   * Shopify's "resilient refresh": a used refresh token keeps working until its replacement is used.
   * Default false: a used refresh token is refused at once (stricter, catches apps that lose the new one).
   */
  refreshTokenGrace?: boolean;
  /** Allowed OAuth `redirect_uri` values; default: any http(s) URL. */
  redirectUrls?: readonly string[];
  /** Metafield definitions (as declared in shopify.app.toml); they make `type` optional in metafieldsSet. */
  metafieldDefinitions?: readonly MetafieldDefinition[];
  /**
   * Mount JSON control endpoints under `/_simulator/` so another process (the demo driver) can drive it:
   * `PUT orders`, `POST orders/paid`, `POST webhooks`, `GET metafields?order=&shop=`, `GET calls`,
   * `GET webhook-log`, `POST faults`. They never return tokens. Default false.
   */
  controlApi?: boolean;
}

export interface MetafieldDefinition {
  /** `$app`, `$app:sub` or a plain namespace. */
  namespace: string;
  key: string;
  type: string;
}

/** A REST Admin Order as Shopify serializes it in webhooks (`{ id, name, line_items, … }`). */
export type RestOrder = Record<string, unknown>;

/** A transaction to answer for `order.transactions`. */
export interface SimTransaction {
  gateway: string;
  /** Default 'SALE'. */
  kind?: string;
  /** Default 'SUCCESS'. */
  status?: string;
  /** Decimal string in shop money, e.g. "90.15". */
  amount: string;
  /** Default: the order's shop currency. */
  currencyCode?: string;
}

export interface StoredMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export type CallOutcome = 'ok' | 'user_errors' | 'graphql_errors' | 'throttled' | 'http_429' | 'http_5xx' | 'unauthorized' | 'not_found';

export interface ApiCall {
  /** 'metafieldsSet' | 'order' | 'orders' | 'rest:order' | 'unknown'. */
  operation: string;
  /** Empty when the request named no shop and carried no valid token. */
  shop: string;
  variables: Record<string, unknown>;
  /** ISO time of the call. */
  at: string;
  status: number;
  outcome: CallOutcome;
}

export interface Faults {
  /** Share of GraphQL calls answered 200 with a THROTTLED error (nothing done). */
  graphqlThrottledRate?: number;
  /** Share of Admin API calls answered 429 with `Retry-After: 1`. */
  http429Rate?: number;
  /** Share of Admin API calls answered with `http5xxStatus`. */
  http5xxRate?: number;
  /** Default 503. */
  http5xxStatus?: number;
  /** Seed of the fault dice; the same seed gives the same sequence. Default 1. */
  seed?: number;
}

export interface WebhookOptions {
  /** Full URL of the app's webhook endpoint. */
  address: string;
  /** e.g. 'orders/paid'. */
  topic: string;
  shop: string;
  /** An object is sent as JSON.stringify(payload); a string is sent byte for byte. */
  payload: object | string;
  webhookId?: string;
  eventId?: string;
  triggeredAt?: string;
  apiVersion?: string;
  /** Signing key; default the app's secret. Pass another to forge a delivery. */
  secret?: string;
  /** Headers to leave out (any case), to test the app's 400 on missing headers. */
  omitHeaders?: readonly string[];
  /** Give up waiting after this many ms (status 0, timedOut). Default: wait for the answer. */
  timeoutMs?: number;
}

export interface WebhookResult {
  /** HTTP status, or 0 when there was no answer (network error, timeout). */
  status: number;
  body: string;
  durationMs: number;
  timedOut: boolean;
  error?: string;
}

export interface WebhookAttempt extends WebhookResult {
  address: string;
  topic: string;
  shop: string;
  webhookId: string;
  eventId: string;
  /** 1 for the first try. */
  attempt: number;
  at: string;
}

export interface RetryPolicy {
  /** Retries after the first try (Shopify: 8). Default 8. */
  retries?: number;
  /** Wait before each retry: one number for all, or one per retry (last repeats). Default 0. */
  backoffMs?: number | readonly number[];
  /** A slower answer is a failure (Shopify: 5 s). Default 5000. */
  timeoutMs?: number;
}

export interface DeliveryOutcome {
  delivered: boolean;
  attempts: WebhookAttempt[];
}

export interface StoreSimulator {
  /** e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  close(): Promise<void>;

  /** Custom-app style: a static, non-expiring Admin API token. Generated when not given. */
  addShop(shop: string, options?: { accessToken?: string; scope?: string }): { accessToken: string };
  /** Revoke every token of the shop (what uninstalling does). */
  uninstallShop(shop: string): void;
  /** Successful `grant_type=refresh_token` exchanges for the shop. */
  refreshCount(shop: string): number;
  /** An App Bridge session token (HS256 id_token) for token exchange tests. */
  sessionToken(shop: string, options?: { userId?: number; expiresInSeconds?: number }): string;
  /** Move the simulator's clock (token expiry) forward without waiting. */
  advanceClock(ms: number): void;

  /** Register or replace an order; returns its GID. */
  setOrder(shop: string, order: RestOrder, options?: { transactions?: readonly SimTransaction[] }): string;
  /** Metafields written on an order, in first-write order. */
  metafields(orderGid: string, shop?: string): StoredMetafield[];
  calls(): ApiCall[];
  setFaults(faults: Faults): void;

  sendWebhook(options: WebhookOptions): Promise<WebhookResult>;
  deliverWithRetries(options: WebhookOptions, policy?: RetryPolicy): Promise<DeliveryOutcome>;
  /** `setOrder` then send `orders/paid` with the order as body. */
  orderPaid(
    shop: string,
    order: RestOrder,
    address: string,
    overrides?: Partial<Omit<WebhookOptions, 'address' | 'shop' | 'payload'>>,
  ): Promise<WebhookResult>;
  webhookLog(): WebhookAttempt[];
  resetLogs(): void;
}

// ───────────────────────────── pure helpers ─────────────────────────────

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const ORDER_GID = /^gid:\/\/shopify\/Order\/(\d+)$/;
const METAFIELD_KEY = /^[A-Za-z0-9_-]+$/;
const INVALID_TOKEN_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
const MAX_METAFIELDS_PER_CALL = 25;

const KNOWN_METAFIELD_TYPES = new Set([
  'boolean',
  'color',
  'date',
  'date_time',
  'dimension',
  'id',
  'json',
  'link',
  'money',
  'multi_line_text_field',
  'number_decimal',
  'number_integer',
  'rating',
  'rich_text_field',
  'single_line_text_field',
  'url',
  'volume',
  'weight',
  'collection_reference',
  'customer_reference',
  'file_reference',
  'metaobject_reference',
  'mixed_reference',
  'page_reference',
  'product_reference',
  'variant_reference',
  'company_reference',
]);
const LISTABLE = new Set([
  'color',
  'date',
  'date_time',
  'dimension',
  'id',
  'link',
  'number_decimal',
  'number_integer',
  'rating',
  'single_line_text_field',
  'url',
  'volume',
  'weight',
  'collection_reference',
  'customer_reference',
  'file_reference',
  'metaobject_reference',
  'mixed_reference',
  'page_reference',
  'product_reference',
  'variant_reference',
  'company_reference',
]);

function isKnownMetafieldType(type: string): boolean {
  if (type.startsWith('list.')) return LISTABLE.has(type.slice(5));
  return KNOWN_METAFIELD_TYPES.has(type);
}

/** Why `value` is not a valid value of metafield `type`, or undefined when it is. */
export function valueProblem(type: string, value: string): string | undefined {
  if (type.startsWith('list.')) {
    try {
      return Array.isArray(JSON.parse(value)) ? undefined : 'Value must be a JSON array.';
    } catch {
      return 'Value must be a JSON array.';
    }
  }
  switch (type) {
    case 'single_line_text_field':
      if (/[\r\n]/.test(value)) return 'Value must be a single line text string.';
      return Buffer.byteLength(value) > 65_535 ? 'Value is too long (maximum is 65535 bytes).' : undefined;
    case 'url': {
      if (value.length > 2048) return 'Value is too long (maximum is 2048 characters).';
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return 'Value must be a valid URL.';
      }
      // The brief's rule: the app only ever writes web links.
      return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'Value must use one of the allowed schemes: http, https.';
    }
    case 'json':
      try {
        JSON.parse(value);
        return undefined;
      } catch {
        return 'Value must be valid JSON.';
      }
    case 'number_integer':
      return /^-?\d+$/.test(value) ? undefined : 'Value must be an integer.';
    case 'number_decimal':
      return /^-?\d+(\.\d+)?$/.test(value) ? undefined : 'Value must be a decimal number.';
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'Value must be true or false.';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? undefined : 'Value must be a date (YYYY-MM-DD).';
    case 'date_time':
      return Number.isNaN(Date.parse(value)) ? 'Value must be an ISO 8601 date and time.' : undefined;
    default:
      return undefined;
  }
}

/**
 * The OAuth redirect HMAC exactly as @shopify/shopify-api verifies it (lib/utils/hmac-validator.ts):
 * keys sorted with localeCompare, URLSearchParams-encoded with '+' → '%20', hex HMAC-SHA256.
 */
export function oauthQueryHmac(params: Record<string, string>, secret: string): string {
  const query = new URLSearchParams();
  for (const key of Object.keys(params).sort((a, b) => a.localeCompare(b))) {
    if (key === 'hmac' || key === 'signature') continue;
    query.append(key, params[key] ?? '');
  }
  return createHmac('sha256', secret).update(query.toString().replace(/\+/g, '%20')).digest('hex');
}

/** Base64 HMAC-SHA256 of the raw body bytes: the `X-Shopify-Hmac-Sha256` header. */
export function webhookHmac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = base64url(JSON.stringify(payload));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

function verifyJwt(token: string, secret: string): Record<string, unknown> | undefined {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return undefined;
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  if (!safeEqual(sig, expected)) return undefined;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') return undefined;
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return isRecord(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First value of a query/body field that may be repeated. */
function str(value: unknown): string | undefined {
  if (Array.isArray(value)) return str(value[0]);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function isTruthyFlag(value: unknown): boolean {
  const s = str(value);
  return s === '1' || s === 'true';
}

function token(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

/** GraphQL Decimal as Shopify prints it: "199.0", "12.5", "12.34". */
export function graphqlDecimal(cents: number): string {
  return formatCents(cents).replace(/(\.\d)0$/, '$1');
}

/** GraphQL DateTime in UTC without milliseconds, from a REST timestamp with offset. */
function graphqlDateTime(value: unknown): string | null {
  const s = str(value);
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function orderGidOf(order: RestOrder): string {
  const gid = order['admin_graphql_api_id'];
  if (typeof gid === 'string' && ORDER_GID.test(gid)) return gid;
  const id = order['id'];
  if ((typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && /^\d+$/.test(id))) {
    return `gid://shopify/Order/${id}`;
  }
  throw new Error('order needs admin_graphql_api_id or a numeric id');
}

/** The order's current total in shop money (falls back to total_price), or undefined when it has none. */
function currentTotal(order: RestOrder): { cents: number; currency: string } | undefined {
  const set = order['current_total_price_set'];
  const money = isRecord(set) && isRecord(set['shop_money']) ? set['shop_money'] : undefined;
  const amountText = str(money?.['amount']) ?? str(order['current_total_price']) ?? str(order['total_price']);
  const currency = str(money?.['currency_code']) ?? str(order['currency']) ?? 'USD';
  const cents = amountText === undefined ? undefined : parseCents(amountText);
  return cents === undefined ? undefined : { cents, currency };
}

/** One SUCCESS SALE per gateway; equal split in cents, the first gateway takes the remainder. */
export function defaultTransactions(order: RestOrder): SimTransaction[] {
  const total = currentTotal(order);
  if (!total) throw new Error('order has no decimal current_total_price / total_price to split into transactions');
  const { cents, currency } = total;
  const names = Array.isArray(order['payment_gateway_names'])
    ? order['payment_gateway_names'].filter((n): n is string => typeof n === 'string')
    : [];
  const gateways = names.length > 0 ? names : ['manual'];
  const share = Math.floor(cents / gateways.length);
  const remainder = cents - share * gateways.length;
  return gateways.map((gateway, i) => ({
    gateway,
    kind: 'SALE',
    status: 'SUCCESS',
    amount: formatCents(i === 0 ? share + remainder : share),
    currencyCode: currency,
  }));
}

// ── a light GraphQL reader: enough to find root fields and their literal/variable arguments ──

function stripComments(query: string): string {
  return query.replace(/"(?:[^"\\]|\\.)*"|#[^\n]*/g, (m) => (m.startsWith('#') ? '' : m));
}

/** Text between the parenthesis at `open` and its match, skipping strings. */
function argumentText(query: string, open: number): string {
  let depth = 0;
  for (let i = open; i < query.length; i++) {
    const c = query[i];
    if (c === '"') {
      for (i++; i < query.length && query[i] !== '"'; i++) if (query[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return query.slice(open + 1, i);
  }
  return query.slice(open + 1);
}

type ArgValue = { variable: string } | { literal: unknown };

function parseArguments(text: string): Map<string, ArgValue> {
  const args = new Map<string, ArgValue>();
  const re = /(\w+)\s*:\s*(\$\w+|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|[A-Z_]+)/g;
  for (const m of text.matchAll(re)) {
    const [, name, raw] = m;
    if (!name || !raw) continue;
    if (raw.startsWith('$')) args.set(name, { variable: raw.slice(1) });
    else if (raw.startsWith('"')) args.set(name, { literal: JSON.parse(raw) as unknown });
    else if (/^-?\d/.test(raw)) args.set(name, { literal: Number(raw) });
    else if (raw === 'true' || raw === 'false') args.set(name, { literal: raw === 'true' });
    else if (raw === 'null') args.set(name, { literal: null });
    else args.set(name, { literal: raw });
  }
  return args;
}

function argValue(args: Map<string, ArgValue>, name: string, variables: Record<string, unknown>): unknown {
  const a = args.get(name);
  if (!a) return undefined;
  return 'variable' in a ? variables[a.variable] : a.literal;
}

interface FieldUse {
  /** Response key: the alias, or the field name. */
  key: string;
  args: Map<string, ArgValue>;
  /** Where the field's argument list starts, for looking at its selection. */
  index: number;
}

function findField(query: string, field: string): FieldUse | undefined {
  return findFields(query, field)[0];
}

function findFields(query: string, field: string): FieldUse[] {
  const re = new RegExp(`(?:(\\w+)\\s*:\\s*)?\\b${field}\\s*\\(`, 'g');
  return [...query.matchAll(re)].map((m) => {
    const open = (m.index ?? 0) + m[0].length - 1;
    return { key: m[1] ?? field, args: parseArguments(argumentText(query, open)), index: open };
  });
}

// ───────────────────────────── state ─────────────────────────────

interface OrderRecord {
  gid: string;
  rest: RestOrder;
  transactions: (SimTransaction & { id: string })[];
}

interface MetafieldRecord extends StoredMetafield {
  id: string;
  createdAt: string;
  updatedAt: string;
}

interface ShopState {
  orders: Map<string, OrderRecord>;
  /** orderGid → "namespace\0key" → metafield. */
  metafields: Map<string, Map<string, MetafieldRecord>>;
  refreshes: number;
}

interface AccessTokenRecord {
  shop: string;
  scope: string;
  /** Simulator-clock ms; undefined = never expires. */
  expiresAt?: number;
  revoked: boolean;
  /** The refresh token this one replaced, retired when this one is first used (grace mode). */
  replacedRefreshToken?: string;
}

interface RefreshTokenRecord {
  shop: string;
  scope: string;
  expiresAt: number;
  state: 'active' | 'superseded' | 'revoked';
  accessToken: string;
  successor?: string;
}

interface CodeRecord {
  shop: string;
  scope: string;
  online: boolean;
  expiresAt: number;
  used: boolean;
}

class OAuthError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, description: string) {
    super(description);
    this.status = status;
    this.code = code;
  }
}

// ───────────────────────────── the simulator ─────────────────────────────

export async function startStoreSimulator(options: StoreSimulatorOptions): Promise<StoreSimulator> {
  const apiVersion = options.apiVersion ?? '2026-10';
  const appNamespace = `app--${options.appId ?? '1000001'}`;
  const accessTtlMs = (options.accessTokenTtlSeconds ?? 3600) * 1000;
  const refreshTtlMs = (options.refreshTokenTtlSeconds ?? 90 * 24 * 3600) * 1000;

  const shops = new Map<string, ShopState>();
  const accessTokens = new Map<string, AccessTokenRecord>();
  const refreshTokens = new Map<string, RefreshTokenRecord>();
  const codes = new Map<string, CodeRecord>();
  const callLog: ApiCall[] = [];
  const deliveries: WebhookAttempt[] = [];
  let clockOffsetMs = 0;
  let metafieldSeq = 1_000_000;
  let transactionSeq = 5_000_000;
  let faults: Required<Omit<Faults, 'seed'>> = {
    graphqlThrottledRate: 0,
    http429Rate: 0,
    http5xxRate: 0,
    http5xxStatus: 503,
  };
  let dice = mulberry32(1);

  const now = (): number => Date.now() + clockOffsetMs;

  function resolveNamespace(namespace: string | undefined): string {
    if (namespace === undefined || namespace === '$app') return appNamespace;
    if (namespace.startsWith('$app:')) return `${appNamespace}--${namespace.slice(5)}`;
    return namespace;
  }

  const definitions = new Map<string, string>(
    (options.metafieldDefinitions ?? []).map((d) => [`${resolveNamespace(d.namespace)}\0${d.key}`, d.type]),
  );

  function ensureShop(shop: string): ShopState {
    if (!SHOP_DOMAIN.test(shop)) throw new Error(`not a myshopify.com shop domain: ${shop}`);
    let state = shops.get(shop);
    if (!state) {
      state = { orders: new Map(), metafields: new Map(), refreshes: 0 };
      shops.set(shop, state);
    }
    return state;
  }

  function shopFromHeader(req: Request): string | undefined {
    const shop = req.get(SHOP_DOMAIN_HEADER)?.trim().toLowerCase();
    return shop && SHOP_DOMAIN.test(shop) ? shop : undefined;
  }

  // ── tokens ──

  function issueAccessToken(shop: string, scope: string, expiring: boolean, replaced?: string): string {
    const t = token('shpua_');
    accessTokens.set(t, {
      shop,
      scope,
      ...(expiring ? { expiresAt: now() + accessTtlMs } : {}),
      revoked: false,
      ...(replaced ? { replacedRefreshToken: replaced } : {}),
    });
    return t;
  }

  function issueExpiringPair(shop: string, scope: string, replaced?: string): Record<string, unknown> {
    const access = issueAccessToken(shop, scope, true, replaced);
    const refresh = token('shprt_');
    refreshTokens.set(refresh, { shop, scope, expiresAt: now() + refreshTtlMs, state: 'active', accessToken: access });
    return {
      access_token: access,
      scope,
      expires_in: accessTtlMs / 1000,
      refresh_token: refresh,
      refresh_token_expires_in: refreshTtlMs / 1000,
    };
  }

  function onlineTokenResponse(shop: string, scope: string, userId: number): Record<string, unknown> {
    const ttlSeconds = 86_399;
    const access = token('shpua_');
    accessTokens.set(access, { shop, scope, expiresAt: now() + ttlSeconds * 1000, revoked: false });
    return {
      access_token: access,
      scope,
      expires_in: ttlSeconds,
      associated_user_scope: scope,
      associated_user: {
        id: userId,
        first_name: 'Demo',
        last_name: 'Merchant',
        email: 'merchant@example.com',
        account_owner: true,
        locale: 'es',
        collaborator: false,
        email_verified: true,
      },
    };
  }

  /** The first use of a replacement pair retires the refresh token it replaced (grace mode). */
  function retireReplaced(record: AccessTokenRecord): void {
    if (!record.replacedRefreshToken) return;
    const old = refreshTokens.get(record.replacedRefreshToken);
    if (old) old.state = 'revoked';
    delete record.replacedRefreshToken;
  }

  function authenticate(req: Request): { shop: string; scope: string } | undefined {
    const presented = req.get('x-shopify-access-token');
    const record = presented ? accessTokens.get(presented) : undefined;
    if (!record || record.revoked) return undefined;
    if (record.expiresAt !== undefined && now() >= record.expiresAt) return undefined;
    const headerShop = shopFromHeader(req);
    if (headerShop && headerShop !== record.shop) return undefined;
    retireReplaced(record);
    return { shop: record.shop, scope: record.scope };
  }

  function refresh(presented: string, headerShop: string | undefined): Record<string, unknown> {
    const record = refreshTokens.get(presented);
    const invalid = (): OAuthError => new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    if (!record || now() >= record.expiresAt || (headerShop && headerShop !== record.shop)) throw invalid();
    if (record.state === 'revoked') throw invalid();
    if (record.state === 'superseded') {
      const successor = record.successor ? refreshTokens.get(record.successor) : undefined;
      if (!options.refreshTokenGrace || !successor || successor.state !== 'active') throw invalid();
      // The replacement was never used: hand out a new pair instead and drop the lost one.
      successor.state = 'revoked';
      const lostAccess = accessTokens.get(successor.accessToken);
      if (lostAccess) lostAccess.revoked = true;
    }
    const pair = issueExpiringPair(record.shop, record.scope, options.refreshTokenGrace ? presented : undefined);
    record.state = options.refreshTokenGrace ? 'superseded' : 'revoked';
    record.successor = str(pair['refresh_token']);
    // Using a refresh token also shows its own predecessor's replacement was received.
    const predecessorAccess = accessTokens.get(record.accessToken);
    if (predecessorAccess) retireReplaced(predecessorAccess);
    ensureShop(record.shop).refreshes++;
    return pair;
  }

  function exchangeCode(code: string | undefined, headerShop: string | undefined, expiring: boolean) {
    const record = code ? codes.get(code) : undefined;
    if (!record || record.used || now() >= record.expiresAt || (headerShop && headerShop !== record.shop)) {
      throw new OAuthError(400, 'invalid_request', 'The authorization code was not found or was already used');
    }
    record.used = true;
    if (record.online) return onlineTokenResponse(record.shop, record.scope, 1);
    if (expiring) return issueExpiringPair(record.shop, record.scope);
    return { access_token: issueAccessToken(record.shop, record.scope, false), scope: record.scope };
  }

  function tokenExchange(body: Record<string, unknown>, headerShop: string | undefined) {
    const subjectType = str(body['subject_token_type']);
    const subject = str(body['subject_token']) ?? '';
    const requested = str(body['requested_token_type']);
    const expiring = isTruthyFlag(body['expiring']);
    const bad = (why: string): OAuthError => new OAuthError(400, 'invalid_subject_token', why);

    if (subjectType === 'urn:shopify:params:oauth:token-type:offline-access-token') {
      // Migration of a non-expiring offline token; the old token stops working.
      const old = accessTokens.get(subject);
      if (!old || old.revoked || old.expiresAt !== undefined || (headerShop && headerShop !== old.shop)) {
        throw bad('Subject token is not a valid non-expiring offline access token.');
      }
      old.revoked = true;
      return issueExpiringPair(old.shop, old.scope);
    }
    if (subjectType !== 'urn:ietf:params:oauth:token-type:id_token') throw bad('Unsupported subject_token_type.');
    const claims = verifyJwt(subject, options.apiSecret);
    const dest = str(claims?.['dest']);
    const exp = Number(claims?.['exp']);
    const shop = dest?.replace(/^https:\/\//, '');
    if (!claims || claims['aud'] !== options.apiKey || !shop || !SHOP_DOMAIN.test(shop)) {
      throw bad('Session token is invalid.');
    }
    if (!(exp * 1000 > Date.now() - 10_000)) throw bad('Session token has expired.');
    if (headerShop && headerShop !== shop) throw bad('Session token is for another shop.');
    ensureShop(shop);
    const scope = 'read_orders,write_orders';
    if (requested === 'urn:shopify:params:oauth:token-type:online-access-token') {
      return onlineTokenResponse(shop, scope, Number(claims['sub']) || 1);
    }
    if (expiring) return issueExpiringPair(shop, scope);
    return { access_token: issueAccessToken(shop, scope, false), scope };
  }

  // ── GraphQL ──

  function graphqlCost(cost: number, available = 2000 - cost): Record<string, unknown> {
    return {
      cost: {
        requestedQueryCost: cost,
        actualQueryCost: cost,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 },
      },
    };
  }

  /** `metafield(namespace:, key:)` selections (aliases allowed) inside an order selection. */
  function metafieldReads(
    query: string,
    from: number,
    variables: Record<string, unknown>,
    shop: ShopState,
    gid: string,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const use of findFields(query.slice(from), 'metafield')) {
      const ns = resolveNamespace(str(argValue(use.args, 'namespace', variables)));
      const key = str(argValue(use.args, 'key', variables));
      const mf = key === undefined ? undefined : shop.metafields.get(gid)?.get(`${ns}\0${key}`);
      out[use.key] = mf ? metafieldNode(mf, gid) : null;
    }
    return out;
  }

  function metafieldNode(mf: MetafieldRecord, ownerGid: string): Record<string, unknown> {
    return {
      id: mf.id,
      namespace: mf.namespace,
      key: mf.key,
      type: mf.type,
      value: mf.value,
      compareDigest: digest(mf),
      ownerType: 'ORDER',
      owner: { id: ownerGid },
      createdAt: mf.createdAt,
      updatedAt: mf.updatedAt,
    };
  }

  function digest(mf: StoredMetafield): string {
    return createHash('sha256').update(`${mf.type}\0${mf.value}`).digest('base64url');
  }

  function orderNode(record: OrderRecord): Record<string, unknown> {
    const total = currentTotal(record.rest);
    const currency = total?.currency ?? str(record.rest['currency']) ?? null;
    return {
      id: record.gid,
      legacyResourceId: ORDER_GID.exec(record.gid)?.[1] ?? null,
      name: str(record.rest['name']) ?? null,
      createdAt: graphqlDateTime(record.rest['created_at']),
      updatedAt: graphqlDateTime(record.rest['updated_at']),
      processedAt: graphqlDateTime(record.rest['processed_at']),
      displayFinancialStatus: str(record.rest['financial_status'])?.toUpperCase() ?? null,
      test: record.rest['test'] === true,
      currencyCode: currency,
      currentTotalPriceSet: total ? { shopMoney: { amount: graphqlDecimal(total.cents), currencyCode: total.currency } } : null,
    };
  }

  function transactionNodes(record: OrderRecord): Record<string, unknown>[] {
    const currency = currentTotal(record.rest)?.currency ?? str(record.rest['currency']) ?? 'USD';
    return record.transactions.map((t) => {
      const cents = parseCents(t.amount);
      return {
        id: t.id,
        gateway: t.gateway,
        kind: t.kind ?? 'SALE',
        status: t.status ?? 'SUCCESS',
        processedAt: graphqlDateTime(record.rest['processed_at']),
        amountSet: {
          shopMoney: {
            amount: cents === undefined ? t.amount : graphqlDecimal(cents),
            currencyCode: t.currencyCode ?? currency,
          },
        },
      };
    });
  }

  type GraphqlAnswer = { status: number; body: Record<string, unknown>; outcome: CallOutcome };

  function answerOrder(query: string, use: FieldUse, variables: Record<string, unknown>, shop: ShopState): GraphqlAnswer {
    const id = str(argValue(use.args, 'id', variables));
    const record = id ? shop.orders.get(id) : undefined;
    if (!record) return { status: 200, body: { data: { [use.key]: null }, extensions: graphqlCost(1) }, outcome: 'ok' };
    const node = {
      ...orderNode(record),
      transactions: transactionNodes(record),
      ...metafieldReads(query, use.index, variables, shop, record.gid),
    };
    return { status: 200, body: { data: { [use.key]: node }, extensions: graphqlCost(3) }, outcome: 'ok' };
  }

  function answerOrders(query: string, use: FieldUse, variables: Record<string, unknown>, shop: ShopState): GraphqlAnswer {
    const first = argValue(use.args, 'first', variables);
    const after = str(argValue(use.args, 'after', variables));
    const search = str(argValue(use.args, 'query', variables)) ?? '';
    const reverse = argValue(use.args, 'reverse', variables) === true;
    const error = (message: string): GraphqlAnswer => ({
      status: 200,
      body: { errors: [{ message, path: [use.key] }] },
      outcome: 'graphql_errors',
    });
    if (typeof first !== 'number' || !Number.isInteger(first) || first < 0) {
      return error('you must provide one of first or last');
    }
    if (first > 250) return error('The requested first value is over the 250 maximum.');

    const matching = [...shop.orders.values()].filter(orderFilter(search));
    matching.sort((a, b) => {
      const byTime = (Date.parse(str(a.rest['created_at']) ?? '') || 0) - (Date.parse(str(b.rest['created_at']) ?? '') || 0);
      return byTime !== 0 ? byTime : Number(ORDER_GID.exec(a.gid)?.[1]) - Number(ORDER_GID.exec(b.gid)?.[1]);
    });
    if (reverse) matching.reverse();
    let start = 0;
    if (after !== undefined) {
      const gid = decodeCursor(after);
      const at = matching.findIndex((o) => o.gid === gid);
      if (at < 0) return error('Invalid cursor for current pagination.');
      start = at + 1;
    }
    const page = matching.slice(start, start + first);
    const edges = page.map((o) => ({
      cursor: encodeCursor(o.gid),
      node: { ...orderNode(o), ...metafieldReads(query, use.index, variables, shop, o.gid) },
    }));
    const last = edges.at(-1);
    return {
      status: 200,
      body: {
        data: {
          [use.key]: {
            edges,
            pageInfo: {
              hasNextPage: start + first < matching.length,
              hasPreviousPage: start > 0,
              startCursor: edges[0]?.cursor ?? null,
              endCursor: last?.cursor ?? null,
            },
          },
        },
        extensions: graphqlCost(2 + page.length),
      },
      outcome: 'ok',
    };
  }

  function answerMetafieldsSet(use: FieldUse, variables: Record<string, unknown>, shop: ShopState): GraphqlAnswer {
    const arg = use.args.get('metafields');
    if (!arg || !('variable' in arg)) {
      return {
        status: 200,
        body: { errors: [{ message: 'Store simulator reads metafieldsSet(metafields: $variable) only.' }] },
        outcome: 'graphql_errors',
      };
    }
    const inputs = variables[arg.variable];
    const variableError = (path: (string | number)[], explanation: string): GraphqlAnswer => ({
      status: 200,
      body: {
        errors: [
          {
            message: `Variable $${arg.variable} of type [MetafieldsSetInput!]! was provided invalid value${path.length ? ` for ${path.join('.')}` : ''} (${explanation})`,
            extensions: { code: 'INVALID_VARIABLE', problems: [{ path, explanation }] },
          },
        ],
      },
      outcome: 'graphql_errors',
    });
    if (!Array.isArray(inputs)) return variableError([], 'Expected value to be a list');
    for (const [i, input] of inputs.entries()) {
      if (!isRecord(input)) return variableError([i], 'Expected value to be an object');
      for (const field of ['ownerId', 'key', 'value'] as const) {
        if (typeof input[field] !== 'string') {
          return variableError([i, field], input[field] == null ? 'Expected value to not be null' : 'Could not coerce value to String');
        }
      }
      for (const field of ['namespace', 'type'] as const) {
        if (input[field] != null && typeof input[field] !== 'string') return variableError([i, field], 'Could not coerce value to String');
      }
    }
    const typed = inputs as Record<string, unknown>[];

    const userErrors: { field: string[]; message: string; code: string }[] = [];
    if (typed.length > MAX_METAFIELDS_PER_CALL) {
      userErrors.push({
        field: ['metafields'],
        message: `Exceeded the maximum metafields input limit of ${MAX_METAFIELDS_PER_CALL}.`,
        code: 'LESS_THAN_OR_EQUAL_TO',
      });
    }
    const planned: { gid: string; namespace: string; key: string; type: string; value: string }[] = [];
    typed.forEach((input, i) => {
      const err = (field: string, message: string, code: string): void => {
        userErrors.push({ field: ['metafields', String(i), field], message, code });
      };
      const before = userErrors.length;
      const ownerId = input['ownerId'] as string;
      const key = input['key'] as string;
      const value = input['value'] as string;
      const rawNamespace = input['namespace'] as string | undefined | null;

      if (!ORDER_GID.test(ownerId) || !shop.orders.has(ownerId)) err('ownerId', 'Owner does not exist.', 'INVALID');
      if (key.length < 2) err('key', 'Key is too short (minimum is 2 characters)', 'TOO_SHORT');
      else if (key.length > 64) err('key', 'Key is too long (maximum is 64 characters)', 'TOO_LONG');
      else if (!METAFIELD_KEY.test(key)) {
        err(
          'key',
          'Key contains one or more invalid characters. Only alphanumeric characters, underscores, and dashes are allowed.',
          'INVALID',
        );
      }
      if (rawNamespace != null && !rawNamespace.startsWith('$app')) {
        if (rawNamespace.length < 3) err('namespace', 'Namespace is too short (minimum is 3 characters)', 'TOO_SHORT');
        else if (rawNamespace.length > 255) err('namespace', 'Namespace is too long (maximum is 255 characters)', 'TOO_LONG');
      }
      const namespace = resolveNamespace(rawNamespace ?? undefined);
      const defined = definitions.get(`${namespace}\0${key}`);
      const type = (input['type'] as string | undefined | null) ?? defined;
      if (value === '') err('value', "Value can't be blank.", 'BLANK');
      else if (type === undefined) err('type', "Type can't be blank.", 'BLANK');
      else if (!isKnownMetafieldType(type)) err('type', `Type '${type}' is not a valid metafield type.`, 'INVALID_TYPE');
      else if (defined !== undefined && defined !== type) {
        err('type', `Type '${type}' does not match the definition's type '${defined}'.`, 'INVALID_TYPE');
      } else {
        const problem = valueProblem(type, value);
        if (problem) err('value', problem, 'INVALID_VALUE');
      }
      if ('compareDigest' in input && userErrors.length === before && type !== undefined) {
        const existing = shop.metafields.get(ownerId)?.get(`${namespace}\0${key}`);
        const wanted = input['compareDigest'];
        const current = existing ? digest(existing) : null;
        if (wanted !== undefined && wanted !== current) {
          err(
            'compareDigest',
            'The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.',
            'INVALID_COMPARE_DIGEST',
          );
        }
      }
      if (userErrors.length === before && type !== undefined) planned.push({ gid: ownerId, namespace, key, type, value });
    });

    if (userErrors.length > 0) {
      return {
        status: 200,
        body: { data: { [use.key]: { metafields: [], userErrors } }, extensions: graphqlCost(10) },
        outcome: 'user_errors',
      };
    }
    const stamp = new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const written = planned.map((p) => {
      let byKey = shop.metafields.get(p.gid);
      if (!byKey) shop.metafields.set(p.gid, (byKey = new Map()));
      const existing = byKey.get(`${p.namespace}\0${p.key}`);
      const record: MetafieldRecord = existing
        ? { ...existing, type: p.type, value: p.value, updatedAt: stamp }
        : {
            id: `gid://shopify/Metafield/${++metafieldSeq}`,
            namespace: p.namespace,
            key: p.key,
            type: p.type,
            value: p.value,
            createdAt: stamp,
            updatedAt: stamp,
          };
      byKey.set(`${p.namespace}\0${p.key}`, record);
      return metafieldNode(record, p.gid);
    });
    return {
      status: 200,
      body: { data: { [use.key]: { metafields: written, userErrors: [] } }, extensions: graphqlCost(10) },
      outcome: 'ok',
    };
  }

  function rollFault(graphql: boolean): 'http_5xx' | 'http_429' | 'throttled' | undefined {
    const roll = dice();
    if (roll < faults.http5xxRate) return 'http_5xx';
    if (roll < faults.http5xxRate + faults.http429Rate) return 'http_429';
    if (graphql && roll < faults.http5xxRate + faults.http429Rate + faults.graphqlThrottledRate) return 'throttled';
    return undefined;
  }

  function sendFault(res: Response, fault: 'http_5xx' | 'http_429' | 'throttled'): number {
    if (fault === 'http_5xx') {
      res.status(faults.http5xxStatus).json({ errors: 'Service Unavailable' });
      return faults.http5xxStatus;
    }
    if (fault === 'http_429') {
      res
        .status(429)
        .set('Retry-After', '1')
        .json({ errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' });
      return 429;
    }
    res.status(200).json({
      errors: [
        {
          message: 'Throttled',
          extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
        },
      ],
      extensions: graphqlCost(10, 0),
    });
    return 200;
  }

  function logCall(operation: string, shop: string, variables: Record<string, unknown>, status: number, outcome: CallOutcome): void {
    callLog.push({ operation, shop, variables: structuredClone(variables), at: new Date().toISOString(), status, outcome });
  }

  // ── HTTP app ──

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.get('/admin/oauth/authorize', (req, res) => {
    const q = req.query as Record<string, unknown>;
    const shop = shopFromHeader(req) ?? str(q['shop'])?.toLowerCase();
    const redirectUri = str(q['redirect_uri']);
    const fail = (description: string): void => {
      res.status(400).json({ error: 'invalid_request', error_description: description });
    };
    if (!shop || !SHOP_DOMAIN.test(shop)) return fail('Unknown shop domain.');
    if (str(q['client_id']) !== options.apiKey) return fail('Invalid client_id.');
    if (!redirectUri || !/^https?:\/\//.test(redirectUri) || (options.redirectUrls && !options.redirectUrls.includes(redirectUri))) {
      return fail('The redirect_uri is missing or not whitelisted.');
    }
    ensureShop(shop);
    const code = randomBytes(16).toString('hex');
    const scope = str(q['scope']) ?? '';
    codes.set(code, { shop, scope, online: str(q['grant_options[]']) === 'per-user', expiresAt: now() + 10 * 60_000, used: false });

    const params: Record<string, string> = {
      code,
      host: Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, '')}`).toString('base64'),
      shop,
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    const state = str(q['state']);
    if (state !== undefined) params['state'] = state;
    params['hmac'] = oauthQueryHmac(params, options.apiSecret);
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    res.redirect(302, target.href);
  });

  app.post('/admin/oauth/access_token', express.json(), express.urlencoded({ extended: false }), (req, res) => {
    const body: Record<string, unknown> = isRecord(req.body) ? req.body : {};
    const headerShop = shopFromHeader(req);
    try {
      const clientId = str(body['client_id']);
      const secret = str(body['client_secret']) ?? '';
      if (clientId !== options.apiKey || !safeEqual(secret, options.apiSecret)) {
        throw new OAuthError(
          401,
          'invalid_client',
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
        );
      }
      const grant = str(body['grant_type']) ?? 'authorization_code';
      let answer: Record<string, unknown>;
      if (grant === 'authorization_code') answer = exchangeCode(str(body['code']), headerShop, isTruthyFlag(body['expiring']));
      else if (grant === 'refresh_token') answer = refresh(str(body['refresh_token']) ?? '', headerShop);
      else if (grant === 'urn:ietf:params:oauth:grant-type:token-exchange') answer = tokenExchange(body, headerShop);
      else if (grant === 'client_credentials') {
        if (!headerShop) throw new OAuthError(400, 'invalid_request', 'Unknown shop.');
        ensureShop(headerShop);
        const scope = 'read_orders,write_orders';
        const access = token('shpat_');
        accessTokens.set(access, { shop: headerShop, scope, expiresAt: now() + 86_399_000, revoked: false });
        answer = { access_token: access, scope, expires_in: 86_399 };
      } else throw new OAuthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported.');
      res.status(200).json(answer);
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      res.status(e.status).json({ error: e.code, error_description: e.message });
    }
  });

  app.post('/admin/api/:version/graphql.json', express.json({ limit: '10mb' }), (req, res) => {
    const body: Record<string, unknown> = isRecord(req.body) ? req.body : {};
    const variables = isRecord(body['variables']) ? body['variables'] : {};
    const query = typeof body['query'] === 'string' ? stripComments(body['query']) : '';
    const metafieldsSet = findField(query, 'metafieldsSet');
    const orders = metafieldsSet ? undefined : findField(query, 'orders');
    const order = metafieldsSet || orders ? undefined : findField(query, 'order');
    const operation = metafieldsSet ? 'metafieldsSet' : orders ? 'orders' : order ? 'order' : 'unknown';

    res.set('X-Shopify-API-Version', req.params.version);
    const auth = authenticate(req);
    if (!auth) {
      logCall(operation, shopFromHeader(req) ?? '', variables, 401, 'unauthorized');
      res.status(401).json(INVALID_TOKEN_BODY);
      return;
    }
    const fault = rollFault(true);
    if (fault) {
      logCall(operation, auth.shop, variables, sendFault(res, fault), fault);
      return;
    }
    if (!query) {
      logCall(operation, auth.shop, variables, 400, 'graphql_errors');
      res.status(400).json({ errors: { query: 'Required parameter missing or invalid' } });
      return;
    }
    const scopes = auth.scope.split(',').map((s) => s.trim());
    const canRead = scopes.includes('read_orders') || scopes.includes('write_orders');
    const allowed = metafieldsSet ? scopes.includes('write_orders') : canRead;
    const shop = ensureShop(auth.shop);
    let answer: GraphqlAnswer;
    if (!allowed) {
      answer = {
        status: 200,
        body: { errors: [{ message: `Access denied for ${operation} field.`, extensions: { code: 'ACCESS_DENIED' } }] },
        outcome: 'graphql_errors',
      };
    } else if (metafieldsSet) answer = answerMetafieldsSet(metafieldsSet, variables, shop);
    else if (orders) answer = answerOrders(query, orders, variables, shop);
    else if (order) answer = answerOrder(query, order, variables, shop);
    else {
      answer = {
        status: 200,
        body: { errors: [{ message: 'Store simulator answers metafieldsSet, order(id:) and orders(...) only.' }] },
        outcome: 'graphql_errors',
      };
    }
    logCall(operation, auth.shop, variables, answer.status, answer.outcome);
    res.status(answer.status).json(answer.body);
  });

  app.get('/admin/api/:version/orders/:file', (req, res) => {
    const id = /^(\d+)\.json$/.exec(req.params.file)?.[1];
    const variables = { id: id ?? req.params.file };
    res.set('X-Shopify-API-Version', req.params.version);
    const auth = authenticate(req);
    if (!auth) {
      logCall('rest:order', shopFromHeader(req) ?? '', variables, 401, 'unauthorized');
      res.status(401).json(INVALID_TOKEN_BODY);
      return;
    }
    const fault = rollFault(false);
    if (fault) {
      logCall('rest:order', auth.shop, variables, sendFault(res, fault), fault);
      return;
    }
    const found = id ? ensureShop(auth.shop).orders.get(`gid://shopify/Order/${id}`) : undefined;
    if (!found) {
      logCall('rest:order', auth.shop, variables, 404, 'not_found');
      res.status(404).json({ errors: 'Not Found' });
      return;
    }
    logCall('rest:order', auth.shop, variables, 200, 'ok');
    res.status(200).json({ order: found.rest });
  });

  if (options.controlApi) mountControlApi(app, () => simulator);

  app.use((_req, res) => {
    res.status(404).json({ errors: 'Not Found' });
  });
  // JSON answers for malformed bodies too, never Express's HTML page.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = isRecord(err) && typeof err['status'] === 'number' ? err['status'] : 500;
    res.status(status).json({ errors: status === 500 ? 'Internal Server Error' : 'Bad Request' });
  });

  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  // ── webhooks ──

  async function deliver(
    opts: WebhookOptions,
    attempt: number,
    ids: { webhookId: string; eventId: string; triggeredAt: string },
    timeoutMs?: number,
  ): Promise<WebhookAttempt> {
    const body = typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': opts.topic,
      'X-Shopify-Hmac-Sha256': webhookHmac(body, opts.secret ?? options.apiSecret),
      'X-Shopify-Shop-Domain': opts.shop,
      'X-Shopify-API-Version': opts.apiVersion ?? apiVersion,
      'X-Shopify-Webhook-Id': ids.webhookId,
      'X-Shopify-Event-Id': ids.eventId,
      'X-Shopify-Triggered-At': ids.triggeredAt,
    };
    const omit = new Set((opts.omitHeaders ?? []).map((h) => h.toLowerCase()));
    for (const name of Object.keys(headers)) if (omit.has(name.toLowerCase())) delete headers[name];

    const started = performance.now();
    let result: WebhookResult;
    try {
      const response = await fetch(opts.address, {
        method: 'POST',
        headers,
        body,
        // Shopify counts a redirect as a failed delivery.
        redirect: 'manual',
        ...(timeoutMs !== undefined ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
      });
      const text = await response.text();
      result = { status: response.status, body: text, durationMs: performance.now() - started, timedOut: false };
    } catch (e) {
      const name = isRecord(e) ? e['name'] : undefined;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      result = {
        status: 0,
        body: '',
        durationMs: performance.now() - started,
        timedOut,
        error: e instanceof Error ? e.message : String(e),
      };
    }
    const entry: WebhookAttempt = {
      ...result,
      address: opts.address,
      topic: opts.topic,
      shop: opts.shop,
      webhookId: ids.webhookId,
      eventId: ids.eventId,
      attempt,
      at: new Date().toISOString(),
    };
    deliveries.push(entry);
    return entry;
  }

  function deliveryIds(opts: WebhookOptions): { webhookId: string; eventId: string; triggeredAt: string } {
    return {
      webhookId: opts.webhookId ?? randomUUID(),
      eventId: opts.eventId ?? randomUUID(),
      triggeredAt: opts.triggeredAt ?? new Date().toISOString(),
    };
  }

  function stripAttempt(a: WebhookAttempt): WebhookResult {
    return {
      status: a.status,
      body: a.body,
      durationMs: a.durationMs,
      timedOut: a.timedOut,
      ...(a.error !== undefined ? { error: a.error } : {}),
    };
  }

  const simulator: StoreSimulator = {
    origin,

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },

    addShop(shop, opts = {}) {
      ensureShop(shop);
      const accessToken = opts.accessToken ?? token('shpat_');
      accessTokens.set(accessToken, { shop, scope: opts.scope ?? 'read_orders,write_orders', revoked: false });
      return { accessToken };
    },

    uninstallShop(shop) {
      for (const t of accessTokens.values()) if (t.shop === shop) t.revoked = true;
      for (const r of refreshTokens.values()) if (r.shop === shop) r.state = 'revoked';
    },

    refreshCount: (shop) => shops.get(shop)?.refreshes ?? 0,

    sessionToken(shop, opts = {}) {
      const issued = Math.floor(Date.now() / 1000);
      return signJwt(
        {
          iss: `https://${shop}/admin`,
          dest: `https://${shop}`,
          aud: options.apiKey,
          sub: String(opts.userId ?? 1),
          exp: issued + (opts.expiresInSeconds ?? 60),
          nbf: issued - 5,
          iat: issued,
          jti: randomUUID(),
          sid: randomUUID(),
        },
        options.apiSecret,
      );
    },

    advanceClock(ms) {
      clockOffsetMs += ms;
    },

    setOrder(shop, order, opts = {}) {
      const state = ensureShop(shop);
      const gid = orderGidOf(order);
      const transactions = opts.transactions ? [...opts.transactions] : defaultTransactions(order);
      for (const t of transactions) {
        if (parseCents(t.amount) === undefined) throw new Error(`transaction amount is not a decimal: ${t.amount}`);
      }
      const withIds = transactions.map((t) => ({ ...t, id: `gid://shopify/OrderTransaction/${++transactionSeq}` }));
      state.orders.set(gid, { gid, rest: structuredClone(order), transactions: withIds });
      return gid;
    },

    metafields(orderGid, shop) {
      const states = shop ? [shops.get(shop)] : [...shops.values()];
      for (const state of states) {
        const byKey = state?.metafields.get(orderGid);
        if (byKey) return [...byKey.values()].map(({ namespace, key, type, value }) => ({ namespace, key, type, value }));
      }
      return [];
    },

    calls: () => callLog.map((c) => ({ ...c })),

    setFaults(f) {
      faults = {
        graphqlThrottledRate: f.graphqlThrottledRate ?? 0,
        http429Rate: f.http429Rate ?? 0,
        http5xxRate: f.http5xxRate ?? 0,
        http5xxStatus: f.http5xxStatus ?? 503,
      };
      dice = mulberry32(f.seed ?? 1);
    },

    async sendWebhook(opts) {
      return stripAttempt(await deliver(opts, 1, deliveryIds(opts), opts.timeoutMs));
    },

    async deliverWithRetries(opts, policy = {}) {
      const retries = policy.retries ?? 8;
      const timeoutMs = policy.timeoutMs ?? 5000;
      const backoff = policy.backoffMs ?? 0;
      // Retries carry the original payload and ids (what Shopify documents for the payload).
      const ids = deliveryIds(opts);
      const attempts: WebhookAttempt[] = [];
      for (let attempt = 1; attempt <= retries + 1; attempt++) {
        if (attempt > 1) {
          const wait = typeof backoff === 'number' ? backoff : (backoff[Math.min(attempt - 2, backoff.length - 1)] ?? 0);
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        const a = await deliver(opts, attempt, ids, timeoutMs);
        attempts.push(a);
        if (a.status >= 200 && a.status < 300) return { delivered: true, attempts };
      }
      return { delivered: false, attempts };
    },

    async orderPaid(shop, order, address, overrides = {}) {
      simulator.setOrder(shop, order);
      return simulator.sendWebhook({ topic: 'orders/paid', ...overrides, address, shop, payload: order });
    },

    webhookLog: () => deliveries.map((d) => ({ ...d })),

    resetLogs() {
      callLog.length = 0;
      deliveries.length = 0;
    },
  };
  return simulator;
}

// ── the control API (opt-in), a thin JSON face of the StoreSimulator methods ──

function mountControlApi(app: express.Express, sim: () => StoreSimulator): void {
  const control = express.Router();
  control.use(express.json({ limit: '10mb' }));
  const body = (req: Request): Record<string, unknown> => (isRecord(req.body) ? req.body : {});
  const orderInput = (b: Record<string, unknown>) => {
    const shop = str(b['shop']);
    const order = b['order'];
    if (!shop || !isRecord(order)) throw new ControlError('shop (string) and order (object) are required');
    const transactions = Array.isArray(b['transactions']) ? (b['transactions'] as SimTransaction[]) : undefined;
    return { shop, order, ...(transactions ? { transactions } : {}) };
  };
  const webhookInput = (b: Record<string, unknown>): WebhookOptions => {
    const address = str(b['address']);
    const topic = str(b['topic']);
    const shop = str(b['shop']);
    const payload = b['payload'];
    if (!address || !topic || !shop || (typeof payload !== 'string' && !isRecord(payload))) {
      throw new ControlError('address, topic, shop (strings) and payload (object or string) are required');
    }
    const opt = (k: string) => (str(b[k]) !== undefined ? { [k]: str(b[k]) } : {});
    return { address, topic, shop, payload, ...opt('webhookId'), ...opt('eventId'), ...opt('triggeredAt'), ...opt('apiVersion') };
  };

  control.put('/orders', (req, res) => {
    const { shop, order, transactions } = orderInput(body(req));
    res.json({ orderGid: sim().setOrder(shop, order, transactions ? { transactions } : {}) });
  });
  control.post('/orders/paid', async (req, res) => {
    const b = body(req);
    const { shop, order, transactions } = orderInput(b);
    const address = str(b['address']);
    if (!address) throw new ControlError('address (the app webhook URL) is required');
    const orderGid = sim().setOrder(shop, order, transactions ? { transactions } : {});
    const delivery = await sim().sendWebhook(webhookInput({ ...b, topic: 'orders/paid', payload: order }));
    res.json({ orderGid, delivery });
  });
  control.post('/webhooks', async (req, res) => {
    res.json(await sim().sendWebhook(webhookInput(body(req))));
  });
  control.get('/metafields', (req, res) => {
    const order = str(req.query['order']);
    if (!order) throw new ControlError('order (a GID) is required');
    res.json({ metafields: sim().metafields(order, str(req.query['shop'])) });
  });
  control.get('/calls', (_req, res) => {
    res.json({ calls: sim().calls() });
  });
  control.get('/webhook-log', (_req, res) => {
    res.json({ attempts: sim().webhookLog() });
  });
  control.post('/faults', (req, res) => {
    const b = body(req);
    const num = (k: string) => (typeof b[k] === 'number' ? { [k]: b[k] } : {});
    sim().setFaults({
      ...num('graphqlThrottledRate'),
      ...num('http429Rate'),
      ...num('http5xxRate'),
      ...num('http5xxStatus'),
      ...num('seed'),
    });
    res.json({ ok: true });
  });
  // Everything a control route throws comes from its input (setOrder's checks included).
  control.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof Error)) return next(err);
    res.status(400).json({ error: err instanceof ControlError || !isRecord(err) || !('status' in err) ? err.message : 'Bad Request' });
  });
  app.use('/_simulator', control);
}

class ControlError extends Error {}

// ── query filters for orders(query:) ──

function orderFilter(search: string): (o: OrderRecord) => boolean {
  const terms = [...search.matchAll(/(\w+):(>=|<=|>|<)?('[^']*'|"[^"]*"|\S+)/g)].map((m) => ({
    field: (m[1] ?? '').toLowerCase(),
    op: m[2] ?? '=',
    value: (m[3] ?? '').replace(/^['"]|['"]$/g, ''),
  }));
  // Without a financial_status term the sweep sees paid orders only (the simulator's convention).
  const statusTerms = terms.filter((t) => t.field === 'financial_status');
  return (o) => {
    const status = str(o.rest['financial_status'])?.toLowerCase();
    if (
      statusTerms.length === 0
        ? status !== 'paid'
        : !statusTerms.some((t) => t.value.toLowerCase() === 'any' || t.value.toLowerCase() === status)
    ) {
      return false;
    }
    for (const t of terms) {
      if (t.field !== 'created_at' && t.field !== 'updated_at' && t.field !== 'processed_at') continue;
      const have = Date.parse(str(o.rest[t.field]) ?? '');
      const want = Date.parse(t.value);
      if (Number.isNaN(want)) continue;
      if (Number.isNaN(have)) return false;
      const ok =
        t.op === '>='
          ? have >= want
          : t.op === '<='
            ? have <= want
            : t.op === '>'
              ? have > want
              : t.op === '<'
                ? have < want
                : have === want;
      if (!ok) return false;
    }
    return true;
  };
}

function encodeCursor(gid: string): string {
  return Buffer.from(JSON.stringify({ last_id: gid })).toString('base64url');
}

function decodeCursor(cursor: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return isRecord(parsed) ? str(parsed['last_id']) : undefined;
  } catch {
    return undefined;
  }
}
