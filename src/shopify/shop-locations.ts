// The shop's locations (stores, warehouses, where POS tills sell) with their names, read through the Admin API
// (read_locations), for *Configuración* to map each to a branch and billing point (docs/series.md).
import type { AdminResult, ShopifyAdmin } from './admin-client.ts';

export const SHOP_LOCATIONS_QUERY = `query ShopLocations($after: String) {
  locations(first: 250, after: $after, includeInactive: true) {
    nodes { id legacyResourceId name isActive }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface ShopLocation {
  /** The numeric id, as text: what an order sold there carries as `location_id`. */
  id: string;
  name: string;
  active: boolean;
}

interface LocationsAnswer {
  locations: {
    nodes: { id: string; legacyResourceId: string | number; name: string; isActive: boolean }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  } | null;
}

/** Enough pages for any shop's locations (Shopify allows a few hundred at most). */
const MAX_PAGES = 8;

export async function readShopLocations(admin: ShopifyAdmin, shop: string): Promise<AdminResult<ShopLocation[]>> {
  const found: ShopLocation[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer: AdminResult<LocationsAnswer> = await admin.graphql<LocationsAnswer>(shop, SHOP_LOCATIONS_QUERY, { after });
    if (!answer.ok) return answer;
    const locations: LocationsAnswer['locations'] = answer.data.locations;
    if (!locations) return { ok: false, retryable: true, message: 'Shopify answered without the locations' };
    for (const l of locations.nodes) found.push({ id: String(l.legacyResourceId), name: l.name, active: l.isActive });
    if (!locations.pageInfo.hasNextPage || !locations.pageInfo.endCursor) break;
    after = locations.pageInfo.endCursor;
  }
  return { ok: true, data: found };
}
