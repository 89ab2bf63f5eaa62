// The accountant's month in the admin API (docs/reports.md), behind the session token like every /api route; the
// shop comes only from the token. GET /api/reports/month?month=YYYY-MM[&environment=produccion|pruebas]
// [&format=json|csv|xlsx|zip]: the figures as JSON, or the sales book (CSV, XLSX) or the PDFs with the book (ZIP)
// as a download, streamed as it is read.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Shopify } from '@shopify/shopify-api';
import { type Request, type Response, Router } from 'express';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { readMonthFigures } from '../reports/month-report.ts';
import { monthFileBase, writeMonthZip } from '../reports/month-zip.ts';
import { type ReportFormat, readReportRequest } from '../reports/report-request.ts';
import { salesBookCsv } from '../reports/sales-book-csv.ts';
import { writeMonthXlsx } from '../reports/sales-book-xlsx.ts';
import { requireSessionToken, shopOf } from './session-token.ts';
import type { ShopRepository } from '../shops/shop-repository.ts';
import { type ReportEmailRow, queueReportResend, reportEmailsOf } from '../reports/report-email-store.ts';
import { parseReportMonth } from '../reports/report-month.ts';
import { localize } from '../messages/catalogue.ts';
import { asMessage } from '../messages/message.ts';

/** An accountant's e-mail as the page shows it. */
export function reportEmailView(e: ReportEmailRow) {
  const lastError = asMessage(e.lastError);
  return {
    id: e.id,
    month: e.month,
    recipient: e.recipient,
    reason: e.reason,
    status: e.status,
    attempts: e.attempts,
    sentAt: e.sentAt?.toISOString() ?? null,
    lastError: lastError ? localize(lastError) : null,
    createdAt: e.createdAt.toISOString(),
  };
}

export interface ReportEmailsView {
  configured: boolean;
  accountantEmail: string | null;
  emails: ReturnType<typeof reportEmailView>[];
}

export interface ReportsApiDeps {
  db: Db;
  shopify: Shopify;
  shops: ShopRepository;
  logger: Logger;
  /** Whether this server has SMTP, and a nudge for the accountant's e-mail runner (absent: no SMTP). */
  accountantEmails?: { configured: boolean; wake(): void } | undefined;
  /** The clock that decides which months have begun (tests set it). */
  now?: () => Date;
}

const CONTENT_TYPES: Record<Exclude<ReportFormat, 'json'>, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
};

const query = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function reportsApiRouter(deps: ReportsApiDeps): Router {
  const router = Router();
  const auth = requireSessionToken({ shopify: deps.shopify });

  router.get('/reports/month', auth, async (req, res) => {
    const shop = shopOf(res);
    const read = readReportRequest(
      { month: query(req.query['month']), environment: query(req.query['environment']), format: query(req.query['format']) },
      (deps.now ?? (() => new Date()))(),
    );
    if (!read.ok) {
      res.status(400).json({ error: `${read.field}: ${read.error}`, problems: [{ path: read.field, message: read.error }] });
      return;
    }
    const { request } = read;
    const q = { shop, month: request.month, environment: request.environment };
    if (request.format === 'json') {
      res.set('Cache-Control', 'no-store').json(await readMonthFigures(deps.db, q));
      return;
    }
    res.status(200).set({
      'Content-Type': CONTENT_TYPES[request.format],
      'Content-Disposition': `attachment; filename="${monthFileBase(q)}.${request.format}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    try {
      if (request.format === 'csv') await streamTo(salesBookCsv(deps.db, q), res);
      else if (request.format === 'xlsx') await writeMonthXlsx(deps.db, q, await readMonthFigures(deps.db, q), res);
      else await writeMonthZip(deps.db, q, res);
    } catch (error) {
      deps.logger.error({ err: error, shop, month: request.month.month, format: request.format }, 'admin: report download failed');
      // Headers are gone: cut the answer short so the download shows as failed, not as a short file.
      res.destroy();
    }
  });

  // The month's e-mails to the accountant, and sending the month again (from the page).
  const emailMonth = (req: Request, res: Response) => {
    const parsed = parseReportMonth(query(req.query['month']) ?? '', (deps.now ?? (() => new Date()))());
    if (!parsed.ok) res.status(400).json({ error: `month: ${parsed.error}`, problems: [{ path: 'month', message: parsed.error }] });
    return parsed.ok ? parsed.month : undefined;
  };

  router.get('/reports/month/email', auth, async (req, res) => {
    const month = emailMonth(req, res);
    if (!month) return;
    const shop = shopOf(res);
    const view: ReportEmailsView = {
      configured: deps.accountantEmails?.configured ?? false,
      accountantEmail: (await deps.shops.get(shop))?.settings.accountantEmail ?? null,
      emails: (await reportEmailsOf(deps.db, shop, month.month)).map(reportEmailView),
    };
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.post('/reports/month/email', auth, async (req, res) => {
    const month = emailMonth(req, res);
    if (!month) return;
    const shop = shopOf(res);
    if (!deps.accountantEmails?.configured) {
      res.status(409).json({ error: 'e-mail is not configured on this server (SMTP_URL, MAIL_FROM)', code: 'not_configured' });
      return;
    }
    const recipient = (await deps.shops.get(shop))?.settings.accountantEmail;
    if (!recipient) {
      res.status(409).json({ error: "the shop has no accountant's e-mail (settings: accountantEmail)", code: 'no_address' });
      return;
    }
    const outcome = await queueReportResend(deps.db, { shop, month: month.month, recipient });
    deps.logger.info({ shop, month: month.month, emailId: outcome.email.id, queued: outcome.queued }, 'admin: accountant e-mail resend');
    deps.accountantEmails.wake();
    res.status(202).json({ email: reportEmailView(outcome.email), queued: outcome.queued });
  });

  return router;
}

function streamTo(source: Readable, res: Response): Promise<void> {
  return pipeline(source, res);
}
