// One document's detail as the admin API answers it (GET /api/invoices/:id and the routes that change one): its row
// with the shop's state, its PDF link, its gateway calls and its relatives (an invoice's credit notes, a note's
// invoice). Only the given shop's documents.
import type { Db } from '../db/database.ts';
import { type DocumentRow, documentCalls, findDocument, pdfToken, relatedDocuments } from '../documents/store/index.ts';
import type { Shop, ShopRepository } from '../shops/shop-repository.ts';
import { type BuyerView, buyerViewOf } from './buyer-request-view.ts';
import { type DocumentDetail, type ShopState, documentDetail } from './document-view.ts';

/** The detail with the document's buyer page and the buyer's request (docs/buyer-page.md). */
export type AdminDocumentDetail = DocumentDetail & { buyer: BuyerView };

export interface DocumentDetailDeps {
  db: Db;
  shops: Pick<ShopRepository, 'get'>;
  /** Public origin of the app, for PDF links. */
  appUrl: string;
  /** Whether this server e-mails buyers (the resend action); absent, the detail does not judge it. */
  emails?: { configured: boolean } | undefined;
}

export function shopState(shop: Pick<Shop, 'enabled' | 'pausedReason'> | undefined): ShopState {
  return { enabled: shop?.enabled ?? false, pausedReason: shop?.pausedReason ?? null };
}

/** The detail of a row already read. */
export async function detailOf(deps: DocumentDetailDeps, row: DocumentRow): Promise<AdminDocumentDetail> {
  const [shopRow, token, calls, related, buyer] = await Promise.all([
    deps.shops.get(row.shop),
    pdfToken(deps.db, row.shop, row.id),
    documentCalls(deps.db, row.id, row.shop),
    relatedDocuments(deps.db, row),
    buyerViewOf(deps.db, deps.appUrl, row),
  ]);
  return {
    ...documentDetail({
      row,
      shop: shopState(shopRow),
      pdfToken: token,
      appUrl: deps.appUrl,
      calls,
      related,
      ...(deps.emails ? { mailConfigured: deps.emails.configured } : {}),
    }),
    buyer,
  };
}

/** The shop's document `id`, or undefined when the shop has none by that id. */
export async function findDetail(deps: DocumentDetailDeps, shop: string, id: string): Promise<AdminDocumentDetail | undefined> {
  const row = await findDocument(deps.db, id, shop);
  return row && detailOf(deps, row);
}
