// The order-details block: the order's invoice and credit notes from the app's API, each with its status,
// number, CUFE, PDF and "Reintentar". Calls go to the app (relative URLs resolve to its application_url)
// with the admin's session token; what to show for each state is decided in order-documents-view.ts.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type BlockState, type DocumentLine, blockState, documentsPath } from './order-documents-view.ts';

export default async () => {
  render(<OrderInvoiceBlock />, document.body);
};

async function appFetch(path: string, method: 'GET' | 'POST' = 'GET'): Promise<Response> {
  const token = await shopify.auth.idToken();
  return fetch(path, { method, headers: { Authorization: `Bearer ${token ?? ''}`, Accept: 'application/json' } });
}

function OrderInvoiceBlock() {
  const t = shopify.i18n.translate;
  const orderGid = shopify.data.selected[0]?.id ?? '';
  const [state, setState] = useState<BlockState>({ kind: 'loading' });
  const [retrying, setRetrying] = useState<string | null>(null);

  async function load() {
    try {
      const response = await appFetch(documentsPath(orderGid));
      setState(blockState(response.status, await response.json().catch(() => null)));
    } catch {
      setState({ kind: 'failed', messageKey: 'error.load' });
    }
  }

  async function retry(id: string) {
    setRetrying(id);
    try {
      await appFetch(`/api/invoices/${encodeURIComponent(id)}/retry`, 'POST');
      await load();
    } finally {
      setRetrying(null);
    }
  }

  useEffect(() => {
    void load();
  }, [orderGid]);

  const summary = state.kind === 'documents' ? t(state.summaryKey) : state.kind === 'empty' ? t('summary.none') : '';
  return (
    <s-admin-block heading={t('heading')} collapsedSummary={summary}>
      {state.kind === 'loading' && <s-spinner accessibilityLabel={t('loading')} />}
      {state.kind === 'failed' && <s-banner tone="critical">{t(state.messageKey)}</s-banner>}
      {state.kind === 'empty' && <s-paragraph>{t('empty')}</s-paragraph>}
      {state.kind === 'documents' && (
        <s-stack gap="base">
          {state.lines.map((line) => (
            <DocumentView key={line.id} line={line} busy={retrying === line.id} onRetry={() => void retry(line.id)} />
          ))}
        </s-stack>
      )}
    </s-admin-block>
  );
}

function DocumentView({ line, busy, onRetry }: { line: DocumentLine; busy: boolean; onRetry: () => void }) {
  const t = shopify.i18n.translate;
  return (
    <s-stack gap="small-200">
      <s-stack direction="inline" gap="small-200" alignItems="center">
        <s-text type="strong">{t(line.kindKey)}</s-text>
        {line.fiscalNumber && <s-text>{line.fiscalNumber}</s-text>}
        <s-badge tone={line.tone}>{t(line.statusKey)}</s-badge>
      </s-stack>
      {line.reasonKey && (
        <s-text color="subdued">
          {line.reasonCode ? t('reasonWithCode', { reason: t(line.reasonKey), code: line.reasonCode }) : t(line.reasonKey)}
        </s-text>
      )}
      {line.invoiceNumber && <s-text color="subdued">{t('credits', { number: line.invoiceNumber })}</s-text>}
      {line.cufe && <s-text color="subdued">{t('cufe', { cufe: line.cufe })}</s-text>}
      <s-stack direction="inline" gap="small-200">
        {line.pdfUrl && (
          <s-link href={line.pdfUrl} target="_blank">
            {t('pdf')}
          </s-link>
        )}
        {line.canRetry && (
          <s-button onClick={onRetry} loading={busy}>
            {t('retry')}
          </s-button>
        )}
      </s-stack>
    </s-stack>
  );
}
