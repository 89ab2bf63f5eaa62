// The Admin API operations the app runs on orders: their text lives here, with the Shopify client, and each
// returns a typed AdminResult. The mappers parse what comes back.
import { orderBodyFromGraphql } from '../../mappers/shopify/graphql-order.ts';
import type { AdminResult, ShopifyAdmin } from './admin-client.ts';

/** Admin GraphQL: the order's transactions with their amounts in the shop's currency. */
export const ORDER_TRANSACTIONS_QUERY = `query OrderTransactions($id: ID!) {
  order(id: $id) {
    transactions {
      gateway
      kind
      status
      amountSet {
        shopMoney {
          amount
          currencyCode
        }
      }
    }
  }
}`;

/** The order's transaction nodes; an order the shop does not have reads as no transactions. */
export async function orderTransactions(admin: ShopifyAdmin, shop: string, orderGid: string): Promise<AdminResult<unknown[]>> {
  const fetched = await admin.graphql<{ order: { transactions: unknown[] } | null }>(shop, ORDER_TRANSACTIONS_QUERY, { id: orderGid });
  return fetched.ok ? { ok: true, data: fetched.data.order?.transactions ?? [] } : fetched;
}

const MONEY = 'shopMoney { amount currencyCode } presentmentMoney { amount currencyCode }';
const TAX_LINES = `taxLines { title rate priceSet { ${MONEY} } }`;
const ALLOCATIONS = `discountAllocations { allocatedAmountSet { ${MONEY} } discountApplication { index } }`;
const LINE_ITEM_FIELDS = `id name title variantTitle sku variant { id barcode } product { id } quantity currentQuantity taxable isGiftCard
      originalUnitPriceSet { ${MONEY} } ${TAX_LINES} ${ALLOCATIONS}`;
const ADDRESS = 'name firstName lastName company address1 address2 city province provinceCode countryCodeV2 zip phone';
/** Line items a page: Shopify's maximum. */
const LINE_PAGE = 250;
/** Pages of line items read at most: an order of more lines than an invoice may carry (1,000) is refused anyway. */
const MAX_LINE_PAGES = 5;

/**
 * Admin GraphQL: everything invoicing reads of an order (mappers/shopify/graphql-order.ts turns it into the webhook's
 * shape). The buyer's parts need read_customers, which the app asks for; without it they are left out.
 */
export const ORDER_FOR_INVOICE_QUERY = `query OrderForInvoice($id: ID!, $withCustomer: Boolean!, $withLocation: Boolean!) {
  order(id: $id) {
    id name test currencyCode presentmentCurrencyCode taxesIncluded taxExempt displayFinancialStatus
    createdAt processedAt email phone customerLocale paymentGatewayNames
    totalPriceSet { ${MONEY} } currentTotalPriceSet { ${MONEY} } currentTotalTaxSet { ${MONEY} } totalTaxSet { ${MONEY} }
    totalTipReceivedSet { ${MONEY} } currentTotalDutiesSet { ${MONEY} } currentTotalAdditionalFeesSet { ${MONEY} }
    totalCashRoundingAdjustment { paymentSet { ${MONEY} } }
    customAttributes { key value }
    retailLocation @include(if: $withLocation) { id }
    customer @include(if: $withCustomer) { id firstName lastName email phone locale }
    billingAddress { ${ADDRESS} }
    shippingAddress { ${ADDRESS} }
    purchasingEntity @include(if: $withCustomer) { __typename ... on PurchasingCompany { company { id name } location { id } } }
    lineItems(first: ${LINE_PAGE}) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM_FIELDS} } }
    shippingLines(first: 50, includeRemovals: true) { nodes { title code isRemoved originalPriceSet { ${MONEY} } ${TAX_LINES} ${ALLOCATIONS} } }
  }
}`;

/** The next page of an order's line items. */
export const ORDER_LINE_ITEMS_QUERY = `query OrderLineItems($id: ID!, $after: String!) {
  order(id: $id) {
    lineItems(first: ${LINE_PAGE}, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM_FIELDS} } }
  }
}`;

type Json = Record<string, unknown>;
interface LinePage {
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  nodes?: Json[];
}

/**
 * The order through Admin GraphQL, as the webhook's body (text and parsed): the same typed order the mappers take.
 * Null when the shop has no such order.
 */
export async function readOrder(
  admin: ShopifyAdmin,
  shop: string,
  orderGid: string,
): Promise<AdminResult<{ text: string; json: unknown } | null>> {
  type Answer = { order: (Json & { lineItems?: LinePage }) | null };
  let answer = await admin.graphql<Answer>(shop, ORDER_FOR_INVOICE_QUERY, { id: orderGid, withCustomer: true, withLocation: true });
  // A shop that has not granted read_customers (or, installed before series, read_locations): the order without its
  // customer and its till (the addresses and e-mail still name the buyer; the shop's own branch and point serve).
  if (!answer.ok && /access denied/i.test(answer.message)) {
    answer = await admin.graphql<Answer>(shop, ORDER_FOR_INVOICE_QUERY, { id: orderGid, withCustomer: false, withLocation: false });
  }
  if (!answer.ok) return answer;
  const order = answer.data.order;
  if (!order) return { ok: true, data: null };
  const lines = [...(order.lineItems?.nodes ?? [])];
  let page = order.lineItems?.pageInfo;
  for (let n = 1; page?.hasNextPage && page.endCursor && n < MAX_LINE_PAGES; n++) {
    const next = await admin.graphql<{ order: { lineItems?: LinePage } | null }>(shop, ORDER_LINE_ITEMS_QUERY, {
      id: orderGid,
      after: page.endCursor,
    });
    if (!next.ok) return next;
    lines.push(...(next.data.order?.lineItems?.nodes ?? []));
    page = next.data.order?.lineItems?.pageInfo;
  }
  const json = orderBodyFromGraphql(order, lines);
  return { ok: true, data: { text: JSON.stringify(json), json } };
}

/**
 * Admin GraphQL: the order as this shop's API knows it (null when it is not the shop's: a body signed for another
 * shop, or an order deleted since), with what the buyer's tax id may come from. The buyer's parts need read_customers
 * and are asked for only when needed.
 */
export const ORDER_BUYER_QUERY = `query OrderBuyer($id: ID!, $withCompany: Boolean!, $withMetafield: Boolean!, $namespace: String!, $key: String!) {
  order(id: $id) {
    id
    name
    purchasingEntity @include(if: $withCompany) {
      __typename
      ... on PurchasingCompany {
        company { name }
        location { taxSettings { taxRegistrationId } }
      }
    }
    customer @include(if: $withMetafield) {
      id
      metafield(namespace: $namespace, key: $key) { value }
    }
  }
}`;

export interface OrderBuyer {
  company: { name: string | undefined; taxId: string | undefined } | undefined;
  customerMetafield: string | undefined;
}

interface OrderBuyerAnswer {
  order: {
    id: string;
    purchasingEntity?: {
      __typename: string;
      company?: { name?: string | null } | null;
      location?: { taxSettings?: { taxRegistrationId?: string | null } | null } | null;
    } | null;
    customer?: { metafield?: { value?: string | null } | null } | null;
  } | null;
}

/** The order confirmed in this shop, with its buyer's tax id sources; null when the shop has no such order. */
export async function confirmOrder(
  admin: ShopifyAdmin,
  shop: string,
  orderGid: string,
  want: { company: boolean; metafield: { namespace: string; key: string } | null },
): Promise<AdminResult<OrderBuyer | null>> {
  const answer = await admin.graphql<OrderBuyerAnswer>(shop, ORDER_BUYER_QUERY, {
    id: orderGid,
    withCompany: want.company,
    withMetafield: want.metafield !== null,
    namespace: want.metafield?.namespace ?? '',
    key: want.metafield?.key ?? '',
  });
  if (!answer.ok) return answer;
  const order = answer.data.order;
  if (!order) return { ok: true, data: null };
  const entity = order.purchasingEntity;
  const company =
    entity?.__typename === 'PurchasingCompany'
      ? { name: entity.company?.name ?? undefined, taxId: entity.location?.taxSettings?.taxRegistrationId ?? undefined }
      : undefined;
  return { ok: true, data: { company, customerMetafield: order.customer?.metafield?.value ?? undefined } };
}

/** Admin GraphQL: the refund as this shop's API knows it (null when it is not the shop's). */
export const REFUND_CONFIRM_QUERY = `query ConfirmRefund($id: ID!) {
  refund(id: $id) {
    id
    order { id }
  }
}`;

/** True when the shop has this refund. */
export async function confirmRefund(admin: ShopifyAdmin, shop: string, refundGid: string): Promise<AdminResult<boolean>> {
  const answer = await admin.graphql<{ refund: { id: string } | null }>(shop, REFUND_CONFIRM_QUERY, { id: refundGid });
  return answer.ok ? { ok: true, data: answer.data.refund !== null } : answer;
}
