// The shop's locations (its stores, warehouses, POS tills' places) as Shopify's Admin GraphQL shows them:
// `locations(first:, after:, includeInactive:)` with `read_locations`, each a Location with its numeric id (the
// `location_id` a POS order carries), name and whether it is active. Kept in the shop's state; a test adds them
// (addLocation, or POST /_simulator/locations), and an order stored with a `location_id` the shop lacks adds that one,
// named `Location <id>`.

import { connection } from './connections.ts';
import { type AdminContext, requireAccess } from './order-views.ts';
import { locationView } from './location-views.ts';

/** Added to the Admin schema (admin-schema.ts). */
export const LOCATIONS_SDL = /* GraphQL */ `
  extend type Query {
    location(id: ID!): Location
    locations(first: Int, after: String, includeInactive: Boolean): LocationConnection!
  }

  extend type Order {
    "Where a POS order was sold: the order's location_id."
    retailLocation: Location
  }

  type Location implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    name: String!
    isActive: Boolean!
  }

  type LocationEdge {
    cursor: String!
    node: Location!
  }

  type LocationConnection {
    edges: [LocationEdge!]!
    nodes: [Location!]!
    pageInfo: PageInfo!
  }
`;

/** The root fields, for adminRoot. */
export function locationRoot(ctx: AdminContext) {
  return {
    location({ id }: { id: string }) {
      requireAccess(ctx, 'location', 'read_locations');
      const found = ctx.shop.locations.get(id);
      return found ? locationView(found) : null;
    },
    locations(args: { first?: number | null; after?: string | null; includeInactive?: boolean | null }) {
      requireAccess(ctx, 'locations', 'read_locations');
      const listed = [...ctx.shop.locations.values()].filter((l) => l.active || args.includeInactive === true);
      return connection(listed, args, (l) => l.gid, locationView);
    },
  };
}
