// A Location as Admin GraphQL shows it, from the shop's record or from the id a POS order carries.
import type { LocationRecord } from './shop-state.ts';

export function locationView(l: LocationRecord) {
  return { id: l.gid, legacyResourceId: l.gid.split('/').pop(), name: l.name, isActive: l.active };
}

/** An order's retailLocation: the location its REST `location_id` names (the shop's, when it has one by that id). */
export function retailLocationView(locations: ReadonlyMap<string, LocationRecord>, locationId: unknown) {
  const digits = typeof locationId === 'number' || typeof locationId === 'string' ? String(locationId) : '';
  if (!/^\d+$/.test(digits)) return null;
  const gid = `gid://shopify/Location/${digits}`;
  const known = locations.get(gid);
  return known ? locationView(known) : { id: gid, legacyResourceId: digits, name: `Location ${digits}`, isActive: true };
}
