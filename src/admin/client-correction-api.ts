// The merchant corrects an invoice's client (docs/design.md §10), under /api like the rest of the admin API: session token,
// the token's shop only (another shop's invoice is not found).
//   GET    /invoices/:id/client  the form's values: the stored correction, else the client as mapped or as the order says
//   PUT    /invoices/:id/client  save a correction (JSON, validated whole: nothing saved on error) and requeue the invoice
//   DELETE /invoices/:id/client  drop the correction
//   POST   /invoices/:id/reinvoice  an authorized invoice to the wrong buyer: a full credit note and a new invoice to
//                                   the client in the body (202 with both ids)
// 409 when the invoice cannot take a correction (or a replacement) now.
import express, { type ErrorRequestHandler, type Request, type Response, Router } from 'express';
import { type ClientCorrection, clientCorrectionSchema, storedCorrection } from '../../mappers/invoice/client-correction.ts';
import { type ClientFields, clientFields } from '../../mappers/invoice/client-fields.ts';
import { parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import type { Db } from '../db/database.ts';
import { type CorrectionOutcome, correctClient, correctionRefusal, isCorrectable } from '../documents/correct-client.ts';
import { reinvoice } from '../documents/reinvoice.ts';
import { type DocumentRow, findDocument } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import { render } from '../messages/catalogue.ts';
import { requestLanguage } from './request-language.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { clientProblems } from './client-problems.ts';
import { detailOf } from './document-detail.ts';
import { isUuid } from './list-params.ts';
import { noNulInBody } from './request-guards.ts';
import { type SessionTokenDeps, requireSessionToken, shopOf } from './session-token.ts';

export interface ClientCorrectionDeps extends SessionTokenDeps {
  db: Db;
  shops: Pick<ShopRepository, 'get'>;
  /** Public origin of the app, for PDF links in the detail. */
  appUrl: string;
  /** Look for due invoices now (after a correction). */
  wakeWorker: () => void;
  /** Whether this server e-mails buyers (a document's resend action says so). */
  emails?: { configured: boolean } | undefined;
  logger: Logger;
}

/** GET /invoices/:id/client: what the correction form shows. */
export interface ClientFormView {
  correctable: boolean;
  /** Why not, when it is not correctable. */
  refusal: string | null;
  correction: ClientCorrection | null;
  fields: ClientFields;
}

export function clientCorrectionRouter(deps: ClientCorrectionDeps): Router {
  const router = Router();
  const auth = requireSessionToken(deps);
  const json = express.json({ limit: '16kb' });

  router.get('/invoices/:id/client', auth, async (req, res) => {
    const row = await invoiceOf(req, res);
    if (!row) return;
    const shop = await deps.shops.get(row.shop);
    const parsed = row.snapshotRedacted ? undefined : parseShopifyOrder(row.snapshot);
    const correction = storedCorrection(row.clientOverride);
    const fields = clientFields({
      correction,
      document: row.document,
      order: parsed?.ok && shop ? { order: parsed.order, settings: shop.settings.mapping } : undefined,
    });
    const correctable = isCorrectable(row);
    const view: ClientFormView = {
      correctable,
      refusal: correctable ? null : correctionRefusal(row),
      correction: correction ?? null,
      fields,
    };
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.put('/invoices/:id/client', auth, json, noNulInBody, async (req, res) => {
    const { id, correction } = correctionRequest(req, res) ?? {};
    if (!id || !correction) return;
    const shop = shopOf(res);
    const outcome = await correctClient(deps.db, { id, shop }, correction);
    if (outcome.kind === 'done') {
      deps.logger.info({ shop, invoiceId: id, client: correction.type }, 'admin: client corrected, invoice requeued');
      deps.wakeWorker();
    }
    await answer(req, res, outcome);
  });

  router.delete('/invoices/:id/client', auth, async (req, res) => {
    const id = invoiceIdOf(req, res);
    if (!id) return;
    const shop = shopOf(res);
    const outcome = await correctClient(deps.db, { id, shop }, null);
    if (outcome.kind === 'done') deps.logger.info({ shop, invoiceId: id }, 'admin: client correction removed');
    await answer(req, res, outcome);
  });

  router.post('/invoices/:id/reinvoice', auth, json, noNulInBody, async (req, res) => {
    const { id, correction } = correctionRequest(req, res) ?? {};
    if (!id || !correction) return;
    const shop = shopOf(res);
    const outcome = await reinvoice(deps.db, { id, shop }, correction);
    if (outcome.kind === 'not_found') return void res.status(404).json({ error: 'invoice not found' });
    if (outcome.kind === 'refused') {
      const language = requestLanguage(req);
      return void res.status(409).json({ error: language === 'en' ? outcome.reason : render(outcome.message, language) });
    }
    deps.logger.info({ shop, invoiceId: id, creditNote: outcome.noteId, replacement: outcome.replacementId }, 'admin: invoice re-issued');
    deps.wakeWorker();
    res.status(202).json({ creditNoteId: outcome.noteId, invoiceId: outcome.replacementId, replaces: id });
  });

  // A body that is not JSON: say so, without repeating it (the parser's own message quotes the text).
  router.use(((error, _req, res, next) => {
    if ((error as { type?: unknown })?.type !== 'entity.parse.failed') return next(error);
    res.status(400).json({ error: 'the body is not valid JSON', problems: [{ path: '(body)', message: 'is not valid JSON' }] });
  }) as ErrorRequestHandler);

  async function invoiceOf(req: Request, res: Response): Promise<DocumentRow | undefined> {
    const id = invoiceIdOf(req, res);
    if (!id) return undefined;
    const row = await findDocument(deps.db, id, shopOf(res));
    if (!row) res.status(404).json({ error: 'invoice not found' });
    return row;
  }

  async function answer(req: Request, res: Response, outcome: CorrectionOutcome): Promise<void> {
    if (outcome.kind === 'not_found') {
      res.status(404).json({ error: 'invoice not found' });
      return;
    }
    if (outcome.kind === 'refused') {
      const language = requestLanguage(req);
      const error = language !== 'en' && outcome.message ? render(outcome.message, language) : outcome.reason;
      res.status(409).json({ error, status: outcome.status });
      return;
    }
    res.json({ invoice: await detailOf(deps, outcome.doc) });
  }

  return router;
}

/** The body as a client (JSON, validated whole); undefined with the answer sent when it is not one. */
/** The invoice id and the client of a request that corrects one; answered (400/415) and undefined when either is wrong. */
function correctionRequest(req: Request, res: Response): { id: string; correction: ClientCorrection } | undefined {
  const id = invoiceIdOf(req, res);
  const correction = id && correctionOf(req, res);
  return id && correction ? { id, correction } : undefined;
}

function correctionOf(req: Request, res: Response): ClientCorrection | undefined {
  if (!req.is('application/json')) {
    res.status(415).json({ error: 'send the client as JSON (Content-Type: application/json)' });
    return undefined;
  }
  const parsed = clientCorrectionSchema.safeParse(req.body);
  if (parsed.success) return parsed.data;
  const language = requestLanguage(req);
  const problems = clientProblems(parsed.error, language);
  const lead = language === 'en' ? 'invalid client' : 'datos del cliente no válidos';
  res.status(400).json({ error: `${lead}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems });
  return undefined;
}

/** `:id` must be a UUID (400 otherwise). */
function invoiceIdOf(req: Request, res: Response): string | undefined {
  const id = String(req.params.id ?? '');
  if (isUuid(id)) return id;
  res
    .status(400)
    .json({ error: 'id: must be an invoice id (a UUID)', problems: [{ path: 'id', message: 'must be an invoice id (a UUID)' }] });
  return undefined;
}
