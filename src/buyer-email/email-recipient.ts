// Who receives a document by e-mail and in which language: the client block's e-mail address (the document as
// sent, so a merchant's correction counts) and the buyer's locale on the order (Spanish unless it is English).
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { type DocumentRow, type EmailToQueue, orderSnapshotOf } from '../documents/store/index.ts';
import type { Language } from '../db/languages.ts';
import type { Shop } from '../shops/shop-repository.ts';

const localeText = z.string().trim().min(1).optional().catch(undefined);
const orderLocale = z
  .object({
    customer_locale: localeText,
    customer: z.object({ locale: localeText }).nullish().catch(undefined),
  })
  .catch({ customer_locale: undefined, customer: undefined });

/** The order's `customer_locale`, else the customer's locale: English when it starts with "en", else Spanish. */
export function buyerLanguage(orderSnapshot: unknown): Language {
  const read = orderLocale.parse(orderSnapshot);
  const locale = read.customer_locale ?? read.customer?.locale;
  return locale?.toLowerCase().startsWith('en') ? 'en' : 'es';
}

/** The address the document was issued to (`client.email1`), if any. */
export function documentRecipient(doc: Pick<DocumentRow, 'document'>): string | undefined {
  const document = doc.document as { dataTransaction?: { client?: { email1?: unknown } } } | null;
  const email = document?.dataTransaction?.client?.email1;
  return typeof email === 'string' && email.trim() !== '' ? email.trim() : undefined;
}

/** The e-mail for a document, or undefined when the buyer gave no address. */
export async function emailFor(db: Db, doc: DocumentRow): Promise<EmailToQueue | undefined> {
  const recipient = documentRecipient(doc);
  if (recipient === undefined) return undefined;
  return { documentId: doc.id, shop: doc.shop, recipient, language: buyerLanguage(await orderSnapshotOf(db, doc)) };
}

/**
 * The runner's hook (SMTP configured): a completing document is e-mailed when its shop delivers the CAFE by the
 * app's e-mail and the buyer has an address.
 */
export function completionEmails(db: Db, wake: () => void) {
  return {
    emailFor: (doc: DocumentRow, shop: Pick<Shop, 'settings'>) =>
      shop.settings.mapping.cafeDelivery === 'app_email' ? emailFor(db, doc) : Promise.resolve(undefined),
    queued: wake,
  };
}
