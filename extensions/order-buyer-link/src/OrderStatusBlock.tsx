// customer-account.order-status.block.render: the invoice on the buyer's order page in the customer account.
import { render } from 'preact';
import { InvoiceLinksBlock } from './InvoiceLinksBlock.tsx';

export default async () => {
  render(<InvoiceLinksBlock />, document.body);
};
