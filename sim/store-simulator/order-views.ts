// The Admin GraphQL objects of an order and what hangs off it (customer, B2B purchasing company, metafields,
// transactions), built from the simulator's state for graphql-js to select from. A field that needs
// arguments, a scope or another lookup is a method: graphql-js calls it only when the query selects it.

import { GraphQLError } from 'graphql';
import { type MetafieldRecord, metafieldDigest } from './metafields.ts';
import { refundView } from './refund-views.ts';
import { orderInvoicingFields } from './order-line-views.ts';
import { retailLocationView } from './location-views.ts';
import { transactionView } from './transaction-views.ts';
import { currentTotal, moneyBag, moneyBagOf, orderCurrency, refundedCents } from './rest-money.ts';
import { gidOf, graphqlDateTime, isRecord, legacyId, records, restGid, str } from './rest-values.ts';
import type { CustomerRecord, OrderRecord, ShopState, SimState } from './shop-state.ts';

export interface AdminContext {
  state: SimState;
  shop: ShopState;
  /** Granted scopes, write_x implying read_x. */
  scopes: ReadonlySet<string>;
  /** Set when metafieldsSet answered userErrors (the call's outcome). */
  userErrors: boolean;
}

type View = Record<string, unknown>;

const FINANCIAL_STATUSES = new Set([
  'AUTHORIZED',
  'EXPIRED',
  'PAID',
  'PARTIALLY_PAID',
  'PARTIALLY_REFUNDED',
  'PENDING',
  'REFUNDED',
  'VOIDED',
]);

/** Shopify's ACCESS_DENIED: the field answers null and the error names the scope it needs. */
export function requireAccess(ctx: AdminContext, field: string, scope: string): void {
  const [, resource] = scope.split('_', 2);
  if (ctx.scopes.has(scope) || ctx.scopes.has(`write_${resource}`)) return;
  const requiredAccess = `\`${scope}\` access scope.`;
  throw new GraphQLError(`Access denied for ${field} field. Required access: ${requiredAccess}`, {
    extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess },
  });
}

export function orderView(ctx: AdminContext, record: OrderRecord): View {
  const rest = record.rest;
  const currency = orderCurrency(rest);
  const current = currentTotal(rest);
  const status = str(rest['financial_status'])?.toUpperCase();
  const refunds = records(rest['refunds']);
  return {
    ...orderInvoicingFields(rest),
    __typename: 'Order',
    retailLocation: retailLocationView(ctx.shop.locations, rest['location_id']),
    id: record.gid,
    legacyResourceId: legacyId(record.gid, 'Order'),
    name: str(rest['name']) ?? null,
    email: str(rest['email']) ?? null,
    note: str(rest['note']) ?? null,
    test: rest['test'] === true,
    createdAt: graphqlDateTime(rest['created_at']),
    updatedAt: graphqlDateTime(rest['updated_at']),
    processedAt: graphqlDateTime(rest['processed_at']),
    cancelledAt: graphqlDateTime(rest['cancelled_at']),
    displayFinancialStatus: status !== undefined && FINANCIAL_STATUSES.has(status) ? status : null,
    currencyCode: current?.currency ?? str(rest['currency']) ?? null,
    taxesIncluded: rest['taxes_included'] === true,
    customAttributes: records(rest['note_attributes']).map((a) => ({ key: str(a['name']) ?? '', value: str(a['value']) ?? null })),
    totalPriceSet: moneyBagOf(rest['total_price_set'], rest['total_price'], currency),
    currentTotalPriceSet: current ? moneyBag(current.cents, current.currency) : null,
    totalRefundedSet: moneyBag(
      refunds.reduce((sum, r) => sum + refundedCents(r), 0),
      currency,
    ),
    customer: () => {
      requireAccess(ctx, 'customer', 'read_customers');
      return orderCustomer(ctx, rest);
    },
    purchasingEntity: () => {
      requireAccess(ctx, 'purchasingEntity', 'read_customers');
      return purchasingCompany(ctx, rest) ?? orderCustomer(ctx, rest);
    },
    transactions: ({ first }: { first?: number | null }) =>
      record.transactions.slice(0, first ?? undefined).map((t) => transactionView(t, record)),
    metafield: (args: { namespace?: string | null; key: string }) => ownMetafield(ctx, record.gid, args),
    // A list with a truncating `first`, not a connection (as in Shopify).
    refunds: ({ first }: { first?: number | null }) =>
      refunds.slice(0, first ?? undefined).map((refund) => refundView(refund, record, () => orderView(ctx, record))),
  };
}

export function customerView(ctx: AdminContext, record: CustomerRecord): View {
  const first = str(record.rest['first_name']) ?? null;
  const last = str(record.rest['last_name']) ?? null;
  const email = str(record.rest['email']) ?? null;
  return {
    __typename: 'Customer',
    id: record.gid,
    legacyResourceId: legacyId(record.gid, 'Customer'),
    email,
    firstName: first,
    lastName: last,
    displayName: [first, last].filter(Boolean).join(' ') || email || '',
    phone: str(record.rest['phone']) ?? null,
    // Shopify falls back to the shop's primary locale; the simulated shops sell in Spanish.
    locale: record.locale ?? record.orderLocale ?? 'es',
    metafield: (args: { namespace?: string | null; key: string }) => ownMetafield(ctx, record.gid, args),
  };
}

function orderCustomer(ctx: AdminContext, rest: Record<string, unknown>): View | null {
  const customer = rest['customer'];
  const gid = isRecord(customer) ? restGid('Customer', customer) : undefined;
  const record = gid ? ctx.shop.customers.get(gid) : undefined;
  return record ? customerView(ctx, record) : null;
}

/** A B2B order (REST `company: {id, location_id}`) answers a PurchasingCompany with the location's tax settings. */
function purchasingCompany(ctx: AdminContext, rest: Record<string, unknown>): View | null {
  const company = rest['company'];
  if (!isRecord(company)) return null;
  const companyGid = gidOf('Company', company['id']);
  const locationGid = gidOf('CompanyLocation', company['location_id']);
  if (!companyGid || !locationGid) return null;
  const location = ctx.shop.companyLocations.get(locationGid);
  const companyName = location?.companyName ?? str(company['name']) ?? `Company ${legacyId(companyGid, 'Company') ?? ''}`;
  return {
    __typename: 'PurchasingCompany',
    company: { __typename: 'Company', id: companyGid, name: companyName },
    location: {
      __typename: 'CompanyLocation',
      id: locationGid,
      name: location?.locationName ?? companyName,
      taxSettings: { taxRegistrationId: location?.taxRegistrationId ?? null, taxExempt: location?.taxExempt ?? false },
    },
  };
}

function ownMetafield(ctx: AdminContext, ownerGid: string, args: { namespace?: string | null; key: string }): View | null {
  const namespace = ctx.state.resolveNamespace(args.namespace ?? undefined);
  const record = ctx.shop.metafields.get(ownerGid)?.get(`${namespace}\0${args.key}`);
  return record ? metafieldView(ctx, record, ownerGid) : null;
}

export function metafieldView(ctx: AdminContext, record: MetafieldRecord, ownerGid: string): View {
  const isOrder = legacyId(ownerGid, 'Order') !== undefined;
  return {
    __typename: 'Metafield',
    id: record.id,
    namespace: record.namespace,
    key: record.key,
    type: record.type,
    value: record.value,
    jsonValue: () => (record.type === 'json' || record.type.startsWith('list.') ? (JSON.parse(record.value) as unknown) : record.value),
    compareDigest: metafieldDigest(record),
    ownerType: isOrder ? 'ORDER' : 'CUSTOMER',
    owner: () => {
      const order = ctx.shop.orders.get(ownerGid);
      if (order) return orderView(ctx, order);
      const customer = ctx.shop.customers.get(ownerGid);
      return customer ? customerView(ctx, customer) : null;
    },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
