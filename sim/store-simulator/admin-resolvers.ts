// The root fields of the simulated Admin GraphQL API: order, orders, customer, refund and metafieldsSet,
// answered from the shop's state with Shopify's scopes, paging and userErrors.

import { connection, orderFilter } from './connections.ts';
import { type MetafieldsSetInput, planMetafieldsSet, writeMetafield } from './metafields.ts';
import { type AdminContext, customerView, metafieldView, orderView, requireAccess } from './order-views.ts';
import { refundView } from './refund-views.ts';
import { locationRoot } from './locations.ts';
import { flowRoot } from './flow-triggers.ts';
import { legacyId, str } from './rest-values.ts';
import type { OrderRecord } from './shop-state.ts';

type View = Record<string, unknown>;

export interface OrdersArgs {
  first?: number | null;
  after?: string | null;
  query?: string | null;
  reverse?: boolean | null;
}

/** The root value handed to graphql-js: one method per root field. */
export function adminRoot(ctx: AdminContext): Record<string, (args: never) => unknown> {
  return {
    ...locationRoot(ctx),
    ...flowRoot(ctx),
    order({ id }: { id: string }): View | null {
      requireAccess(ctx, 'order', 'read_orders');
      const record = ctx.shop.orders.get(id);
      return record ? orderView(ctx, record) : null;
    },

    orders(args: OrdersArgs) {
      requireAccess(ctx, 'orders', 'read_orders');
      const matches = orderFilter(args.query ?? '');
      const listed = [...ctx.shop.orders.values()].filter((o) => matches(o.rest)).sort(byCreation);
      if (args.reverse) listed.reverse();
      return connection(
        listed,
        args,
        (o) => o.gid,
        (o) => orderView(ctx, o),
      );
    },

    customer({ id }: { id: string }): View | null {
      requireAccess(ctx, 'customer', 'read_customers');
      const record = ctx.shop.customers.get(id);
      return record ? customerView(ctx, record) : null;
    },

    refund({ id }: { id: string }): View | null {
      requireAccess(ctx, 'refund', 'read_orders');
      const found = ctx.state.refund(ctx.shop, id);
      return found ? refundView(found.refund, found.order, () => orderView(ctx, found.order)) : null;
    },

    shop(): View {
      return { name: ctx.shop.name, myshopifyDomain: ctx.shop.domain, email: ctx.shop.email, contactEmail: ctx.shop.email };
    },

    metafieldsSet({ metafields }: { metafields: MetafieldsSetInput[] }) {
      // Writing on a customer needs write_customers; on anything else (orders) write_orders.
      const onCustomer = (m: MetafieldsSetInput) => legacyId(m.ownerId, 'Customer') !== undefined;
      if (metafields.some(onCustomer)) requireAccess(ctx, 'metafieldsSet', 'write_customers');
      if (metafields.length === 0 || !metafields.every(onCustomer)) requireAccess(ctx, 'metafieldsSet', 'write_orders');
      const plan = planMetafieldsSet(metafields, ctx.shop.metafields, {
        resolveNamespace: (ns) => ctx.state.resolveNamespace(ns),
        definedType: (ns, key) => ctx.state.definedType(ns, key),
        ownerExists: (id) => ctx.shop.orders.has(id) || ctx.shop.customers.has(id),
      });
      if (!plan.ok) {
        ctx.userErrors = true;
        return { metafields: [], userErrors: plan.userErrors };
      }
      const stamp = ctx.state.stamp();
      const written = plan.writes.map((w) =>
        metafieldView(
          ctx,
          writeMetafield(ctx.shop.metafields, w, () => ctx.state.nextGid('Metafield'), stamp),
          w.ownerId,
        ),
      );
      return { metafields: written, userErrors: [] };
    },
  };
}

/** Shopify's default order listing: oldest first, ties by id. */
function byCreation(a: OrderRecord, b: OrderRecord): number {
  const byTime = (Date.parse(str(a.rest['created_at']) ?? '') || 0) - (Date.parse(str(b.rest['created_at']) ?? '') || 0);
  return byTime !== 0 ? byTime : Number(legacyId(a.gid, 'Order')) - Number(legacyId(b.gid, 'Order'));
}
