// The accountant's month in the admin API (docs/reports.md), behind the session token like every /api route; the
// shop comes only from the token. GET /api/reports/month?month=YYYY-MM[&environment=produccion|pruebas]
// [&format=json|csv|xlsx|zip]: the figures as JSON, or the sales book (CSV, XLSX) or the PDFs with the book (ZIP)
// as a download, streamed as it is read.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Shopify } from '@shopify/shopify-api';
import { type Response, Router } from 'express';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { readMonthFigures } from '../reports/month-report.ts';
import { monthFileBase, writeMonthZip } from '../reports/month-zip.ts';
import { type ReportFormat, readReportRequest } from '../reports/report-request.ts';
import { salesBookCsv } from '../reports/sales-book-csv.ts';
import { writeMonthXlsx } from '../reports/sales-book-xlsx.ts';
import { requireSessionToken, shopOf } from './session-token.ts';

export interface ReportsApiDeps {
  db: Db;
  shopify: Shopify;
  logger: Logger;
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

  return router;
}

function streamTo(source: Readable, res: Response): Promise<void> {
  return pipeline(source, res);
}
