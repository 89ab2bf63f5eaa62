// shop/redact (48 hours after uninstall): delete everything we hold for the shop. The authorized invoices
// remain with the certification provider and the DGI, and on the shop's orders (metafields).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { deleteShopDocuments } from '../documents/store/index.ts';
import { deleteShopReportEmails } from '../reports/report-email-store.ts';
import { complianceRequests, fiscalSequences, fiscalSeriesChanges, fiscalSkips, sessions, shops, webhookDeliveries } from '../db/schema.ts';

export interface ShopRedactionResult {
  invoices: number;
  gatewayCalls: number;
  webhookDeliveries: number;
  fiscalSequences: number;
  fiscalSkips: number;
  reportEmails: number;
  sessions: number;
  complianceRequests: number;
  shop: number;
}

/**
 * Delete the shop's data, unless the shop installed the app again since it uninstalled
 * (then the request is stale and deleting would lose live invoices and the fiscal numbering).
 */
export async function redactShop(db: Db, shop: string): Promise<ShopRedactionResult | { skipped: string }> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select({ installed: shops.installed }).from(shops).where(eq(shops.shop, shop)).for('update');
    if (current?.installed) return { skipped: 'the shop has the app installed again; nothing was deleted' };
    const count = (rows: unknown[]) => rows.length;
    // PDFs go with their document (ON DELETE CASCADE).
    const deleted = await deleteShopDocuments(tx, shop);
    // Who moved a series' next number (a person's id) goes with the series.
    await tx.delete(fiscalSeriesChanges).where(eq(fiscalSeriesChanges.shop, shop));
    const result: ShopRedactionResult = {
      gatewayCalls: deleted.gatewayCalls,
      invoices: deleted.documents,
      webhookDeliveries: count(
        await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.shop, shop)).returning({ id: webhookDeliveries.id }),
      ),
      fiscalSequences: count(
        await tx.delete(fiscalSequences).where(eq(fiscalSequences.shop, shop)).returning({ shop: fiscalSequences.shop }),
      ),
      fiscalSkips: count(await tx.delete(fiscalSkips).where(eq(fiscalSkips.shop, shop)).returning({ id: fiscalSkips.id })),
      reportEmails: await deleteShopReportEmails(tx, shop),
      sessions: count(await tx.delete(sessions).where(eq(sessions.shop, shop)).returning({ id: sessions.id })),
      complianceRequests: count(
        await tx.delete(complianceRequests).where(eq(complianceRequests.shop, shop)).returning({ id: complianceRequests.id }),
      ),
      shop: count(await tx.delete(shops).where(eq(shops.shop, shop)).returning({ shop: shops.shop })),
    };
    return result;
  });
}
