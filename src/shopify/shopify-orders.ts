// The Admin API as issuing documents uses it (src/documents/issuing-ports.ts ShopifyOrders), over the app's client.
import type { ShopifyOrders } from '../documents/issuing-ports.ts';
import type { ShopifyAdmin } from './admin-client.ts';
import { writeCreditNotesMetafield, writeInvoiceMetafields } from './metafield-writer.ts';
import { confirmOrder, confirmRefund, orderTransactions, readRestOrder } from './order-queries.ts';

export function shopifyOrders(admin: ShopifyAdmin): ShopifyOrders {
  return {
    confirmOrder: (shop, orderGid, want) => confirmOrder(admin, shop, orderGid, want),
    confirmRefund: (shop, refundGid) => confirmRefund(admin, shop, refundGid),
    orderTransactions: (shop, orderGid) => orderTransactions(admin, shop, orderGid),
    readOrder: (shop, orderGid) => readRestOrder(admin, shop, orderGid),
    writeInvoiceMetafields: (shop, orderGid, values) => writeInvoiceMetafields(admin, shop, orderGid, values),
    writeCreditNotesMetafield: (shop, orderGid, notes) =>
      writeCreditNotesMetafield(
        admin,
        shop,
        orderGid,
        notes.map((n) => ({ ...n })),
      ),
  };
}
