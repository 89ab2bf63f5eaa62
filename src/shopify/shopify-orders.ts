// The Admin API as issuing documents uses it (src/documents/issuing-ports.ts IssuingDeps.shopify), over the app's
// client: the interface the use case's tests fake, and the real one.
import type { AdminResult, ShopifyAdmin } from './admin-client.ts';
import {
  type CreditNoteMetafieldEntry,
  type InvoiceMetafieldValues,
  writeCreditNotesMetafield,
  writeInvoiceMetafields,
} from './metafield-writer.ts';
import { type OrderBuyer, confirmOrder, confirmRefund, orderTransactions, readOrder } from './order-queries.ts';

export interface ShopifyOrders {
  /** The order as this shop's API knows it, with its buyer's tax id sources; null when the shop has no such order. */
  confirmOrder(
    shop: string,
    orderGid: string,
    want: { company: boolean; metafield: { namespace: string; key: string } | null },
  ): Promise<AdminResult<OrderBuyer | null>>;
  /** True when the shop has this refund (a body signed for another shop names one it does not). */
  confirmRefund(shop: string, refundGid: string): Promise<AdminResult<boolean>>;
  /** The order's transactions (needed when several gateways paid it). */
  orderTransactions(shop: string, orderGid: string): Promise<AdminResult<unknown[]>>;
  /** The order read through Admin GraphQL in the webhook's shape, as text and parsed; null when the shop has no such order. */
  readOrder(shop: string, orderGid: string): Promise<AdminResult<{ text: string; json: unknown } | null>>;
  writeInvoiceMetafields(shop: string, orderGid: string, values: InvoiceMetafieldValues): Promise<AdminResult<unknown>>;
  writeCreditNotesMetafield(shop: string, orderGid: string, notes: CreditNoteMetafieldEntry[]): Promise<AdminResult<unknown>>;
}

export function shopifyOrders(admin: ShopifyAdmin): ShopifyOrders {
  return {
    confirmOrder: (shop, orderGid, want) => confirmOrder(admin, shop, orderGid, want),
    confirmRefund: (shop, refundGid) => confirmRefund(admin, shop, refundGid),
    orderTransactions: (shop, orderGid) => orderTransactions(admin, shop, orderGid),
    readOrder: (shop, orderGid) => readOrder(admin, shop, orderGid),
    writeInvoiceMetafields: (shop, orderGid, values) => writeInvoiceMetafields(admin, shop, orderGid, values),
    writeCreditNotesMetafield: (shop, orderGid, notes) => writeCreditNotesMetafield(admin, shop, orderGid, notes),
  };
}
