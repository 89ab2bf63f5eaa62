// The month as an XLSX workbook (exceljs's streaming WorkbookWriter: rows are written out as they are added, so a
// large month does not sit in memory): a summary sheet with the month's figures (month-figures.ts), then the sales
// book, one row per document, amounts as numbers with two decimals (credit notes negative). exceljs is loaded on
// first use and kept out of the bundle (scripts/bundle-app.ts): the app starts without it.
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { Db } from '../db/database.ts';
import type { GapReason, MonthFigures } from './month-figures.ts';
import type { MonthReportQuery } from './month-report.ts';
import { salesBookRows } from './sales-book-csv.ts';
import { AMOUNT_COLUMNS, SALES_BOOK_COLUMNS } from './sales-book.ts';

export const SUMMARY_SHEET = 'Resumen';
export const BOOK_SHEET = 'Libro de ventas';

const MONEY = '#,##0.00';
const money = (cents: number) => cents / 100;

const RATE_LABELS: Record<number, string> = { 0: 'Exento (0 %)', 7: 'ITBMS 7 %', 10: 'ITBMS 10 %', 15: 'ITBMS 15 %' };

/** A gap's reason in the accountant's words (Spanish: the DGI's language). */
export function gapReasonText(r: GapReason): string {
  switch (r.kind) {
    case 'skipped':
      return `Número saltado: ${r.detail}`;
    case 'other_month':
      return `Autorizado en ${r.month}`;
    case 'other_environment':
      return `Documento del ambiente ${r.environment}`;
    case 'not_authorized':
      return `Aún no autorizado (${r.status})`;
    case 'unrecorded':
      return 'Sin registro';
  }
}

function addSummary(book: ExcelJS.stream.xlsx.WorkbookWriter, f: MonthFigures): void {
  const sheet = book.addWorksheet(SUMMARY_SHEET);
  sheet.columns = [{ width: 22 }, ...Array.from({ length: 6 }, () => ({ width: 16 }))];
  sheet.addRow(['Tienda', f.shop]).commit();
  sheet.addRow(['Mes', f.month]).commit();
  sheet.addRow(['Ambiente', f.environment]).commit();
  sheet.addRow([]).commit();
  sheet
    .addRow(['Tasa', 'Base facturas', 'ITBMS facturas', 'Base notas de crédito', 'ITBMS notas de crédito', 'Base neta', 'ITBMS neto'])
    .commit();
  const moneyRow = (cells: (string | number)[]) => {
    const row = sheet.addRow(cells);
    for (let c = 2; c <= cells.length; c++) row.getCell(c).numFmt = MONEY;
    row.commit();
  };
  for (const r of f.rates) {
    moneyRow([RATE_LABELS[r.rate]!, ...[r.invoices, r.creditNotes, r.net].flatMap((a) => [money(a.baseCents), money(a.itbmsCents)])]);
  }
  moneyRow(['Total', ...[f.invoices, f.creditNotes, f.net].flatMap((a) => [money(a.baseCents), money(a.itbmsCents)])]);
  sheet.addRow([]).commit();
  sheet.addRow(['', 'Cantidad', 'Total']).commit();
  moneyRow(['Facturas', f.invoices.count, money(f.invoices.totalCents)]);
  moneyRow(['Notas de crédito', f.creditNotes.count, money(f.creditNotes.totalCents)]);
  moneyRow(['Neto', '', money(f.net.totalCents)]);
  sheet.addRow([]).commit();
  sheet.addRow(['Sucursal', 'Punto de facturación', 'Tipo', 'Cantidad', 'Primero', 'Último', 'Saltos']).commit();
  for (const s of f.series) {
    const gaps = s.gaps.map((g) => `${g.from === g.to ? g.from : `${g.from}–${g.to}`}: ${gapReasonText(g.reason)}`).join('; ');
    sheet.addRow([s.branchCode, s.billingPoint, s.documentType, s.count, s.first, s.last, gaps + (s.moreGaps ? '; …' : '')]).commit();
  }
  sheet.commit();
}

/** Write the workbook to `out`; resolves when it is all written. */
export async function writeMonthXlsx(db: Db, q: MonthReportQuery, figures: MonthFigures, out: Writable): Promise<void> {
  // Loaded on use, from node_modules (left out of the bundle): most of the app's life needs no workbook.
  const { default: excel } = await import('exceljs');
  const book = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  addSummary(book, figures);
  const sheet = book.addWorksheet(BOOK_SHEET);
  sheet.columns = SALES_BOOK_COLUMNS.map((c) => ({
    header: c,
    key: c,
    width: c === 'cufe' || c === 'cufe_referenciado' ? 66 : c === 'cliente' ? 30 : 14,
    ...(AMOUNT_COLUMNS.has(c) ? { style: { numFmt: MONEY } } : {}),
  }));
  for await (const row of salesBookRows(db, q)) {
    sheet.addRow(row.map((cell) => (typeof cell === 'number' ? money(cell) : cell))).commit();
  }
  sheet.commit();
  await book.commit();
}
