// A range's paid orders, one page at a time, through Admin GraphQL: what the dry run and the reader both walk. The
// Admin client waits out Shopify's cost-based throttling (THROTTLED) and 429s by itself.
import { z } from 'zod';
import { parseCents } from '../../mappers/fiscal/money.ts';
import type { AdminResult, ShopifyAdmin } from '../shopify/admin-client.ts';

export const BACKFILL_PAGE_SIZE = 100;
/** A cursor bug must not loop forever: a year of a busy shop is well under this many pages. */
export const MAX_BACKFILL_PAGES = 5_000;

export const BACKFILL_ORDERS_QUERY = `query BackfillPaidOrders($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query) {
    edges { cursor node { id name createdAt totalPriceSet { shopMoney { amount currencyCode } } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const ordersPage = z.object({
  orders: z.object({
    edges: z.array(
      z.object({
        node: z.object({
          id: z.string(),
          name: z.string().nullish(),
          createdAt: z.string(),
          totalPriceSet: z.object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) }).nullish(),
        }),
      }),
    ),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});

export interface ListedOrder {
  id: string;
  name: string;
  /** Shop money, integer cents; undefined when Shopify gave none readable. */
  totalCents: number | undefined;
  currency: string | undefined;
}

export interface OrdersPage {
  orders: ListedOrder[];
  /** The cursor to go on from, or null when this was the last page. */
  next: string | null;
}

/** One page of the search's orders after `after` (null: the first). */
export async function listOrdersPage(
  admin: Pick<ShopifyAdmin, 'graphql'>,
  shop: string,
  query: string,
  after: string | null,
): Promise<AdminResult<OrdersPage>> {
  const answer = await admin.graphql<unknown>(shop, BACKFILL_ORDERS_QUERY, { first: BACKFILL_PAGE_SIZE, after, query });
  if (!answer.ok) return answer;
  const parsed = ordersPage.safeParse(answer.data);
  if (!parsed.success) return { ok: false, retryable: false, message: 'listing paid orders: unexpected answer shape' };
  const orders = parsed.data.orders.edges.map(({ node }) => {
    const money = node.totalPriceSet?.shopMoney;
    return {
      id: node.id,
      name: node.name ?? node.id,
      totalCents: money ? parseCents(money.amount) : undefined,
      currency: money?.currencyCode,
    };
  });
  const { hasNextPage, endCursor } = parsed.data.orders.pageInfo;
  return { ok: true, data: { orders, next: hasNextPage && endCursor ? endCursor : null } };
}
