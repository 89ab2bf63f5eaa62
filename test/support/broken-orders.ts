// Orders broken on purpose, one way each, and the problem code the mapper must answer with (docs/design.md §6
// invariant 5).
import fc from 'fast-check';
import { centsOf } from './document-invariants.ts';

/** An `orders/paid` body as the property tests change it. */
export type Body = Record<string, unknown> & {
  line_items: {
    sku: string;
    price: string;
    quantity: number;
    gift_card: boolean;
    tax_lines: { price: string }[];
    discount_allocations: { amount: string }[];
  }[];
  shipping_lines: { price: string; tax_lines: { price: string }[]; discount_allocations: { amount: string }[] }[];
};

export type Breakage = 'total' | 'tax' | 'rate' | 'check_digit' | 'currency';

export const breakage = fc.constantFrom<Breakage>('total', 'tax', 'rate', 'check_digit', 'currency');

export const EXPECTED_CODE: Record<Breakage, string[]> = {
  total: ['total_mismatch'],
  // A tax total Shopify could not have charged: either it cannot be spread within ±0.01 per item, or
  // it can but then the invoice would not add up to what was paid.
  tax: ['tax_not_distributable', 'total_mismatch'],
  rate: ['unsupported_tax_rate'],
  check_digit: ['ruc_check_digit_invalid'],
  currency: ['unsupported_currency'],
};

function money(c: number) {
  const text = (c / 100).toFixed(2);
  return { shop_money: { amount: text, currency_code: 'USD' }, presentment_money: { amount: text, currency_code: 'USD' } };
}

export function breakOrder(body: Body, how: Breakage, delta: number): void {
  if (how === 'total') {
    const before = centsOf(body.current_total_price as string);
    const total = before + delta < 0 ? before + Math.abs(delta) : before + delta;
    body.current_total_price = (total / 100).toFixed(2);
    body.current_total_price_set = money(total);
  } else if (how === 'tax') {
    // Far beyond any rounding: one cent per item plus the delta.
    const tax = centsOf(body.current_total_tax as string) + (body.line_items.length + body.shipping_lines.length) * 2 + 3 + Math.abs(delta);
    body.current_total_tax = (tax / 100).toFixed(2);
    body.current_total_tax_set = money(tax);
  } else if (how === 'rate') {
    const l = body.line_items[0]!;
    l.gift_card = false;
    (l as { tax_lines: unknown[] }).tax_lines = [{ title: 'IVA', rate: 0.08, price: '0.00', price_set: money(0), channel_liable: false }];
  } else if (how === 'check_digit') {
    body.note_attributes = [
      { name: 'ruc', value: '155596713-2-2015' },
      { name: 'dv', value: '58' },
      { name: 'razon_social', value: 'Empresa Ejemplo, S.A.' },
    ];
  } else {
    body.currency = 'EUR';
  }
}
