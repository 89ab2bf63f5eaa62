// Bulk actions on the list (docs/merchants.md, "Acciones en lote"), behind the session token like every /api route:
//   GET  /api/invoices/bulk/count?status&kind&from&to&q  how many documents match the list's filters (up to 501)
//   POST /api/invoices/bulk/retry     { ids } | { filters }  → { done, queued, refused: [...], counts }
//   POST /api/invoices/bulk/resend    { ids } | { filters }  → { done, queued, refused: [...] }
//   POST /api/invoices/bulk/pdfs.zip  { ids } | { filters }  → the PDFs as a ZIP, streamed
// Mounted before the per-document routes, whose `/invoices/:id/...` would otherwise take "bulk" for an id.
import type { Shopify } from '@shopify/shopify-api';
import express, { type Request, type Response, Router } from 'express';
import type { Db } from '../db/database.ts';
import { type BulkOutcome, resendOne, retryOne } from './bulk-outcomes.ts';
import { type BulkRow, countByStatus, countMatching } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import { render } from '../messages/catalogue.ts';
import { message } from '../messages/message.ts';
import { writePdfsZip } from '../reports/pdfs-zip.ts';
import { badRequest, zodProblems } from './admin-api.ts';
import {
  type BulkBody,
  MAX_BULK_DOCUMENTS,
  type Refusal,
  type Selection,
  bulkBodySchema,
  bulkFiltersSchema,
  documentFilter,
  inSelectionOrder,
  notFound,
  refusalOf,
  selectDocuments,
} from './bulk-selection.ts';
import { jsonObjectBody } from './request-guards.ts';
import { requestLanguage } from './request-language.ts';
import { requireSessionToken, shopOf } from './session-token.ts';

export interface BulkApiDeps {
  db: Db;
  shopify: Shopify;
  logger: Logger;
  /** Look for due documents now (after a retry). */
  wakeWorker: () => void;
  /** Whether this server has SMTP, and a nudge for its e-mail runner (absent: no SMTP). */
  emails?: { configured: boolean; wake?(): void } | undefined;
}

export const BULK_ZIP_NAME = 'documentos-pdf.zip';

/** The body's selection, or a 400 answered; null when answered. */
async function selection(deps: BulkApiDeps, req: Request, res: Response): Promise<(Selection & { body: BulkBody }) | null> {
  const parsed = bulkBodySchema.safeParse(req.body);
  if (!parsed.success) {
    badRequest(res, zodProblems(parsed.error));
    return null;
  }
  const selected = await selectDocuments(deps.db, shopOf(res), parsed.data);
  if (!selected.ok) {
    const said = `more than ${MAX_BULK_DOCUMENTS} documents match these filters; narrow them (a status, a type or dates) and act on each part`;
    badRequest(res, [{ path: 'filters', message: said }], `filters: ${said}`);
    return null;
  }
  return { ...selected, body: parsed.data };
}

/** Act on each selected document in turn; the answer names every document not acted on, and why. */
async function actOnEach(req: Request, sel: Selection & { body: BulkBody }, act: (row: BulkRow) => Promise<BulkOutcome>) {
  const language = requestLanguage(req);
  const refused: Refusal[] = sel.missing.map((id) => notFound(id, language));
  let done = 0;
  let queued = 0;
  for (const row of sel.rows) {
    const outcome = await act(row);
    if (!outcome.done) refused.push(refusalOf(row, outcome.reason, language));
    else {
      done++;
      if (outcome.queued) queued++;
    }
  }
  return { done, queued, refused: inSelectionOrder(sel.body, sel, refused) };
}

export function bulkApiRouter(deps: BulkApiDeps): Router {
  const router = Router();
  const auth = requireSessionToken({ shopify: deps.shopify });
  // 500 ids are some 20 kB of JSON.
  const body = [auth, express.json({ limit: '256kb' }), jsonObjectBody(['ids', 'filters'], { required: true })];

  router.get('/invoices/bulk/count', auth, async (req, res) => {
    const parsed = bulkFiltersSchema.safeParse(req.query);
    if (!parsed.success) return badRequest(res, zodProblems(parsed.error));
    const count = await countMatching(deps.db, documentFilter(shopOf(res), parsed.data), MAX_BULK_DOCUMENTS + 1);
    res.json({ count: Math.min(count, MAX_BULK_DOCUMENTS), more: count > MAX_BULK_DOCUMENTS, max: MAX_BULK_DOCUMENTS });
  });

  router.post('/invoices/bulk/retry', ...body, async (req, res) => {
    const sel = await selection(deps, req, res);
    if (!sel) return;
    const shop = shopOf(res);
    const result = await actOnEach(req, sel, (row) => retryOne(deps.db, row));
    deps.logger.info({ shop, selected: sel.rows.length, done: result.done, refused: result.refused.length }, 'admin: bulk retry');
    if (result.done > 0) deps.wakeWorker();
    res.json({ ...result, counts: await countByStatus(deps.db, shop) });
  });

  router.post('/invoices/bulk/resend', ...body, async (req, res) => {
    const sel = await selection(deps, req, res);
    if (!sel) return;
    const configured = deps.emails?.configured ?? false;
    const result = await actOnEach(req, sel, (row) => resendOne(deps.db, row, configured));
    deps.logger.info(
      { shop: shopOf(res), selected: sel.rows.length, done: result.done, queued: result.queued, refused: result.refused.length },
      'admin: bulk resend',
    );
    if (result.queued > 0) deps.emails?.wake?.();
    res.json(result);
  });

  router.post('/invoices/bulk/pdfs.zip', ...body, async (req, res) => {
    const sel = await selection(deps, req, res);
    if (!sel) return;
    const language = requestLanguage(req);
    const zipped = sel.rows.filter((r) => r.hasPdf);
    const leftOut = inSelectionOrder(sel.body, sel, [
      ...sel.missing.map((id) => notFound(id, language)),
      ...sel.rows.filter((r) => !r.hasPdf).map((r) => refusalOf(r, message('bulk_no_pdf'), language)),
    ]);
    if (zipped.length === 0) {
      res.status(409).json({ error: render(message('bulk_no_pdf'), language), code: 'no_pdfs', leftOut });
      return;
    }
    res.status(200).set({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${BULK_ZIP_NAME}"`,
      'Cache-Control': 'no-store',
      'X-Documents-Zipped': String(zipped.length),
      'X-Documents-Left-Out': String(leftOut.length),
    });
    const note = leftOut.length === 0 ? undefined : leftOutNote(leftOut, language);
    try {
      await writePdfsZip(deps.db, zipped, res, note);
      deps.logger.info({ shop: shopOf(res), zipped: zipped.length, leftOut: leftOut.length }, 'admin: bulk PDFs downloaded');
    } catch (error) {
      deps.logger.error({ err: error, shop: shopOf(res) }, 'admin: bulk PDFs download failed');
      // Headers are gone: cut the answer short so the download shows as failed, not as a short file.
      res.destroy();
    }
  });

  return router;
}

/** The ZIP's note of the documents left out (no PDF, not found), one a line, in the reader's language. */
export function leftOutNote(leftOut: readonly Refusal[], language: 'es' | 'en'): { name: string; text: string } {
  const name = language === 'es' ? 'documentos-sin-pdf.txt' : 'documents-without-pdf.txt';
  const lines = leftOut.map((r) => [r.order ?? r.id, r.fiscalNumber, r.reason].filter(Boolean).join(' — '));
  return { name, text: `${lines.join('\r\n')}\r\n` };
}
