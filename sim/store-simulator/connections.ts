// Relay connections as Shopify pages them (`first`, `after`, opaque cursors), and the part of Shopify's order
// search syntax the app sends (`financial_status:`, date comparisons on created_at/updated_at/processed_at).

import { GraphQLError } from 'graphql';
import { isRecord, str } from './rest-values.ts';
import type { RestOrder } from './types.ts';

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const MAX_PAGE = 250;

/** One page of `items` after the cursor, each shown by `view`; `keyOf` names an item inside its cursor. */
export function connection<T, V>(
  items: readonly T[],
  args: { first?: unknown; after?: unknown },
  keyOf: (item: T) => string,
  view: (item: T) => V,
): Connection<V> {
  const first = args.first;
  if (typeof first !== 'number' || first < 0) throw new GraphQLError('you must provide one of first or last');
  if (first > MAX_PAGE) throw new GraphQLError(`The requested first value is over the ${MAX_PAGE} maximum.`);
  let start = 0;
  const after = str(args.after);
  if (after !== undefined) {
    const key = decodeCursor(after);
    const at = items.findIndex((item) => keyOf(item) === key);
    if (at < 0) throw new GraphQLError('Invalid cursor for current pagination.');
    start = at + 1;
  }
  const edges = items.slice(start, start + first).map((item) => ({ cursor: encodeCursor(keyOf(item)), node: view(item) }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

export function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ last_id: key })).toString('base64url');
}

function decodeCursor(cursor: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return isRecord(parsed) ? str(parsed['last_id']) : undefined;
  } catch {
    return undefined;
  }
}

const DATE_FIELDS = new Set(['created_at', 'updated_at', 'processed_at']);

const COMPARE: Record<string, (have: number, want: number) => boolean> = {
  '>=': (a, b) => a >= b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '<': (a, b) => a < b,
  '=': (a, b) => a === b,
};

/** The orders(query:) filter. Without a financial_status term only paid orders match (the simulator's convention). */
export function orderFilter(search: string): (order: RestOrder) => boolean {
  const terms = [...search.matchAll(/(\w+):(>=|<=|>|<)?('[^']*'|"[^"]*"|\S+)/g)].map((m) => ({
    field: (m[1] ?? '').toLowerCase(),
    compare: COMPARE[m[2] ?? '='] ?? COMPARE['=']!,
    value: (m[3] ?? '').replace(/^['"]|['"]$/g, ''),
  }));
  const statuses = terms.filter((t) => t.field === 'financial_status').map((t) => t.value.toLowerCase());
  return (order) => {
    const status = str(order['financial_status'])?.toLowerCase();
    if (statuses.length === 0 ? status !== 'paid' : !statuses.some((s) => s === 'any' || s === status)) return false;
    return terms.every((t) => {
      if (!DATE_FIELDS.has(t.field)) return true;
      const want = Date.parse(t.value);
      if (Number.isNaN(want)) return true;
      const have = Date.parse(str(order[t.field]) ?? '');
      return !Number.isNaN(have) && t.compare(have, want);
    });
  };
}
