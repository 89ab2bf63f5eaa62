// 500 past orders for the backfill's tests: paid ones to invoice, some invoiced already (their webhook came), some that
// cannot be invoiced (another currency, a tax rate that is not ITBMS) and some refunded (not paid: not listed).
import { parseCents } from '../../mappers/fiscal/money.ts';
import { makePaidOrder } from './order-factory.ts';

const DAY = 86_400_000;
export const BASE_ID = 7_300_000_000_000;
export const gidOf = (id: number) => `gid://shopify/Order/${id}`;

export type BackfillOrderKind = 'invoice' | 'invoiced' | 'currency' | 'tax_rate' | 'refunded';

export interface BackfillOrder {
  id: number;
  kind: BackfillOrderKind;
  body: Record<string, unknown>;
  totalCents: number;
}

export function kindOf(i: number): BackfillOrderKind {
  if (i % 10 === 0) return 'refunded';
  if (i % 10 === 1) return 'invoiced';
  if (i % 20 === 2) return 'currency';
  if (i % 20 === 12) return 'tax_rate';
  return 'invoice';
}

/** `count` orders created 1 to 30 days before `now`, of the kinds above. */
export function backfillOrders(now: number, count = 500): BackfillOrder[] {
  return Array.from({ length: count }, (_, i) => {
    const id = BASE_ID + i;
    const kind = kindOf(i);
    const created = new Date(now - (1 + (i % 30)) * DAY - (i % 7) * 3_600_000).toISOString();
    const lines =
      kind === 'tax_rate'
        ? [{ title: 'Camisa importada', price: 1000, quantity: 1, ratePercent: 8 }]
        : [{ title: 'Camisa de lino', price: 2450 + (i % 13) * 5, quantity: 1 + (i % 3), ratePercent: 7 }];
    let body: Record<string, unknown> = {
      ...makePaidOrder({ id, lines }),
      created_at: created,
      processed_at: created,
      updated_at: created,
    };
    if (kind === 'currency') body = JSON.parse(JSON.stringify(body).replaceAll('"USD"', '"EUR"')) as Record<string, unknown>;
    if (kind === 'refunded') body = { ...body, financial_status: 'refunded' };
    return { id, kind, body, totalCents: parseCents(String(body['total_price']))! };
  });
}
