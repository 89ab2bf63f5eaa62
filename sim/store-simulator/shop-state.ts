// What the simulated shops hold: orders with their transactions and refunds, customers, B2B company
// locations and metafields, plus the simulator's clock and id sequences. Every change a test makes through
// the StoreSimulator interface lands here, and the Admin API answers from here.

import type { FlowTriggerDefinition } from './flow-extensions.ts';
import type { ReceivedFlowTrigger } from './flow-triggers.ts';
import { centsOf } from './cents.ts';
import { type MetafieldRecord, type MetafieldStore, isKnownMetafieldType, valueProblem, writeMetafield } from './metafields.ts';
import { defaultTransactions, originalTotal, refundedCents } from './rest-money.ts';
import { SHOP_DOMAIN, gidOf, isRecord, orderGidOf, records, restGid, restTimestamp, str } from './rest-values.ts';
import type { CompanyLocationOptions, MetafieldDefinition, RestOrder, RestRefund, SimTransaction } from './types.ts';

export const TRANSACTION_KINDS = ['AUTHORIZATION', 'CAPTURE', 'CHANGE', 'EMV_AUTHORIZATION', 'REFUND', 'SALE', 'SUGGESTED_REFUND', 'VOID'];
export const TRANSACTION_STATUSES = ['AWAITING_RESPONSE', 'ERROR', 'FAILURE', 'PENDING', 'SUCCESS', 'UNKNOWN'];

export interface TransactionRecord {
  id: string;
  gateway: string;
  kind: string;
  status: string;
  amount: string;
  currencyCode?: string;
}

export interface OrderRecord {
  gid: string;
  /** The REST order as Shopify would serve it now: edits and refunds included. */
  rest: RestOrder;
  transactions: TransactionRecord[];
}

export interface CustomerRecord {
  gid: string;
  /** The latest REST customer object seen on one of the shop's orders. */
  rest: Record<string, unknown>;
  locale?: string;
  /** `customer_locale` of the latest order that named this customer. */
  orderLocale?: string;
}

export interface CompanyLocationRecord {
  gid: string;
  taxRegistrationId: string | null;
  taxExempt: boolean;
  companyName?: string;
  locationName?: string;
}

/** A place the shop sells or stocks from (a store with its POS tills, a warehouse). */
export interface LocationRecord {
  gid: string;
  name: string;
  active: boolean;
}

export interface ShopState {
  /** The shop's name (GraphQL `shop { name }`); by default its myshopify.com handle. */
  name: string;
  domain: string;
  /** The shop's contact address (GraphQL `shop { contactEmail }`, also `email`); by default <handle>@example.com. */
  email: string;
  orders: Map<string, OrderRecord>;
  /** refund GID → order GID. */
  refunds: Map<string, string>;
  customers: Map<string, CustomerRecord>;
  companyLocations: Map<string, CompanyLocationRecord>;
  /** GID → location, in the order added. */
  locations: Map<string, LocationRecord>;
  metafields: MetafieldStore;
  refreshes: number;
}

export class SimState {
  readonly shops = new Map<string, ShopState>();
  readonly appNamespace: string;
  /** The app's Flow trigger extensions, by handle (flow-extensions.ts), and the triggers Shopify took, in order. */
  flowTriggerDefinitions = new Map<string, FlowTriggerDefinition>();
  readonly flowTriggers: ReceivedFlowTrigger[] = [];
  #definitions: Map<string, string>;
  #clockOffsetMs = 0;
  #sequence = 5_000_000;

  constructor(appId: string, definitions: readonly MetafieldDefinition[]) {
    this.appNamespace = `app--${appId}`;
    this.#definitions = new Map(definitions.map((d) => [`${this.resolveNamespace(d.namespace)}\0${d.key}`, d.type]));
  }

  now(): number {
    return Date.now() + this.#clockOffsetMs;
  }

  advanceClock(ms: number): void {
    this.#clockOffsetMs += ms;
  }

  /** The simulator's clock as a GraphQL DateTime. */
  stamp(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  nextGid(type: string): string {
    return `gid://shopify/${type}/${++this.#sequence}`;
  }

  shop(shop: string): ShopState {
    if (!SHOP_DOMAIN.test(shop)) throw new Error(`not a myshopify.com shop domain: ${shop}`);
    let state = this.shops.get(shop);
    if (!state) {
      state = {
        name: shop.replace(/\.myshopify\.com$/, ''),
        domain: shop,
        email: `${shop.replace(/\.myshopify\.com$/, '')}@example.com`,
        orders: new Map(),
        refunds: new Map(),
        customers: new Map(),
        companyLocations: new Map(),
        locations: new Map(),
        metafields: new Map(),
        refreshes: 0,
      };
      this.shops.set(shop, state);
    }
    return state;
  }

  resolveNamespace(namespace: string | undefined): string {
    if (namespace === undefined || namespace === '$app') return this.appNamespace;
    if (namespace.startsWith('$app:')) return `${this.appNamespace}--${namespace.slice(5)}`;
    return namespace;
  }

  definedType(namespace: string, key: string): string | undefined {
    return this.#definitions.get(`${namespace}\0${key}`);
  }

  setOrder(shop: string, order: RestOrder, transactionsGiven?: readonly SimTransaction[]): string {
    const state = this.shop(shop);
    const gid = orderGidOf(order);
    const transactions = (transactionsGiven ? [...transactionsGiven] : defaultTransactions(order)).map((t) => this.#transaction(t));
    let rest = structuredClone(order);
    // A replaced order (e.g. orders/paid delivered again) keeps the refunds stored on it since.
    const given = new Set(records(rest['refunds']).map((r) => restGid('Refund', r)));
    const kept = records(state.orders.get(gid)?.rest['refunds']).filter((r) => !given.has(restGid('Refund', r)));
    if (kept.length > 0) {
      const refunds = [...records(rest['refunds']), ...kept];
      rest = { ...rest, refunds, financial_status: financialStatusAfter(rest, refunds) };
    }
    state.orders.set(gid, { gid, rest, transactions });
    // An order sold at a location the shop has not been given yet: the location exists (named after its id).
    const locationId = rest['location_id'];
    if (typeof locationId === 'number' && Number.isSafeInteger(locationId) && locationId > 0) {
      const locationGid = `gid://shopify/Location/${locationId}`;
      if (!state.locations.has(locationGid))
        state.locations.set(locationGid, { gid: locationGid, name: `Location ${locationId}`, active: true });
    }
    for (const refund of records(rest['refunds'])) {
      const refundGid = restGid('Refund', refund);
      if (refundGid) state.refunds.set(refundGid, gid);
    }
    this.#noteCustomer(state, rest);
    return gid;
  }

  updateOrder(shop: string, orderGid: string, patch: RestOrder): void {
    const record = this.#order(shop, orderGid);
    for (const key of ['id', 'admin_graphql_api_id', 'refunds']) {
      if (key in patch) throw new Error(`updateOrder cannot change ${key} (use addRefund for refunds)`);
    }
    const rest = { ...record.rest, ...structuredClone(patch) };
    if (!('updated_at' in patch)) rest['updated_at'] = restTimestamp(this.now(), record.rest['updated_at'] ?? record.rest['created_at']);
    record.rest = rest;
    this.#noteCustomer(this.shop(shop), rest);
  }

  addRefund(shop: string, orderGid: string, refund: RestRefund): string {
    const state = this.shop(shop);
    const record = this.#order(shop, orderGid);
    const refundGid = restGid('Refund', refund);
    if (!refundGid) throw new Error('refund needs admin_graphql_api_id or a numeric id');
    if (gidOf('Order', refund['order_id']) !== orderGid) {
      throw new Error(`refund order_id ${str(refund['order_id']) ?? '(missing)'} does not name ${orderGid}`);
    }
    if (this.refund(state, refundGid)) throw new Error(`refund ${refundGid} is already stored`);
    for (const t of records(refund['transactions'])) checkRefundTransaction(t);
    const refunds = [...records(record.rest['refunds']), structuredClone(refund)];
    record.rest = { ...record.rest, refunds, financial_status: financialStatusAfter(record.rest, refunds) };
    state.refunds.set(refundGid, orderGid);
    return refundGid;
  }

  /** The stored refund, or undefined. */
  refund(shop: ShopState, refundGid: string): { refund: RestRefund; order: OrderRecord } | undefined {
    const order = shop.orders.get(shop.refunds.get(refundGid) ?? '');
    const refund = records(order?.rest['refunds']).find((r) => restGid('Refund', r) === refundGid);
    return order && refund ? { refund, order } : undefined;
  }

  setCustomerMetafield(shop: string, customerGid: string, namespace: string, key: string, value: string, type: string): void {
    if (!/^gid:\/\/shopify\/Customer\/\d+$/.test(customerGid)) throw new Error(`not a customer GID: ${customerGid}`);
    if (!isKnownMetafieldType(type)) throw new Error(`Type '${type}' is not a valid metafield type.`);
    const problem = valueProblem(type, value);
    if (problem) throw new Error(`${namespace}.${key}: ${problem}`);
    const state = this.shop(shop);
    this.#customer(state, customerGid);
    const write = { ownerId: customerGid, namespace: this.resolveNamespace(namespace), key, type, value };
    writeMetafield(state.metafields, write, () => this.nextGid('Metafield'), this.stamp());
  }

  setCustomerLocale(shop: string, customerGid: string, locale: string): void {
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale)) throw new Error(`not a locale: ${locale}`);
    this.#customer(this.shop(shop), customerGid).locale = locale;
  }

  setCompanyLocation(shop: string, locationGid: string, taxRegistrationId: string | null, options: CompanyLocationOptions): void {
    if (!/^gid:\/\/shopify\/CompanyLocation\/\d+$/.test(locationGid)) throw new Error(`not a company location GID: ${locationGid}`);
    const state = this.shop(shop);
    const previous = state.companyLocations.get(locationGid);
    state.companyLocations.set(locationGid, {
      gid: locationGid,
      taxRegistrationId,
      taxExempt: options.taxExempt ?? previous?.taxExempt ?? false,
      ...pick(options.companyName ?? previous?.companyName, 'companyName'),
      ...pick(options.locationName ?? previous?.locationName, 'locationName'),
    });
  }

  metafieldsOf(shop: ShopState, ownerGid: string): MetafieldRecord[] {
    return [...(shop.metafields.get(ownerGid)?.values() ?? [])];
  }

  #order(shop: string, orderGid: string): OrderRecord {
    const record = this.shop(shop).orders.get(orderGid);
    if (!record) throw new Error(`no order ${orderGid} in ${shop}`);
    return record;
  }

  #customer(state: ShopState, gid: string): CustomerRecord {
    let customer = state.customers.get(gid);
    if (!customer) state.customers.set(gid, (customer = { gid, rest: {} }));
    return customer;
  }

  /** Orders carry the customer's REST object: keep the latest so `customer(id:)` answers it. */
  #noteCustomer(state: ShopState, order: RestOrder): void {
    const rest = order['customer'];
    const gid = isRecord(rest) ? restGid('Customer', rest) : undefined;
    if (!gid || !isRecord(rest)) return;
    const customer = this.#customer(state, gid);
    customer.rest = structuredClone(rest);
    const locale = str(order['customer_locale']);
    if (locale) customer.orderLocale = locale;
  }

  #transaction(t: SimTransaction): TransactionRecord {
    if (centsOf(t.amount) === undefined) throw new Error(`transaction amount is not a decimal: ${t.amount}`);
    const kind = (t.kind ?? 'SALE').toUpperCase();
    const status = (t.status ?? 'SUCCESS').toUpperCase();
    if (!TRANSACTION_KINDS.includes(kind)) throw new Error(`transaction kind ${t.kind} is not one of ${TRANSACTION_KINDS.join(', ')}`);
    if (!TRANSACTION_STATUSES.includes(status)) {
      throw new Error(`transaction status ${t.status} is not one of ${TRANSACTION_STATUSES.join(', ')}`);
    }
    return { ...t, kind, status, id: this.nextGid('OrderTransaction') };
  }
}

/** A refund transaction must read as a GraphQL OrderTransaction: an id, a known kind and status, an amount. */
function checkRefundTransaction(t: Record<string, unknown>): void {
  const what = `refund transaction ${str(t['id']) ?? '(no id)'}`;
  if (!restGid('OrderTransaction', t)) throw new Error(`${what} needs admin_graphql_api_id or a numeric id`);
  if (centsOf(str(t['amount']) ?? '') === undefined) throw new Error(`${what}: amount ${str(t['amount'])} is not a decimal`);
  if (!TRANSACTION_KINDS.includes(str(t['kind'])?.toUpperCase() ?? '')) throw new Error(`${what}: unknown kind ${str(t['kind'])}`);
  if (!TRANSACTION_STATUSES.includes(str(t['status'])?.toUpperCase() ?? '')) throw new Error(`${what}: unknown status ${str(t['status'])}`);
}

/** REST `financial_status` once these refunds are on the order: refunded when they give back the whole total. */
function financialStatusAfter(order: RestOrder, refunds: readonly RestRefund[]): unknown {
  const refunded = refunds.reduce((sum, r) => sum + refundedCents(r), 0);
  if (refunded === 0) return order['financial_status'];
  const total = originalTotal(order)?.cents ?? 0;
  return refunded >= total ? 'refunded' : 'partially_refunded';
}

function pick<K extends string>(value: string | undefined, key: K): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
