// The client as the correction form shows it (docs/design.md §10): every field as text, taken from the stored correction,
// else the client block of the document as mapped, else what the order says, so the merchant edits what is wrong
// (a mistyped DV, say) instead of typing the client again. Pure.
import type { ClientCorrection } from './client-correction.ts';
import { clientSchema } from '../gateway/gateway-document.ts';
import { attribute, buyerName, clientLocation, formatAddress, splitRucAndDv, taxIdOf } from './invoice-client.ts';
import type { MappingSettings } from './mapping-settings.ts';
import type { ShopifyOrder } from '../shopify/shopify-order.ts';

export interface ClientFields {
  type: ClientCorrection['type'];
  ruc: string;
  dv: string;
  name: string;
  address: string;
  locationCode: string;
  email: string;
}

export interface ClientSources {
  correction: ClientCorrection | undefined;
  /** The gateway document stored on the invoice, if it was mapped. */
  document: unknown;
  /** The order, when its snapshot still reads; with the shop's settings (attribute names, default location). */
  order: { order: ShopifyOrder; settings: MappingSettings } | undefined;
}

const EMPTY: ClientFields = { type: 'final_consumer', ruc: '', dv: '', name: '', address: '', locationCode: '', email: '' };

export function clientFields(sources: ClientSources): ClientFields {
  if (sources.correction) return fromCorrection(sources.correction);
  const block = clientSchema.safeParse((sources.document as { dataTransaction?: { client?: unknown } } | null)?.dataTransaction?.client);
  if (block.success) {
    const c = block.data;
    return {
      type: c.typeClientEB === '01' ? 'taxpayer' : 'final_consumer',
      ruc: c.numberRUC ?? '',
      dv: c.digitCheckRUC ?? '',
      name: c.businessName ?? '',
      address: c.address ?? '',
      locationCode: c.codeLocation ?? '',
      email: c.email1 ?? '',
    };
  }
  return sources.order ? fromOrder(sources.order.order, sources.order.settings) : EMPTY;
}

function fromCorrection(c: ClientCorrection): ClientFields {
  const common = { name: c.name ?? '', address: c.address ?? '', locationCode: c.locationCode ?? '', email: c.email ?? '' };
  return c.type === 'taxpayer' ? { type: 'taxpayer', ruc: c.ruc, dv: c.dv, ...common } : { ...EMPTY, ...common };
}

/** The order as the buyer gave it, checks left out: the form is where a wrong check digit gets fixed. */
function fromOrder(order: ShopifyOrder, settings: MappingSettings): ClientFields {
  const names = settings.checkoutAttributes;
  const found = taxIdOf(order, settings, {});
  const split = found ? splitRucAndDv(found.text) : undefined;
  const dv = (found?.source === 'cart_attributes' ? attribute(order, names.dv) : undefined) ?? split?.dv;
  const billing = order.billingAddress;
  return {
    type: found ? 'taxpayer' : 'final_consumer',
    ruc: split?.ruc ?? '',
    dv: dv ?? '',
    name: attribute(order, names.businessName) ?? order.company?.name ?? billing?.company ?? buyerName(order) ?? '',
    address: attribute(order, names.address) ?? formatAddress(billing) ?? formatAddress(order.shippingAddress) ?? '',
    locationCode: clientLocation(order, settings)?.code ?? '',
    email: order.email ?? '',
  };
}
