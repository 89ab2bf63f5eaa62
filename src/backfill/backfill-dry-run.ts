// The dry run (docs/backfill.md): the range's paid orders counted and summed, those already invoiced told apart, and
// each of the others mapped as the run would map it (the same `mapOrder`, the shop's settings, no number, no writes)
// to say which cannot be invoiced and why. Nothing is stored.
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { Db } from '../db/database.ts';
import { mapOrder } from '../documents/invoice-draft.ts';
import { invoicesOfOrders } from '../documents/store/index.ts';
import { type Message, asMessage, message } from '../messages/message.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { shopifyOrders } from '../shopify/shopify-orders.ts';
import type { ShopSettings } from '../shops/shop-settings.ts';
import { listOrdersPage, MAX_BACKFILL_PAGES } from './backfill-orders.ts';
import { type BackfillRange, backfillSearchQuery } from './backfill-range.ts';

export interface CannotInvoice {
  /** The order's name, e.g. "#1001". */
  order: string;
  orderGid: string;
  reason: Message;
}

export interface DryRun {
  orders: number;
  alreadyInvoiced: number;
  toInvoice: number;
  cannotInvoice: CannotInvoice[];
  /** The paid orders' total in USD (or PAB), integer cents; orders in another currency are not summed. */
  totalCents: number;
}

/** Currencies summed into the total: those the app invoices in. */
const INVOICED_CURRENCIES = new Set(['USD', 'PAB']);

export class BackfillReadError extends Error {}

/** Orders read and mapped at once. */
const READS_AT_ONCE = 8;

/** `work` over `items`, `size` at a time, results in order. */
export async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

export interface DryRunDeps {
  db: Db;
  admin: Pick<ShopifyAdmin, 'graphql'>;
}

export async function dryRunBackfill(deps: DryRunDeps, shop: string, settings: ShopSettings, range: BackfillRange): Promise<DryRun> {
  const orders = shopifyOrders(deps.admin as ShopifyAdmin);
  const result: DryRun = { orders: 0, alreadyInvoiced: 0, toInvoice: 0, cannotInvoice: [], totalCents: 0 };
  const query = backfillSearchQuery(range);
  let after: string | null = null;
  for (let n = 0; n < MAX_BACKFILL_PAGES; n++) {
    const page = await listOrdersPage(deps.admin, shop, query, after);
    if (!page.ok) throw new BackfillReadError(page.message);
    const invoiced = await invoicesOfOrders(
      deps.db,
      shop,
      page.data.orders.map((o) => o.id),
    );
    const open = page.data.orders.filter((o) => !invoiced.has(o.id));
    // A few orders at once (the Admin client waits out Shopify's throttling); reported in the listing's order.
    const reasons = await inBatches(open, READS_AT_ONCE, (o) => whyNot(orders, shop, settings, o.id));
    const why = new Map(open.map((o, i) => [o.id, reasons[i]]));
    for (const listed of page.data.orders) {
      result.orders++;
      if (listed.totalCents !== undefined && INVOICED_CURRENCIES.has(listed.currency ?? '')) result.totalCents += listed.totalCents;
      if (invoiced.has(listed.id)) {
        result.alreadyInvoiced++;
        continue;
      }
      const reason = why.get(listed.id);
      if (reason) result.cannotInvoice.push({ order: listed.name, orderGid: listed.id, reason });
      else result.toInvoice++;
    }
    if (page.data.next === null) return result;
    after = page.data.next;
  }
  throw new BackfillReadError(`more than ${MAX_BACKFILL_PAGES} pages of paid orders`);
}

/** Why the run would not issue this order's invoice, or undefined when it would. */
async function whyNot(
  orders: ReturnType<typeof shopifyOrders>,
  shop: string,
  settings: ShopSettings,
  orderGid: string,
): Promise<Message | undefined> {
  const read = await orders.readOrder(shop, orderGid);
  if (!read.ok) throw new BackfillReadError(`reading order ${orderGid}: ${read.message}`);
  if (read.data === null) return message('order_unconfirmed', { detail: 'Shopify has no such order in this shop' });
  const json = read.data.json as { test?: unknown };
  if (json.test === true && settings.environment === 'produccion') return message('test_order_in_production');
  const mapped = await mapOrder({ shop, orderGid, snapshot: read.data.json, clientOverride: null }, settings, orders);
  if (mapped.kind === 'draft') return undefined;
  const t = mapped.transition;
  if (t.kind === 'attention') return asMessage(t.error.message) ?? message('mapping');
  if (t.kind === 'skipped') return t.reason;
  if (t.kind === 'retry') throw new BackfillReadError(`mapping order ${orderGid}: Shopify unavailable`);
  return message('order_unconfirmed', { detail: t.kind });
}

/** The dry run as `--json` prints it and the API answers it (reasons rendered by the caller). */
export function dryRunJson(d: DryRun, render: (m: Message) => string) {
  return {
    orders: d.orders,
    alreadyInvoiced: d.alreadyInvoiced,
    toInvoice: d.toInvoice,
    cannotInvoice: d.cannotInvoice.map((c) => ({ order: c.order, reason: render(c.reason) })),
    total: formatCents(d.totalCents),
  };
}
