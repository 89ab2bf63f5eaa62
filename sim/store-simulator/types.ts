// The store simulator's public face: its options, the data it takes and gives back, and the `StoreSimulator`
// interface that tests, the demo and the bench drive.
import type { ReceivedFlowTrigger } from './flow-triggers.ts';

export type { ReceivedFlowTrigger };

export interface StoreSimulatorOptions {
  apiKey: string;
  apiSecret: string;
  /** Version sent in webhook headers. Default '2026-10'. */
  apiVersion?: string;
  /** Default 0 (any free port). Always binds 127.0.0.1. */
  port?: number;
  /** Numeric app id: the `$app` namespace is stored as `app--<appId>` like Shopify does. Default '1000001'. */
  appId?: string;
  /**
   * The app's declared access scopes (shopify.app.toml `[access_scopes] scopes`): what a Shopify-managed
   * installation (token exchange) grants. Default 'read_orders,write_orders'.
   */
  scopes?: string;
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
   * Mount JSON control endpoints under `/_simulator/` so another process (the demo driver) can drive it
   * (see control-api.ts for the list). They never return tokens. Default false.
   */
  controlApi?: boolean;
  /** Where the app's extensions are (each flow_trigger one is a trigger flowTriggerReceive takes). Default: the repository's extensions/. */
  extensionsDir?: string;
}

export interface MetafieldDefinition {
  /** `$app`, `$app:sub` or a plain namespace. */
  namespace: string;
  key: string;
  type: string;
}

/** A REST Admin Order as Shopify serializes it in webhooks (`{ id, name, line_items, … }`). */
export type RestOrder = Record<string, unknown>;

/** A REST Refund as Shopify sends it in `refunds/create` (`{ id, order_id, refund_line_items, transactions, … }`). */
export type RestRefund = Record<string, unknown>;

/** A transaction to answer for `order.transactions`. */
export interface SimTransaction {
  gateway: string;
  /** GraphQL OrderTransactionKind. Default 'SALE'. */
  kind?: string;
  /** GraphQL OrderTransactionStatus. Default 'SUCCESS'. */
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

export interface CompanyLocationOptions {
  /** The name of the location's company (GraphQL `Company.name`). Default: the order's REST `company.name`. */
  companyName?: string;
  /** GraphQL `CompanyLocation.name`. Default: the company's name. */
  locationName?: string;
  /** Default false. */
  taxExempt?: boolean;
}

export type CallOutcome = 'ok' | 'user_errors' | 'graphql_errors' | 'throttled' | 'http_429' | 'http_5xx' | 'unauthorized' | 'not_found';

export interface ApiCall {
  /**
   * The root fields of the GraphQL operation ('metafieldsSet', 'order', 'orders', 'customer', 'refund'; several
   * joined by ','), 'rest:order', or 'unknown' when the query does not parse.
   */
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

/** What `orderPaid` and `refundCreated` let a test choose about the delivery. */
export type DeliveryOverrides = Partial<Omit<WebhookOptions, 'address' | 'shop' | 'payload'>>;

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
  /** `name`: the shop's name in GraphQL `shop { name }` (default: its handle). */
  addShop(shop: string, options?: { accessToken?: string; scope?: string; name?: string; email?: string }): { accessToken: string };
  /** Revoke every token of the shop (what uninstalling does). */
  uninstallShop(shop: string): void;
  /** The scopes the shop granted the app (addShop, code grant or token exchange), or undefined when not installed. */
  installation(shop: string): { scope: string } | undefined;
  /** Successful `grant_type=refresh_token` exchanges for the shop. */
  refreshCount(shop: string): number;
  /** An App Bridge session token (HS256 id_token signed with the app secret), as the admin hands the app's page. */
  sessionToken(shop: string, options?: { userId?: number; expiresInSeconds?: number }): Promise<string>;
  /** Move the simulator's clock (token expiry) forward without waiting. */
  advanceClock(ms: number): void;

  /** Register or replace an order; returns its GID. */
  setOrder(shop: string, order: RestOrder, options?: { transactions?: readonly SimTransaction[] }): string;
  /**
   * Edit a stored order as a merchant would in the admin (e.g. `note_attributes`, `customer`, `billing_address`):
   * top-level keys of `patch` replace the order's; `updated_at` moves to the simulator's clock unless given.
   */
  updateOrder(shop: string, orderGid: string, patch: RestOrder): void;
  /** The stored REST order (a copy), or undefined. */
  order(shop: string, orderGid: string): RestOrder | undefined;
  /**
   * Store a refund on its order: the REST order's `refunds[]`, `financial_status` partially_refunded / refunded,
   * GraphQL `refund(id:)` and `order.refunds`. Returns the refund GID.
   */
  addRefund(shop: string, orderGid: string, refund: RestRefund): string;
  setCustomerMetafield(shop: string, customerGid: string, namespace: string, key: string, value: string, type?: string): void;
  /** GraphQL `Customer.locale`; default the order's `customer_locale`, else 'es'. */
  setCustomerLocale(shop: string, customerGid: string, locale: string): void;
  /** The B2B tax id answered through `order.purchasingEntity` for orders whose `company.location_id` is this location. */
  setCompanyLocationTaxId(shop: string, locationGid: string, taxRegistrationId: string | null, options?: CompanyLocationOptions): void;
  /**
   * A location of the shop (GraphQL `locations`, `location(id:)`; read_locations): its numeric id (given, or made)
   * is what an order sold there carries as `location_id`.
   */
  addLocation(shop: string, location: { name: string; id?: number; active?: boolean }): { id: number; gid: string };
  /** Metafields written on an order (or customer), in first-write order. */
  metafields(ownerGid: string, shop?: string): StoredMetafield[];
  calls(): ApiCall[];
  setFaults(faults: Faults): void;

  sendWebhook(options: WebhookOptions): Promise<WebhookResult>;
  deliverWithRetries(options: WebhookOptions, policy?: RetryPolicy): Promise<DeliveryOutcome>;
  /** `setOrder` then send `orders/paid` with the order as body. */
  orderPaid(shop: string, order: RestOrder, address: string, overrides?: DeliveryOverrides): Promise<WebhookResult>;
  /**
   * Store the refund on the order named by its `order_id` (unless that very refund is already stored), then send
   * it as `refunds/create` the way `orderPaid` sends `orders/paid`.
   */
  refundCreated(shop: string, refund: RestRefund, address: string, overrides?: DeliveryOverrides): Promise<WebhookResult>;
  /**
   * Refund as a merchant would in the admin (lines, shipping, an amount, …): the body is computed the way Shopify
   * computes it from the stored order and its earlier refunds (refund-payload.ts), stored and sent as refunds/create.
   */
  refund(
    shop: string,
    orderGid: string,
    request: RefundRequest,
    address: string,
    overrides?: DeliveryOverrides,
  ): Promise<{ refund: RestRefund; delivery: WebhookResult }>;
  webhookLog(): WebhookAttempt[];
  /** The Flow triggers Shopify took (flowTriggerReceive without userErrors), in order; of one shop when given. */
  flowTriggers(shop?: string): ReceivedFlowTrigger[];
  resetLogs(): void;
}

/** What a merchant refunds on the order's page (refund-payload.ts builds the webhook body of it). Amounts are cents. */
export type RestockType = 'no_restock' | 'cancel' | 'return';

export interface RefundRequest {
  /** Order lines by their REST id, with the units to refund. */
  lines?: { lineItemId: number | string; quantity: number; restockType?: RestockType; locationId?: number }[];
  /** Every shipping line's remaining amount, or an amount (cents) of the first shipping line that still has it. */
  shipping?: 'full' | { amount: number };
  /** Money with no line (a goodwill refund, cents), and the adjustment's reason. */
  amountOnly?: { amount: number; reason?: string };
  /** Refund the order's tip. */
  tip?: boolean;
  /** Return no money for the lines (restock only): a positive discrepancy and no transaction. */
  noMoney?: boolean;
  /** Default: the order's first payment gateway. */
  gateway?: string;
  /** Default 'success'. */
  status?: 'success' | 'pending';
  /** Refund id; default derived from the order id and the number of earlier refunds. */
  id?: number;
  /** Default: the order's `processed_at`. */
  createdAt?: string;
  note?: string;
  userId?: number;
}
