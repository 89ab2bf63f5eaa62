// Builds `orders/paid` bodies the way Shopify computes a simple tax-exclusive order, for pipeline tests.
import { formatCents } from '../../mappers/fiscal/money.ts';

export interface FactoryLine {
  title: string;
  sku?: string;
  /** Unit price in cents. */
  price: number;
  quantity: number;
  /** Tax rate in percent (7, 10, 15) or 0 for exempt. */
  ratePercent: number;
}

export interface FactoryOrder {
  id: number;
  lines?: FactoryLine[];
  shippingCents?: number;
  gateways?: string[];
  test?: boolean;
  email?: string;
}

const money = (c: number) => ({
  shop_money: { amount: formatCents(c), currency_code: 'USD' },
  presentment_money: { amount: formatCents(c), currency_code: 'USD' },
});

const DEFAULT_LINES: FactoryLine[] = [
  { title: 'Camisa de lino', sku: 'CAM-001', price: 2450, quantity: 2, ratePercent: 7 },
  { title: 'Libro de cocina panameña', sku: 'LIB-010', price: 1800, quantity: 1, ratePercent: 0 },
];

export function makePaidOrder(o: FactoryOrder): Record<string, unknown> {
  const lines = o.lines ?? DEFAULT_LINES;
  let subtotal = 0;
  let tax = 0;
  const lineItems = lines.map((l, i) => {
    const base = l.price * l.quantity;
    const t = Math.round((base * l.ratePercent) / 100);
    subtotal += base;
    tax += t;
    return {
      id: o.id * 100 + i,
      admin_graphql_api_id: `gid://shopify/LineItem/${o.id * 100 + i}`,
      title: l.title,
      name: l.title,
      sku: l.sku ?? null,
      variant_title: null,
      vendor: 'Tienda Demo',
      product_id: 9000 + i,
      variant_id: 8000 + i,
      product_exists: true,
      price: formatCents(l.price),
      price_set: money(l.price),
      quantity: l.quantity,
      current_quantity: l.quantity,
      fulfillable_quantity: l.quantity,
      taxable: l.ratePercent > 0,
      gift_card: false,
      requires_shipping: true,
      total_discount: '0.00',
      total_discount_set: money(0),
      discount_allocations: [],
      tax_lines:
        l.ratePercent > 0
          ? [{ title: 'ITBMS', rate: l.ratePercent / 100, price: formatCents(t), price_set: money(t), channel_liable: false }]
          : [],
      properties: [],
      duties: [],
    };
  });
  const shipping = o.shippingCents ?? 0;
  const shippingTax = Math.round((shipping * 7) / 100);
  tax += shippingTax;
  const total = subtotal + shipping + tax;
  return {
    id: o.id,
    admin_graphql_api_id: `gid://shopify/Order/${o.id}`,
    name: `#${o.id % 100000}`,
    order_number: o.id % 100000,
    email: o.email ?? 'cliente@example.com',
    contact_email: o.email ?? 'cliente@example.com',
    created_at: '2026-11-20T10:15:00-05:00',
    processed_at: '2026-11-20T10:15:00-05:00',
    currency: 'USD',
    presentment_currency: 'USD',
    taxes_included: false,
    tax_exempt: false,
    test: o.test ?? false,
    financial_status: 'paid',
    total_line_items_price: formatCents(subtotal),
    total_line_items_price_set: money(subtotal),
    subtotal_price: formatCents(subtotal),
    subtotal_price_set: money(subtotal),
    current_subtotal_price: formatCents(subtotal),
    current_subtotal_price_set: money(subtotal),
    total_discounts: '0.00',
    total_discounts_set: money(0),
    current_total_discounts: '0.00',
    current_total_discounts_set: money(0),
    total_shipping_price_set: money(shipping),
    current_shipping_price_set: money(shipping),
    total_tax: formatCents(tax),
    total_tax_set: money(tax),
    current_total_tax: formatCents(tax),
    current_total_tax_set: money(tax),
    total_price: formatCents(total),
    total_price_set: money(total),
    current_total_price: formatCents(total),
    current_total_price_set: money(total),
    total_outstanding: '0.00',
    total_tip_received: '0.00',
    payment_gateway_names: o.gateways ?? ['shopify_payments'],
    discount_applications: [],
    discount_codes: [],
    note_attributes: [],
    customer: {
      id: o.id + 1,
      email: o.email ?? 'cliente@example.com',
      first_name: 'Ana',
      last_name: 'Pérez',
      admin_graphql_api_id: `gid://shopify/Customer/${o.id + 1}`,
    },
    billing_address: {
      first_name: 'Ana',
      last_name: 'Pérez',
      name: 'Ana Pérez',
      address1: 'Calle 50',
      city: 'Panamá',
      province: 'Panamá',
      country: 'Panama',
      country_code: 'PA',
    },
    shipping_address: null,
    company: null,
    line_items: lineItems,
    shipping_lines: shipping
      ? [
          {
            id: o.id * 10,
            title: 'Envío estándar',
            code: 'STANDARD',
            price: formatCents(shipping),
            price_set: money(shipping),
            discounted_price: formatCents(shipping),
            discounted_price_set: money(shipping),
            discount_allocations: [],
            tax_lines: [
              { title: 'ITBMS', rate: 0.07, price: formatCents(shippingTax), price_set: money(shippingTax), channel_liable: false },
            ],
          },
        ]
      : [],
    refunds: [],
  };
}

/** Total in cents of an order made by makePaidOrder. */
export function orderTotalCents(order: Record<string, unknown>): number {
  const amount = (order.current_total_price as string).split('.');
  return Number(amount[0]) * 100 + Number(amount[1]);
}
