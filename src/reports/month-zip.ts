// The documents out: a ZIP of the month's PDFs (invoices and credit notes, named by type and number as their links
// name them) with the sales book CSV inside, written as it is read (paced-zip.ts). The PDFs are read a batch at a
// time, so memory holds one batch whatever the month's size and however slowly the reader takes the bytes.
import type { Writable } from 'node:stream';
import type { Db } from '../db/database.ts';
import { type MonthCursor, formatFiscalNumber, monthPdfsBatch } from '../documents/store/index.ts';
import { type MonthReportQuery, monthQuery } from './month-report.ts';
import { writePacedZip } from './paced-zip.ts';
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
  await writePacedZip(out, async (add) => {
    await add(salesBookCsv(db, q), { name: `${monthFileBase(q)}.csv` });
    const mq = monthQuery(q);
    let after: MonthCursor | undefined;
    for (;;) {
      const rows = await monthPdfsBatch(db, mq, after, PDF_BATCH);
      for (const pdf of rows) await add(pdf.bytes, { name: pdfFileName(pdf), store: true });
      if (rows.length < PDF_BATCH) break;
      after = rows.at(-1)!.cursor;
    }
  });
}
