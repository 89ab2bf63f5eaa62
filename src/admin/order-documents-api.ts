// GET /api/orders/:orderId/documents: one order's invoice and credit notes, for the order-details block the
// app adds to the Shopify admin (extensions/order-invoice-block). Like the rest of /api it answers only
// for the session token's shop.
import { type RequestHandler, Router } from 'express';
import type { Db } from '../db/database.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { orderDocuments } from '../documents/store/index.ts';
import { shopState } from './document-detail.ts';
import { pdfUrl } from '../documents/pdf-link.ts';
import { type DocumentSummary, documentSummary, fiscalNumbers, isRetryableByHand } from './document-view.ts';
import { type SessionTokenDeps, requireSessionToken, shopOf } from './session-token.ts';

export interface OrderDocumentsDeps extends SessionTokenDeps {
  db: Db;
  shops: Pick<ShopRepository, 'get'>;
  /** Public origin of the app, for PDF links. */
  appUrl: string;
}

export interface OrderDocument extends DocumentSummary {
  pdfUrl: string | null;
  retryable: boolean;
}

export interface OrderDocuments {
  orderGid: string;
  documents: OrderDocument[];
}

/** "5910000000001" or "gid://shopify/Order/5910000000001" → the GID; anything else → undefined. */
export function orderGidOf(orderId: string): string | undefined {
  const id = /^(?:gid:\/\/shopify\/Order\/)?([1-9]\d{0,19})$/.exec(orderId)?.[1];
  return id ? `gid://shopify/Order/${id}` : undefined;
}

export function orderDocumentsRouter(deps: OrderDocumentsDeps): Router {
  const router = Router();
  const documents: RequestHandler = async (req, res) => {
    const orderGid = orderGidOf(String(req.params.orderId ?? ''));
    if (!orderGid) {
      res.status(400).json({
        error: 'orderId: must be an order id (digits) or its GID, like gid://shopify/Order/5910000000001',
        problems: [{ path: 'orderId', message: 'must be an order id (digits) or its GID' }],
      });
      return;
    }
    const shop = shopOf(res);
    const [rows, shopRow] = await Promise.all([orderDocuments(deps.db, shop, orderGid), deps.shops.get(shop)]);
    const state = shopState(shopRow);
    // A note's invoice is one of the order's documents.
    const numbers = fiscalNumbers(rows);
    const body: OrderDocuments = {
      orderGid,
      documents: rows.map((row) => ({
        ...documentSummary(row, state, numbers),
        pdfUrl: pdfUrl(deps.appUrl, row.pdfToken),
        retryable: isRetryableByHand(row),
      })),
    };
    res.set('Cache-Control', 'no-store').json(body);
  };
  router.get('/orders/:orderId/documents', requireSessionToken(deps), documents);
  return router;
}
