// Which refund a `refunds/create` body is, of which order, and the money it says went back: read once, for the
// webhook intake. The refund's lines are read by the credit-note mapper when the note is made. Pure; never throws.
import { type Cents, cents, parseCents } from '../fiscal/money.ts';

export interface RefundIdentity {
  /** `gid://shopify/Refund/<id>`: one refund, at most one credit note. */
  refundGid: string;
  /** `gid://shopify/Order/<id>`, from the body's exact digits (ids can exceed 2^53). */
  orderGid: string;
  /** Successful refund transactions, in their currency. */
  refundedCents: Cents;
  currency: string | undefined;
  test: boolean;
}

export type RefundIdentityResult = { ok: true; identity: RefundIdentity } | { ok: false; path: string; problem: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the parsed body; `rawBody` is the text it came from, where the order id is taken digit for digit
 * (`JSON.parse` rounds ids above 2^53, and the refund body has no order GID).
 */
export function refundIdentity(body: unknown, rawBody: string): RefundIdentityResult {
  if (!isObject(body)) return { ok: false, path: 'body', problem: 'not a refund (not a JSON object)' };
  const gid = typeof body.admin_graphql_api_id === 'string' ? body.admin_graphql_api_id.trim() : '';
  if (!/^gid:\/\/shopify\/Refund\/\d+$/.test(gid))
    return { ok: false, path: 'admin_graphql_api_id', problem: 'the refund has no usable id' };
  const orderId = /"order_id"\s*:\s*"?(\d{1,20})"?/.exec(rawBody)?.[1];
  if (orderId === undefined) return { ok: false, path: 'order_id', problem: 'the refund names no order' };

  let refunded = 0;
  let currency: string | undefined;
  let test = false;
  const transactions = Array.isArray(body.transactions) ? body.transactions : [];
  for (const t of transactions) {
    if (!isObject(t) || t.kind !== 'refund' || t.status !== 'success') continue;
    const amount = typeof t.amount === 'string' ? parseCents(t.amount) : undefined;
    if (amount === undefined) return { ok: false, path: 'transactions.amount', problem: 'a refund transaction has no amount' };
    refunded += amount;
    if (typeof t.currency === 'string') currency = t.currency.toUpperCase();
    if (t.test === true) test = true;
  }
  return {
    ok: true,
    identity: { refundGid: gid, orderGid: `gid://shopify/Order/${orderId}`, refundedCents: cents(refunded), currency, test },
  };
}
