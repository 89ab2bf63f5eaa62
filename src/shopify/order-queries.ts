// The Admin API operations the app runs on orders: their text lives here, with the Shopify client, and each
// returns a typed AdminResult. The mappers parse what comes back.
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

/** The numeric id of an order GID, or undefined. */
export function orderIdOf(orderGid: string): string | undefined {
  return /^gid:\/\/shopify\/Order\/(\d+)$/.exec(orderGid)?.[1];
}

/**
 * The order object's text from a REST answer `{"order":{…}}`, byte for byte when the answer has that shape (like
 * the webhook intake, the snapshot is stored without a JS round trip, so big integers stay exact).
 */
export function rawOrderText(body: string, parsedOrder: unknown): string {
  const inner = /^\s*\{\s*"order"\s*:\s*([\s\S]*?)\s*\}\s*$/.exec(body)?.[1];
  if (inner !== undefined) {
    try {
      const reparsed: unknown = JSON.parse(inner);
      if (typeof reparsed === 'object' && reparsed !== null && !Array.isArray(reparsed)) return inner;
    } catch {
      // Not the plain wrapper: fall back to the parsed object.
    }
  }
  return JSON.stringify(parsedOrder);
}

/** GET orders/<id>.json: the order as the webhook sends it, as text and parsed; null when the shop has no such order. */
export async function readRestOrder(
  admin: ShopifyAdmin,
  shop: string,
  orderGid: string,
): Promise<AdminResult<{ text: string; json: unknown } | null>> {
  const id = orderIdOf(orderGid);
  if (!id) return { ok: true, data: null };
  const answer = await admin.rest(shop, `orders/${id}.json`);
  if (!answer.ok) return answer;
  if (answer.data === null) return { ok: true, data: null };
  try {
    const body = JSON.parse(answer.data) as { order?: unknown };
    if (typeof body.order !== 'object' || body.order === null)
      return { ok: false, retryable: false, message: `REST order ${id}: answer has no order` };
    return { ok: true, data: { text: rawOrderText(answer.data, body.order), json: body.order } };
  } catch {
    return { ok: false, retryable: false, message: `REST order ${id}: answer is not JSON` };
  }
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
