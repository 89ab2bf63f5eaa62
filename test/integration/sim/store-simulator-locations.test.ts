// The store simulator's locations (docs/series.md): a test (or another process, through the control API) adds the
// shop's locations; Admin GraphQL answers `locations` and `location(id:)` with read_locations, as Shopify does, and
// refuses them without it; an order keeps the `location_id` a test gave it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHOP_LOCATIONS_QUERY } from '../../../src/shopify/shop-locations.ts';
import type { StoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { SHOP, rawGraphql, restOrder, startSim } from '../../support/store-simulator-kit.ts';

let sim: StoreSimulator;
let closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  closers = [];
  sim = await startSim(closers, { controlApi: true });
});
afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

describe('locations', () => {
  it('lists the locations added, with their ids, names and state; pages with after; location(id:) finds one', async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: 'read_orders,read_locations' });
    expect(sim.addLocation(SHOP, { id: 71_000_000_001, name: 'Tienda Colón' })).toEqual({
      id: 71000000001,
      gid: 'gid://shopify/Location/71000000001',
    });
    const added = await fetch(`${sim.origin}/_simulator/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop: SHOP, name: 'Bodega', active: false }),
    });
    const bodega = (await added.json()) as { id: number; gid: string };
    expect(bodega.gid).toBe(`gid://shopify/Location/${bodega.id}`);

    const all = await rawGraphql(sim, accessToken, SHOP_LOCATIONS_QUERY, { after: null });
    expect(all.body).toMatchObject({
      data: {
        locations: {
          nodes: [
            { id: 'gid://shopify/Location/71000000001', legacyResourceId: '71000000001', name: 'Tienda Colón', isActive: true },
            { id: bodega.gid, legacyResourceId: String(bodega.id), name: 'Bodega', isActive: false },
          ],
          pageInfo: { hasNextPage: false },
        },
      },
    });
    const active = await rawGraphql(
      sim,
      accessToken,
      'query { locations(first: 1) { nodes { name } pageInfo { hasNextPage endCursor } } }',
    );
    expect(active.body).toMatchObject({ data: { locations: { nodes: [{ name: 'Tienda Colón' }], pageInfo: { hasNextPage: false } } } });
    const one = await rawGraphql(sim, accessToken, 'query($id: ID!) { location(id: $id) { name } }', { id: bodega.gid });
    expect(one.body).toMatchObject({ data: { location: { name: 'Bodega' } } });
  });

  it('without read_locations: ACCESS_DENIED, as Shopify answers', async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: 'read_orders,write_orders' });
    sim.addLocation(SHOP, { name: 'Tienda' });
    const denied = await rawGraphql(sim, accessToken, SHOP_LOCATIONS_QUERY);
    expect((denied.body.errors as { extensions: { code: string } }[])[0]!.extensions.code).toBe('ACCESS_DENIED');
  });

  it("keeps an order's location_id as the test gave it; a location the shop lacks is added, named after its id", async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: 'read_orders,read_locations' });
    sim.addLocation(SHOP, { id: 71_000_000_001, name: 'Tienda Colón' });
    const gid = sim.setOrder(SHOP, { ...restOrder(5_900_000_000_777), location_id: 71_000_000_001 });
    sim.setOrder(SHOP, { ...restOrder(5_900_000_000_778), location_id: 71_000_000_005 });
    sim.setOrder(SHOP, { ...restOrder(5_900_000_000_779), location_id: null });
    expect(sim.order(SHOP, gid)?.['location_id']).toBe(71_000_000_001);
    const all = await rawGraphql(sim, accessToken, 'query { locations(first: 10) { nodes { legacyResourceId name } } }');
    expect(all.body).toMatchObject({
      data: {
        locations: {
          nodes: [
            { legacyResourceId: '71000000001', name: 'Tienda Colón' },
            { legacyResourceId: '71000000005', name: 'Location 71000000005' },
          ],
        },
      },
    });
  });
});
