// Reading values out of Shopify's REST JSON (orders, refunds): records, strings, ids and GIDs, timestamps, the way
// Admin GraphQL prints them. Money is rest-money.ts'. Pure: no state, no I/O.

import type { RestOrder } from './types.ts';

export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First value of a query/body field that may be repeated. */
export function str(value: unknown): string | undefined {
  if (Array.isArray(value)) return str(value[0]);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** GraphQL DateTime in UTC without milliseconds, from a REST timestamp with offset. */
export function graphqlDateTime(value: unknown): string | null {
  const s = str(value);
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `ms` as a REST timestamp with the same UTC offset as `like` (e.g. "-05:00"), else in UTC. */
export function restTimestamp(ms: number, like?: unknown): string {
  const offset = /([+-])(\d\d):(\d\d)$/.exec(str(like) ?? '');
  if (!offset) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${offset[0]}`;
}

/** A numeric REST id (a safe integer or a digit string) as text, or undefined. */
export function numericId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  return undefined;
}

export function gidOf(type: string, value: unknown): string | undefined {
  const id = numericId(value);
  return id === undefined ? undefined : `gid://shopify/${type}/${id}`;
}

/** The digits of a GID of the given type, or undefined. */
export function legacyId(gid: string, type: string): string | undefined {
  const m = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)$/.exec(gid);
  return m && m[1] === type ? m[2] : undefined;
}

/** `admin_graphql_api_id` when it is a GID of that type, else one built from the numeric `id`. */
export function restGid(type: string, resource: Record<string, unknown>): string | undefined {
  const given = resource['admin_graphql_api_id'];
  if (typeof given === 'string' && legacyId(given, type) !== undefined) return given;
  return gidOf(type, resource['id']);
}

export function orderGidOf(order: RestOrder): string {
  const gid = restGid('Order', order);
  if (!gid) throw new Error('order needs admin_graphql_api_id or a numeric id');
  return gid;
}
