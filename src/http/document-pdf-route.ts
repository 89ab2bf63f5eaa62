// GET /invoices/<token>.pdf: a document's official PDF behind an unguessable link (the link is the credential; its
// address is made by src/documents/pdf-link.ts).
import type { RequestHandler } from 'express';
import type { Db } from '../db/database.ts';
import { formatFiscalNumber, pdfByToken } from '../documents/store/index.ts';

const FILE = /^([A-Za-z0-9_-]{32})\.pdf$/;

export function documentPdfRoute(db: Db): RequestHandler {
  return async (req, res) => {
    const match = FILE.exec(String(req.params.file ?? ''));
    const pdf = match ? await pdfByToken(db, match[1]!) : undefined;
    if (!pdf) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const name = `${pdf.kind === 'credit_note' ? 'nota-de-credito' : 'factura'}-${formatFiscalNumber(pdf)}.pdf`;
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
