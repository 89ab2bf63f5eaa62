// GET /invoices/<token>.pdf: the official PDF behind an unguessable link (the link is the credential).
import type { RequestHandler } from 'express';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { invoices } from '../db/schema.ts';
import { findPdfByToken } from '../invoices/invoice-repository.ts';
import { formatFiscalNumber } from '../invoices/invoice-worker.ts';

const FILE = /^([A-Za-z0-9_-]{32})\.pdf$/;

export function invoicePdfRoute(db: Db): RequestHandler {
  return async (req, res) => {
    const match = FILE.exec(String(req.params.file ?? ''));
    const pdf = match ? await findPdfByToken(db, match[1]!) : undefined;
    if (!pdf) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const [invoice] = await db
      .select({ branchCode: invoices.branchCode, billingPoint: invoices.billingPoint, fiscalNumber: invoices.fiscalNumber })
      .from(invoices)
      .where(eq(invoices.id, pdf.invoiceId));
    const name = invoice ? `factura-${formatFiscalNumber(invoice)}.pdf` : 'factura.pdf';
    res
      .status(200)
      .set({
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${name}"`,
        'Cache-Control': 'private, max-age=3600',
        ETag: `"${pdf.sha256}"`,
        'X-Content-Type-Options': 'nosniff',
      })
      .send(pdf.bytes);
  };
}
