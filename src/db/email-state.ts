// The buyer e-mail outbox's states, declared once: the table's checks, the store's statements, the API and the CLI
// take their lists from here (a change to a list is a migration).

/** pending: the e-mail runner sends it when due. sent: handed to the SMTP server. failed: given up (visible; resend). */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Why it is sent: the document was just authorized (once per document), or the merchant asked again. */
export const EMAIL_REASONS = ['authorized', 'resend'] as const;
export type EmailReason = (typeof EMAIL_REASONS)[number];

/** Why the accountant's e-mail is sent: the month ended (once per shop and month), or the merchant asked again. */
export const REPORT_EMAIL_REASONS = ['monthly', 'resend'] as const;
export type ReportEmailReason = (typeof REPORT_EMAIL_REASONS)[number];
