// Refunds for the fault suite, sent as Shopify would: a merchant refunds a share of the orders from the order's page
// (the store simulator computes Shopify's refunds/create body and keeps the refund on the order), and Shopify delivers
// it with its retries, some more than once at the same time.
import { parseCents } from '../../mappers/fiscal/money.ts';
import { mulberry32 } from '../../src/seeded-random.ts';
import { type RefundRequest, buildRefundPayload } from '../../sim/store-simulator/refund-payload.ts';
import type { RestRefund, StoreSimulator } from '../../sim/store-simulator/store-simulator.ts';
import { RETRY_POLICY } from './fault-world.ts';

/** Of makePaidOrder's order (2 shirts at 24.50 + 7 %, a book at 18.00 exempt) with 5.00 + 7 % shipping. */
export type RefundKind = 'full' | 'partial' | 'shipping' | 'amount';

export interface PlannedRefunds {
  orderId: number;
  /** In the order the merchant makes them. */
  kinds: RefundKind[];
  /** How many times Shopify delivers each (at once). */
  copies: number[];
}

/** One order in `every` is refunded: once (full, one shirt, the shipping, 10.00 goodwill) or twice (a shirt, then more). */
export function planRefunds(ids: readonly number[], seed: number, every = 4): PlannedRefunds[] {
  const random = mulberry32(seed);
  const shapes: RefundKind[][] = [['full'], ['partial'], ['shipping'], ['amount'], ['partial', 'amount'], ['partial', 'shipping']];
  return ids
    .filter((_, i) => i % every === 1)
    .map((orderId) => {
      const kinds = shapes[Math.floor(random() * shapes.length)]!;
      // About a third delivered two or three times at once (Shopify's duplicates).
      const copies = kinds.map(() => (random() < 0.33 ? 2 + Math.floor(random() * 2) : 1));
      return { orderId, kinds, copies };
    });
}

export function refundRequest(kind: RefundKind, orderId: number): RefundRequest {
  const shirts = orderId * 100;
  switch (kind) {
    case 'full':
      return {
        lines: [
          { lineItemId: shirts, quantity: 2 },
          { lineItemId: shirts + 1, quantity: 1 },
        ],
        shipping: 'full',
      };
    case 'partial':
      return { lines: [{ lineItemId: shirts, quantity: 1, restockType: 'return' }] };
    case 'shipping':
      return { shipping: 'full' };
    case 'amount':
      return { amountOnly: { amount: 1000, reason: 'Compensación por demora' } };
  }
}

/** The money Shopify gave back (its successful refund transactions), in cents: what the note must total. */
export function refundedCents(refund: RestRefund): number {
  const transactions = (refund['transactions'] ?? []) as { kind: string; status: string; amount: string }[];
  return transactions.filter((t) => t.kind === 'refund' && t.status === 'success').reduce((sum, t) => sum + parseCents(t.amount)!, 0);
}

export const refundGid = (refund: RestRefund) => `gid://shopify/Refund/${String(refund['id'])}`;

/**
 * Make the order's planned refunds one after the other and deliver each (its copies at once, each with Shopify's
 * retries). Returns the refunds made and how many of their deliveries never got a 2xx.
 */
export async function sendRefunds(
  simulator: StoreSimulator,
  shop: string,
  address: string,
  plan: PlannedRefunds,
): Promise<{ refunds: RestRefund[]; undelivered: number }> {
  const orderGid = `gid://shopify/Order/${plan.orderId}`;
  const refunds: RestRefund[] = [];
  let undelivered = 0;
  for (const [k, kind] of plan.kinds.entries()) {
    const order = simulator.order(shop, orderGid);
    if (!order) throw new Error(`no order ${orderGid}`);
    const refund = buildRefundPayload(order, (order['refunds'] ?? []) as RestRefund[], refundRequest(kind, plan.orderId));
    simulator.addRefund(shop, orderGid, refund);
    refunds.push(refund);
    const outcomes = await Promise.all(
      Array.from({ length: plan.copies[k] ?? 1 }, () =>
        simulator.deliverWithRetries({ address, topic: 'refunds/create', shop, payload: refund }, RETRY_POLICY),
      ),
    );
    undelivered += outcomes.filter((o) => !o.delivered).length;
  }
  return { refunds, undelivered };
}

/** Counts for the printed line: refunds by kind, orders refunded twice, deliveries beyond the first. */
export function refundsLine(plans: readonly PlannedRefunds[]): string {
  const byKind = new Map<RefundKind, number>();
  for (const p of plans) for (const k of p.kinds) byKind.set(k, (byKind.get(k) ?? 0) + 1);
  const refunds = plans.reduce((n, p) => n + p.kinds.length, 0);
  const extra = plans.reduce((n, p) => n + p.copies.reduce((a, c) => a + c - 1, 0), 0);
  const kinds = (['full', 'partial', 'shipping', 'amount'] as const).map((k) => `${byKind.get(k) ?? 0} ${k}`).join(', ');
  return `${refunds} refunds of ${plans.length} orders (${kinds}; ${plans.filter((p) => p.kinds.length > 1).length} orders refunded twice; ${extra} extra deliveries)`;
}

/** Sends each planned order's refunds once Shopify has the order; `done()` waits for all and gives what was sent. */
export function refunder(send: (plan: PlannedRefunds) => Promise<{ refunds: RestRefund[]; undelivered: number }>, plans: PlannedRefunds[]) {
  const byOrder = new Map(plans.map((p) => [p.orderId, p]));
  const sending: Promise<{ refunds: RestRefund[]; undelivered: number }>[] = [];
  return {
    /** The order is at Shopify: its refunds follow after `delayMs`. */
    ordered(id: number, delayMs: number) {
      const plan = byOrder.get(id);
      if (plan) sending.push(new Promise((r) => setTimeout(r, delayMs)).then(() => send(plan)));
    },
    async done(): Promise<{ refunds: RestRefund[]; undelivered: number }> {
      const all = await Promise.all(sending);
      return { refunds: all.flatMap((s) => s.refunds), undelivered: all.reduce((n, s) => n + s.undelivered, 0) };
    },
  };
}
