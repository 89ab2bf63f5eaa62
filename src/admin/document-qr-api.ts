// GET /api/invoices/:id/qr: the invoice's DGI query address as a QR image (an SVG data URL), drawn here with
// the qrcode package so the page needs no bundler and no CDN. Only for the session token's shop.
import { Router } from 'express';
import { toString as qrSvg } from 'qrcode';
import type { Db } from '../db/database.ts';
import { findDocument } from '../documents/store/index.ts';
import { isUuid } from './list-params.ts';
import { type SessionTokenDeps, requireSessionToken, shopOf } from './session-token.ts';

export interface DocumentQrDeps extends SessionTokenDeps {
  db: Db;
}

/** The DGI's QR address as an SVG data URL; medium error correction, as printed CAFEs use. */
export async function qrDataUrl(address: string): Promise<string> {
  const svg = await qrSvg(address, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export function documentQrRouter(deps: DocumentQrDeps): Router {
  const router = Router();
  router.get('/invoices/:id/qr', requireSessionToken(deps), async (req, res) => {
    const id = String(req.params.id ?? '');
    if (!isUuid(id)) {
      res.status(400).json({ error: 'id: must be an invoice id (a UUID)' });
      return;
    }
    const row = await findDocument(deps.db, id, shopOf(res));
    if (!row?.qr) {
      res.status(404).json({ error: row ? 'this invoice has no QR address yet' : 'invoice not found' });
      return;
    }
    res.set('Cache-Control', 'no-store').json({ address: row.qr, image: await qrDataUrl(row.qr) });
  });
  return router;
}
