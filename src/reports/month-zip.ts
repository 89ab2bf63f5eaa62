// The documents out: a ZIP of the month's PDFs (invoices and credit notes, named by type and number as their links
// name them) with the sales book CSV inside, written by archiver as it is read. The PDFs are read a batch at a time
// and the next batch only once the archive has written the last one out, so memory holds one batch whatever the
// month's size and however slowly the reader takes the bytes.
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/database.ts';
import { type MonthCursor, formatFiscalNumber, monthPdfsBatch } from '../documents/store/index.ts';
import { type MonthReportQuery, monthQuery } from './month-report.ts';
import { salesBookCsv } from './sales-book-csv.ts';

/** PDFs read per query (a CAFE is some tens of kB). */
export const PDF_BATCH = 25;

/** The file name of a document's PDF, as its link names it. */
export function pdfFileName(d: {
  kind: string;
  branchCode: string | null;
  billingPoint: string | null;
  fiscalNumber: number | null;
}): string {
  return `${d.kind === 'credit_note' ? 'nota-de-credito' : 'factura'}-${formatFiscalNumber(d)}.pdf`;
}

/** The month's files' base name: `libro-de-ventas-2026-11` (with `-pruebas` for the test environment). */
export function monthFileBase(q: MonthReportQuery): string {
  return `libro-de-ventas-${q.month.month}${q.environment === 'pruebas' ? '-pruebas' : ''}`;
}

/** Write the ZIP to `out`; resolves when the archive is finalized. */
export async function writeMonthZip(db: Db, q: MonthReportQuery, out: Writable): Promise<void> {
  // Loaded on use, from node_modules (left out of the bundle, scripts/bundle-app.ts).
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  let processed = 0;
  let wanted = 0;
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  archive.on('entry', () => {
    processed++;
    if (processed >= wanted) wake?.();
  });
  const failed = (error: Error) => {
    failure = error;
    wake?.();
  };
  archive.on('error', failed);
  archive.on('warning', failed);
  // pipeline ends a file and leaves standard output open; it settles once the archive's last byte is written.
  const written = pipeline(archive, out);
  written.catch(failed);
  const caughtUp = () =>
    new Promise<void>((resolve) => {
      if (processed >= wanted || failure) return resolve();
      wake = resolve;
    });

  try {
    const csv = salesBookCsv(db, q);
    csv.on('error', failed);
    archive.append(csv, { name: `${monthFileBase(q)}.csv` });
    wanted++;
    await caughtUp();
    const mq = monthQuery(q);
    let after: MonthCursor | undefined;
    for (;;) {
      if (failure) throw failure;
      const rows = await monthPdfsBatch(db, mq, after, PDF_BATCH);
      for (const pdf of rows) archive.append(pdf.bytes, { name: pdfFileName(pdf), store: true });
      wanted += rows.length;
      await caughtUp();
      if (rows.length < PDF_BATCH) break;
      after = rows.at(-1)!.cursor;
    }
    if (failure) throw failure;
    await archive.finalize();
    await written;
  } catch (error) {
    archive.abort();
    throw error;
  }
}
