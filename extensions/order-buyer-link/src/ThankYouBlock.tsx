// purchase.thank-you.block.render: the same block on the Thank-you page (shown once the invoice is authorized).
import { render } from 'preact';
import { InvoiceLinksBlock } from './InvoiceLinksBlock.tsx';

export default async () => {
  render(<InvoiceLinksBlock />, document.body);
};
