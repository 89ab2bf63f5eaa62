// The block both targets render: the invoice's number, "PDF" and the link to the buyer's page, from the app's order
// metafields; nothing until the invoice is authorized (right after payment the Thank-you page has none yet).
import { useEffect, useState } from 'preact/hooks';
import { type InvoiceLinks, type MetafieldEntry, invoiceLinks } from './invoice-links.ts';

/** The metafields now and as they change (the block stays open while the app writes them back). */
function useInvoiceLinks(): InvoiceLinks | undefined {
  const read = () => invoiceLinks(shopify.appMetafields.value as readonly MetafieldEntry[]);
  const [links, setLinks] = useState(read);
  useEffect(() => shopify.appMetafields.subscribe(() => setLinks(read())), []);
  return links;
}

export function InvoiceLinksBlock() {
  const t = shopify.i18n.translate;
  const links = useInvoiceLinks();
  if (!links) return null;
  return (
    <s-section heading={t('heading')}>
      <s-stack gap="base">
        {links.fiscalNumber && <s-text>{t('number', { number: links.fiscalNumber })}</s-text>}
        <s-stack direction="inline" gap="base">
          {links.pdfUrl && (
            <s-link href={links.pdfUrl} target="_blank">
              {t('pdf')}
            </s-link>
          )}
          <s-link href={links.pageUrl} target="_blank">
            {t('page')}
          </s-link>
        </s-stack>
        <s-text color="subdued">{t('requestHint')}</s-text>
      </s-stack>
    </s-section>
  );
}
