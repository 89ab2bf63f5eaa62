// The sales book (libro de ventas): one row per authorized document of the month, in authorization order, as the
// issue and docs/reports.md fix its columns. Amounts are cents here; credit notes' amounts are negative.
import { formatFiscalNumber } from '../documents/store/document-rows.ts';
import { documentAmounts } from './document-amounts.ts';
import { isCreditNoteType } from './month-figures.ts';
import { panamaDate } from './report-month.ts';

export const SALES_BOOK_COLUMNS = [
  'fecha',
  'tipo',
  'numero',
  'cufe',
  'cliente_tipo',
  'ruc',
  'dv',
  'cliente',
  'base_exenta',
  'base_7',
  'itbms_7',
  'base_10',
  'itbms_10',
  'base_15',
  'itbms_15',
  'total',
  'cufe_referenciado',
] as const;

/** The columns that hold amounts (cents in a row; decimals with two places in the files). */
export const AMOUNT_COLUMNS = new Set<string>(SALES_BOOK_COLUMNS.slice(8, 16));

/** One row: text cells as strings, amount cells as integer cents (negative for credit notes). */
export type SalesBookRow = readonly (string | number)[];

/** What a row is made of: a stored, authorized document (src/documents/store/report-statements.ts). */
export interface BookDocument {
  documentType: string;
  branchCode: string | null;
  billingPoint: string | null;
  fiscalNumber: number | null;
  cufe: string | null;
  authorizedAt: Date;
  document: unknown;
}

export function salesBookRow(d: BookDocument): SalesBookRow {
  const a = documentAmounts(d.document);
  const sign = isCreditNoteType(d.documentType) ? -1 : 1;
  // `0 * -1` is -0, which would print as "-0.00": add 0 to make it 0.
  const money = (c: number) => sign * c + 0;
  return [
    panamaDate(d.authorizedAt),
    d.documentType,
    formatFiscalNumber(d),
    d.cufe ?? '',
    a.client.type,
    a.client.ruc,
    a.client.dv,
    a.client.name,
    money(a.byRate[0].baseCents),
    money(a.byRate[7].baseCents),
    money(a.byRate[7].itbmsCents),
    money(a.byRate[10].baseCents),
    money(a.byRate[10].itbmsCents),
    money(a.byRate[15].baseCents),
    money(a.byRate[15].itbmsCents),
    money(a.totalCents),
    a.referencedCufe,
  ];
}
