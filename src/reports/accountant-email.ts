// The accountant's monthly e-mail: the month's sales book as CSV and XLSX attached, the summary in the body, from the
// shop's name, in the accountant's language (the catalogue's `accountantEmail` texts). Pure.
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { OutgoingEmail } from '../buyer-email/smtp-mailer.ts';
import { messageIdFor } from '../buyer-email/buyer-email.ts';
import type { Language } from '../db/languages.ts';
import { format } from '../messages/catalogue.ts';
import type { MonthFigures } from './month-figures.ts';

export interface AccountantEmailInput {
  figures: MonthFigures;
  csv: Buffer;
  xlsx: Buffer;
  shopName: string;
  language: Language;
  to: string;
  from: string;
  /** The outbox row's id: the Message-ID is made from it, so a repeated send carries the same one. */
  emailId: string;
}

const usd = (cents: number) => `${formatCents(cents)} USD`;

/** The summary as lines of text, per rate then the totals. */
export function summaryText(f: MonthFigures, language: Language): string {
  const lines = f.rates.map(
    (r) =>
      format(language, 'accountantEmail', 'rateLine', {
        rate: r.rate,
        invoicesBase: usd(r.invoices.baseCents),
        invoicesItbms: usd(r.invoices.itbmsCents),
        notesBase: usd(r.creditNotes.baseCents),
        notesItbms: usd(r.creditNotes.itbmsCents),
        netBase: usd(r.net.baseCents),
        netItbms: usd(r.net.itbmsCents),
      }) ?? '',
  );
  const totals = format(language, 'accountantEmail', 'totalsLine', {
    invoices: f.invoices.count,
    invoicesTotal: usd(f.invoices.totalCents),
    notes: f.creditNotes.count,
    notesTotal: usd(f.creditNotes.totalCents),
    netTotal: usd(f.net.totalCents),
    netItbms: usd(f.net.itbmsCents),
  });
  return [...lines, '', totals ?? ''].join('\n');
}

export function accountantEmail(i: AccountantEmailInput): OutgoingEmail & { messageId: string } {
  const shopName = i.shopName.replace(/[\p{Cc}]+/gu, ' ').trim();
  const month = i.figures.month;
  const text = (key: string, params: Record<string, string | number>) => format(i.language, 'accountantEmail', key, params) ?? '';
  const fileName = text('fileName', { month });
  return {
    from: { name: shopName, address: i.from },
    to: i.to,
    subject: text('subject', { month, shopName }),
    text: text('body', { month, shopName, summary: summaryText(i.figures, i.language) }),
    messageId: messageIdFor(i.emailId, i.from),
    attachments: [
      { filename: `${fileName}.csv`, content: i.csv, contentType: 'text/csv; charset=utf-8' },
      { filename: `${fileName}.xlsx`, content: i.xlsx, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    ],
  };
}
