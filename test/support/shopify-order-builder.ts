// Builds `orders/paid` bodies (the full 2026 REST Order shape) the way Shopify computes them:
// line and order-level discounts allocated to lines, shipping discounts, taxes added on top or
// carved out of tax-inclusive prices, rounded per line or per order and allocated back to the lines.
// Used by the property tests and to write the fixtures under test/fixtures/orders/.
import { formatCents } from '../../mappers/fiscal/money.ts';
import { type Taxable, allocate, bag, computeTaxes, discountAmount } from './shopify-tax-math.ts';
import { address, application, defaultAddress, sum, taxLine } from './shopify-order-json.ts';
export { allocate } from './shopify-tax-math.ts';

export type Discount =
  { kind: 'fixed'; amount: number; title?: string; code?: string } | { kind: 'percent'; percent: string; title?: string; code?: string };

export interface LineSpec {
  title: string;
  variantTitle?: string;
  sku?: string | null;
  /** Not part of Shopify's body; the pipeline may add the variant's barcode. */
  barcode?: string;
  /** Unit price in cents (tax-inclusive when the order's taxes are included). */
  price: number;
  quantity: number;
  /** Units left; 0 for a line removed by an order edit. Default: quantity. */
  currentQuantity?: number;
  /** Tax rates as Shopify writes them, one tax line each ("0.07"); empty for an exempt line. */
  taxRates: string[];
  taxTitles?: string[];
  giftCard?: boolean;
  /** A discount on this line only: fixed is per unit ("each"), percent is of the line. */
  discount?: Discount;
  productId?: number | null;
  variantId?: number | null;
}

export interface ShippingSpec {
  title: string;
  code?: string;
  price: number;
  taxRates: string[];
  discount?: Discount;
}

export interface AddressSpec {
  firstName: string;
  lastName: string;
  address1: string;
  address2?: string | null;
  city: string;
  province?: string | null;
  countryCode?: string;
  phone?: string | null;
  company?: string | null;
}

export interface OrderSpec {
  id: number;
  orderNumber?: number;
  currency?: string;
  taxesIncluded: boolean;
  /** 'line': each tax line rounded on its own; 'order': rounded per rate on the order, then allocated. */
  taxRounding?: 'line' | 'order';
  lines: LineSpec[];
  shipping?: ShippingSpec[];
  /** An order-level discount allocated across all lines except gift cards. */
  orderDiscount?: Discount;
  tip?: number;
  gateways?: string[];
  noteAttributes?: { name: string; value: string }[];
  email?: string | null;
  customer?: { firstName: string; lastName: string } | null;
  billingAddress?: AddressSpec | null;
  shippingAddress?: AddressSpec | null;
  company?: Record<string, unknown> | null;
  test?: boolean;
  createdAt?: string;
}

type Json = Record<string, unknown>;

/** The `orders/paid` body for a spec. */
export function buildOrder(spec: OrderSpec): Json {
  const currency = spec.currency ?? 'USD';
  const money = (c: number) => bag(c, currency);
  const included = spec.taxesIncluded;
  const id = spec.id;
  const number = spec.orderNumber ?? 1000 + (id % 100000);

  // Discount applications: line discounts first (in line order), then the order discount.
  const applications: Json[] = [];
  const lineAllocations: { amount: number; index: number }[][] = spec.lines.map(() => []);
  spec.lines.forEach((l, i) => {
    if (!l.discount) return;
    const index = applications.length;
    applications.push(application(l.discount, 'line_item', l.discount.kind === 'fixed' ? 'each' : 'one', 'explicit'));
    const amount = discountAmount(l.discount, l.price * l.quantity, l.quantity, l.price);
    lineAllocations[i]!.push({ amount, index });
  });
  if (spec.orderDiscount) {
    const index = applications.length;
    applications.push(application(spec.orderDiscount, 'line_item', 'across', 'all'));
    const eligible = spec.lines.map((l, i) => (l.giftCard ? 0 : l.price * l.quantity - sum(lineAllocations[i]!.map((a) => a.amount))));
    const totalEligible = sum(eligible);
    const d = spec.orderDiscount;
    const amount = d.kind === 'fixed' ? Math.min(d.amount, totalEligible) : discountAmount(d, totalEligible, 1, totalEligible);
    allocate(amount, eligible).forEach((a, i) => {
      if (a > 0) lineAllocations[i]!.push({ amount: a, index });
    });
  }
  const shippingSpecs = spec.shipping ?? [];
  const shippingAllocations = shippingSpecs.map((s) => {
    if (!s.discount) return [];
    const index = applications.length;
    applications.push(application(s.discount, 'shipping_line', 'each', 'all'));
    return [{ amount: discountAmount(s.discount, s.price, 1, s.price), index }];
  });

  // Taxes on what is still on the order (removed lines carry none).
  const taxables: Taxable[] = [
    ...spec.lines.map((l, i) => ({
      base: (l.currentQuantity ?? l.quantity) === 0 ? 0 : l.price * l.quantity - sum(lineAllocations[i]!.map((a) => a.amount)),
      rates: l.taxRates,
      taxes: [],
    })),
    ...shippingSpecs.map((s, i) => ({ base: s.price - sum(shippingAllocations[i]!.map((a) => a.amount)), rates: s.taxRates, taxes: [] })),
  ];
  computeTaxes(taxables, included, spec.taxRounding ?? 'line');

  const lineItems = spec.lines.map((l, i) => {
    const t = taxables[i]!;
    const lineId = id * 1000 + i + 1;
    const titles = l.taxTitles ?? l.taxRates.map(() => 'ITBMS');
    const current = l.currentQuantity ?? l.quantity;
    return {
      id: lineId,
      admin_graphql_api_id: `gid://shopify/LineItem/${lineId}`,
      attributed_staffs: [],
      current_quantity: current,
      fulfillable_quantity: current,
      fulfillment_service: l.giftCard ? 'gift_card' : 'manual',
      fulfillment_status: null,
      gift_card: l.giftCard ?? false,
      grams: l.giftCard ? 0 : 500,
      name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
      price: formatCents(l.price),
      price_set: money(l.price),
      product_exists: true,
      product_id: l.productId === undefined ? 8_100_000_000_000 + i + 1 : l.productId,
      properties: [],
      quantity: l.quantity,
      requires_shipping: !l.giftCard,
      sales_line_item_group_id: null,
      sku: l.sku === undefined ? null : l.sku,
      taxable: l.taxRates.length > 0,
      title: l.title,
      total_discount: '0.00',
      total_discount_set: money(0),
      variant_id: l.variantId === undefined ? 45_100_000_000_000 + i + 1 : l.variantId,
      variant_inventory_management: l.giftCard ? null : 'shopify',
      variant_title: l.variantTitle ?? null,
      vendor: 'Tienda Demo PA',
      ...(l.barcode === undefined ? {} : { barcode: l.barcode }),
      tax_lines: l.taxRates.map((r, j) => taxLine(titles[j] ?? 'ITBMS', r, current === 0 ? 0 : t.taxes[j]!, money)),
      duties: [],
      discount_allocations: lineAllocations[i]!.map((a) => ({
        amount: formatCents(a.amount),
        amount_set: money(a.amount),
        discount_application_index: a.index,
      })),
    };
  });

  const shippingLines = shippingSpecs.map((s, i) => {
    const t = taxables[spec.lines.length + i]!;
    const discounted = s.price - sum(shippingAllocations[i]!.map((a) => a.amount));
    return {
      id: id * 10 + i + 1,
      carrier_identifier: null,
      code: s.code ?? s.title,
      current_discounted_price_set: money(discounted),
      discounted_price: formatCents(discounted),
      discounted_price_set: money(discounted),
      is_removed: false,
      phone: null,
      price: formatCents(s.price),
      price_set: money(s.price),
      requested_fulfillment_service_id: null,
      source: 'shopify',
      title: s.title,
      tax_lines: s.taxRates.map((r, j) => taxLine('ITBMS', r, t.taxes[j]!, money)),
      discount_allocations: shippingAllocations[i]!.map((a) => ({
        amount: formatCents(a.amount),
        amount_set: money(a.amount),
        discount_application_index: a.index,
      })),
    };
  });

  // Totals, original and current (after removed lines).
  const lineDiscount = (i: number) => sum(lineAllocations[i]!.map((a) => a.amount));
  const isCurrent = (i: number) => (spec.lines[i]!.currentQuantity ?? spec.lines[i]!.quantity) > 0;
  const lineTax = (i: number) => sum(taxables[i]!.taxes);
  const indexes = spec.lines.map((_, i) => i);
  const totalLineItems = sum(spec.lines.map((l) => l.price * l.quantity));
  const shippingPrice = sum(shippingSpecs.map((s) => s.price));
  const shippingDiscount = sum(shippingAllocations.map((a) => sum(a.map((x) => x.amount))));
  const shippingTax = sum(shippingSpecs.map((_, i) => sum(taxables[spec.lines.length + i]!.taxes)));
  const tip = spec.tip ?? 0;
  const totals = (which: number[]) => {
    const discounts = sum(which.map(lineDiscount)) + shippingDiscount;
    const subtotal = sum(which.map((i) => spec.lines[i]!.price * spec.lines[i]!.quantity - lineDiscount(i)));
    const tax = sum(which.map(lineTax)) + shippingTax;
    const total = subtotal + (shippingPrice - shippingDiscount) + (included ? 0 : tax) + tip;
    return { discounts, subtotal, tax, total };
  };
  const original = totals(indexes);
  const current = totals(indexes.filter(isCurrent));
  const taxLinesByRate = new Map<string, number>();
  taxables.forEach((t, k) => {
    if (k < spec.lines.length && !isCurrent(k)) return;
    t.rates.forEach((r, j) => taxLinesByRate.set(r, (taxLinesByRate.get(r) ?? 0) + t.taxes[j]!));
  });

  const email = spec.email === undefined ? 'cliente@example.com' : spec.email;
  const customer = spec.customer === undefined ? { firstName: 'Cliente', lastName: 'Prueba' } : spec.customer;
  const billing = spec.billingAddress === undefined ? defaultAddress(customer) : spec.billingAddress;
  const shippingAddress = spec.shippingAddress === undefined ? billing : spec.shippingAddress;
  const createdAt = spec.createdAt ?? '2026-11-20T10:15:00-05:00';

  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    app_id: 580111,
    browser_ip: '203.0.113.10',
    buyer_accepts_marketing: false,
    cancel_reason: null,
    cancelled_at: null,
    cart_token: `cart-${id}`,
    checkout_id: id + 33_000_000_000_000,
    checkout_token: `checkout-${id}`,
    client_details: {
      accept_language: 'es-PA',
      browser_height: null,
      browser_ip: '203.0.113.10',
      browser_width: null,
      session_hash: null,
      user_agent: 'Mozilla/5.0',
    },
    closed_at: null,
    company: spec.company ?? null,
    confirmation_number: `PA${String(id).slice(-7)}`,
    confirmed: true,
    contact_email: email,
    created_at: createdAt,
    currency,
    current_shipping_price_set: money(shippingPrice - shippingDiscount),
    current_subtotal_price: formatCents(current.subtotal),
    current_subtotal_price_set: money(current.subtotal),
    current_total_additional_fees_set: null,
    current_total_discounts: formatCents(current.discounts),
    current_total_discounts_set: money(current.discounts),
    current_total_duties_set: null,
    current_total_price: formatCents(current.total),
    current_total_price_set: money(current.total),
    current_total_tax: formatCents(current.tax),
    current_total_tax_set: money(current.tax),
    customer_locale: 'es',
    device_id: null,
    discount_codes: applications
      .map((a, index) => ({ a, index }))
      .filter(({ a }) => a.code !== undefined)
      .map(({ a, index }) => {
        const amount = sum(
          [...lineAllocations, ...shippingAllocations]
            .flat()
            .filter((x) => x.index === index)
            .map((x) => x.amount),
        );
        return { code: a.code, amount: formatCents(amount), type: a.value_type };
      }),
    duties_included: false,
    email,
    estimated_taxes: false,
    financial_status: 'paid',
    fulfillment_status: null,
    landing_site: '/',
    landing_site_ref: null,
    location_id: null,
    merchant_business_entity_id: 'MBE-PA-0001',
    merchant_of_record_app_id: null,
    name: `#${number}`,
    note: null,
    note_attributes: spec.noteAttributes ?? [],
    number: number - 1000,
    order_number: number,
    order_status_url: `https://tienda-demo-pa.myshopify.com/70000000000/orders/${id}/authenticate?key=k${id}`,
    original_total_additional_fees_set: null,
    original_total_duties_set: null,
    payment_gateway_names: spec.gateways ?? ['shopify_payments'],
    phone: null,
    po_number: null,
    presentment_currency: currency,
    processed_at: createdAt,
    reference: null,
    referring_site: '',
    source_identifier: null,
    source_name: 'web',
    source_url: null,
    subtotal_price: formatCents(original.subtotal),
    subtotal_price_set: money(original.subtotal),
    tags: '',
    tax_exempt: false,
    tax_lines: [...taxLinesByRate].map(([r, amount]) => taxLine('ITBMS', r, amount, money)),
    taxes_included: included,
    test: spec.test ?? false,
    token: `token-${id}`,
    total_cash_rounding_payment_adjustment_set: money(0),
    total_cash_rounding_refund_adjustment_set: money(0),
    total_discounts: formatCents(original.discounts),
    total_discounts_set: money(original.discounts),
    total_line_items_price: formatCents(totalLineItems),
    total_line_items_price_set: money(totalLineItems),
    total_outstanding: '0.00',
    total_price: formatCents(original.total),
    total_price_set: money(original.total),
    total_shipping_price_set: money(shippingPrice - shippingDiscount),
    total_tax: formatCents(original.tax),
    total_tax_set: money(original.tax),
    total_tip_received: formatCents(tip),
    total_weight: 500 * spec.lines.filter((l) => !l.giftCard).length,
    updated_at: createdAt,
    user_id: null,
    billing_address: billing === null ? null : address(billing),
    customer:
      customer === null
        ? null
        : {
            id: id + 7_000_000_000_000,
            created_at: createdAt,
            updated_at: createdAt,
            first_name: customer.firstName,
            last_name: customer.lastName,
            state: 'disabled',
            note: null,
            verified_email: true,
            multipass_identifier: null,
            tax_exempt: false,
            email,
            phone: null,
            currency,
            tax_exemptions: [],
            admin_graphql_api_id: `gid://shopify/Customer/${id + 7_000_000_000_000}`,
            default_address:
              billing === null
                ? null
                : {
                    ...address(billing),
                    id: id + 9_000_000_000_000,
                    customer_id: id + 7_000_000_000_000,
                    country_name: 'Panama',
                    default: true,
                  },
          },
    discount_applications: applications,
    fulfillments: [],
    line_items: lineItems,
    payment_terms: null,
    refunds: [],
    shipping_address: shippingAddress === null ? null : address(shippingAddress),
    shipping_lines: shippingLines,
    returns: [],
    line_item_groups: [],
  };
}
