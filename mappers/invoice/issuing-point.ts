// Where a document is issued from (docs/series.md): the branch and billing point of the Shopify location the order was
// sold at when the shop maps it (Shopify POS, or any channel that sets the order's `location_id`), else the shop's own.
// A credit note is issued from its invoice's branch and point (the issuing code passes them). Pure.
import type { IssuingPoint } from './document-numbering.ts';

/** The `locations` setting: a Shopify location id (the digits of the order's `location_id`) → its branch and point. */
export type LocationPoints = Readonly<Record<string, IssuingPoint>>;

/** The order's `location_id` as text (the number, or a Location GID's digits); undefined when it has none. */
export function orderLocationId(order: unknown): string | undefined {
  if (order === null || typeof order !== 'object') return undefined;
  const raw = (order as { location_id?: unknown }).location_id;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return String(raw);
  if (typeof raw !== 'string') return undefined;
  const digits = /^(?:gid:\/\/shopify\/Location\/)?(\d+)$/.exec(raw.trim());
  return digits?.[1];
}

/** The issuing point of an invoice for an order sold at `locationId`. */
export function invoicePointFor(locationId: string | undefined, locations: LocationPoints, shopPoint: IssuingPoint): IssuingPoint {
  const mapped = locationId === undefined || !Object.hasOwn(locations, locationId) ? undefined : locations[locationId];
  const { branchCode, billingPoint } = mapped ?? shopPoint;
  return { branchCode, billingPoint };
}
