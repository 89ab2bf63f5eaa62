// What Admin GraphQL shows of an order for invoicing, read from the stored REST order: its lines (a connection), its
// shipping lines (removed ones only with includeRemovals, as in Shopify), the addresses, the tax, tip, duty, fee and
// cash-rounding totals, the buyer's locale and the payment gateways. Pure: no state, no I/O.

import { connection } from './connections.ts';
import { type MoneyBag, moneyBag, moneyBagOf, orderCurrency } from './rest-money.ts';
import { gidOf, isRecord, records, restGid, str } from './rest-values.ts';
import type { RestOrder } from './types.ts';

type View = Record<string, unknown>;
type Bag = (set: unknown, amount?: unknown) => MoneyBag;
type Page = { first?: number | null; after?: string | null };

const DISCOUNT_TYPES: Record<string, string> = {
  manual: 'ManualDiscountApplication',
  discount_code: 'DiscountCodeApplication',
  automatic: 'AutomaticDiscountApplication',
};

export function orderInvoicingFields(rest: RestOrder): View {
  const currency = orderCurrency(rest);
  const bag: Bag = (set, amount) => moneyBagOf(set, amount, currency) ?? moneyBag(0, currency);
  const optional = (set: unknown, amount?: unknown) => moneyBagOf(set, amount, currency);
  const applications = records(rest['discount_applications']);
  const allocations = (value: unknown) =>
    records(value).map((d) => {
      const index = typeof d['discount_application_index'] === 'number' ? d['discount_application_index'] : 0;
      const type = str(applications[index]?.['type']) ?? 'manual';
      return {
        allocatedAmountSet: bag(d['amount_set'], d['amount']),
        discountApplication: { __typename: DISCOUNT_TYPES[type] ?? 'ManualDiscountApplication', index },
      };
    });
  const lines = records(rest['line_items']);
  const shipping = records(rest['shipping_lines']);
  const rounding = isRecord(rest['total_cash_rounding_payment_adjustment_set'])
    ? rest['total_cash_rounding_payment_adjustment_set']
    : undefined;
  return {
    presentmentCurrencyCode: str(rest['presentment_currency']) ?? currency,
    taxExempt: rest['tax_exempt'] === true,
    phone: str(rest['phone']) ?? null,
    customerLocale: str(rest['customer_locale']) ?? null,
    paymentGatewayNames: Array.isArray(rest['payment_gateway_names'])
      ? rest['payment_gateway_names'].filter((n): n is string => typeof n === 'string')
      : [],
    currentTotalTaxSet: optional(rest['current_total_tax_set'], rest['current_total_tax']),
    totalTaxSet: optional(rest['total_tax_set'], rest['total_tax']),
    totalTipReceivedSet: bag(undefined, rest['total_tip_received'] ?? '0.00'),
    currentTotalDutiesSet: optional(rest['current_total_duties_set']),
    currentTotalAdditionalFeesSet: optional(rest['current_total_additional_fees_set']),
    totalCashRoundingAdjustment: {
      paymentSet: rounding ? bag(rounding) : moneyBag(0, currency),
      refundSet: moneyBag(0, currency),
    },
    lineItems: (page: Page) => connection(lines, page, keyOf, (item) => lineItemView(item, bag, allocations)),
    shippingLines: (page: Page & { includeRemovals?: boolean | null }) =>
      connection(
        shipping.filter((l) => page.includeRemovals === true || l['is_removed'] !== true),
        page,
        keyOf,
        (line) => shippingLineView(line, bag, allocations),
      ),
    billingAddress: addressView(rest['billing_address']),
    shippingAddress: addressView(rest['shipping_address']),
  };
}

function keyOf(item: Record<string, unknown>): string {
  return str(item['admin_graphql_api_id']) ?? str(item['id']) ?? '';
}

function lineItemView(item: Record<string, unknown>, bag: Bag, allocations: (value: unknown) => View[]): View {
  const variant = gidOf('ProductVariant', item['variant_id']);
  const product = gidOf('Product', item['product_id']);
  const quantity = Number(item['quantity']);
  return {
    __typename: 'LineItem',
    id: restGid('LineItem', item),
    name: str(item['name']) ?? str(item['title']) ?? '',
    title: str(item['title']) ?? '',
    variantTitle: str(item['variant_title']) ?? null,
    sku: str(item['sku']) ?? null,
    variant: variant ? { __typename: 'ProductVariant', id: variant, barcode: str(item['barcode']) ?? null } : null,
    product: product ? { __typename: 'Product', id: product } : null,
    quantity,
    currentQuantity: typeof item['current_quantity'] === 'number' ? item['current_quantity'] : quantity,
    taxable: item['taxable'] !== false,
    isGiftCard: item['gift_card'] === true,
    originalUnitPriceSet: bag(item['price_set'], item['price']),
    taxLines: () => taxLineViews(item['tax_lines'], bag),
    discountAllocations: () => allocations(item['discount_allocations']),
  };
}

function shippingLineView(line: Record<string, unknown>, bag: Bag, allocations: (value: unknown) => View[]): View {
  return {
    id: gidOf('ShippingLine', line['id']) ?? null,
    title: str(line['title']) ?? str(line['code']) ?? '',
    code: str(line['code']) ?? null,
    isRemoved: line['is_removed'] === true,
    originalPriceSet: bag(line['price_set'], line['price']),
    discountedPriceSet: bag(line['discounted_price_set'], line['discounted_price'] ?? line['price']),
    taxLines: taxLineViews(line['tax_lines'], bag),
    discountAllocations: () => allocations(line['discount_allocations']),
  };
}

export function taxLineViews(value: unknown, bag: Bag): View[] {
  return records(value).map((t) => {
    const rate = typeof t['rate'] === 'number' ? t['rate'] : typeof t['rate'] === 'string' ? Number(t['rate']) : null;
    return {
      rate,
      // Percentages as Shopify prints them (7.0), without the float noise of 0.07 × 100.
      ratePercentage: rate === null ? null : Number((rate * 100).toFixed(6)),
      title: str(t['title']) ?? '',
      priceSet: bag(t['price_set'], t['price']),
    };
  });
}

function addressView(value: unknown): View | null {
  if (!isRecord(value)) return null;
  const text = (key: string) => str(value[key]) ?? null;
  const first = text('first_name');
  const last = text('last_name');
  return {
    name: text('name') ?? ([first, last].filter(Boolean).join(' ') || null),
    firstName: first,
    lastName: last,
    company: text('company'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    province: text('province'),
    provinceCode: text('province_code'),
    countryCodeV2: text('country_code')?.toUpperCase() ?? null,
    zip: text('zip'),
    phone: text('phone'),
  };
}
