// The shop's locations for *Configuración* (docs/series.md): the store simulator answers Admin GraphQL `locations`
// (read_locations) with what a test added; the admin API lists them with their names beside the `locations` setting,
// keeping a mapped id the shop does not have but flagging it; `locations` is validated with the other settings; the
// series API refuses a bad body.
import { Session } from '@shopify/shopify-api';
import { describe, expect, it } from 'vitest';
import { inMemoryPglite } from '../../../sim/harness/databases.ts';
import type { Harness } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';

const SHOP = 'tienda-ubicaciones.myshopify.com';

async function api(h: Harness, shop: string, path: string, method = 'GET', body?: unknown) {
  const token = await h.simulator.sessionToken(shop);
  const res = await fetch(`${h.app.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('locations in Configuración', () => {
  const run = harnessFor(inMemoryPglite);

  it("lists the shop's locations with their names and mappings; an id the shop lacks is kept and flagged", async () => {
    const { h } = run;
    await h.installShop(SHOP, {
      locations: { '71000000001': { branchCode: '0002', billingPoint: '001' }, '99': { branchCode: '0009', billingPoint: '001' } },
    });
    h.simulator.addLocation(SHOP, { id: 71_000_000_001, name: 'Tienda Colón' });
    h.simulator.addLocation(SHOP, { id: 71_000_000_002, name: 'Tienda David' });
    h.simulator.addLocation(SHOP, { id: 71_000_000_003, name: 'Bodega cerrada', active: false });

    const listed = await api(h, SHOP, '/locations');
    expect(listed).toEqual({
      status: 200,
      json: {
        available: true,
        error: null,
        locations: [
          { id: '71000000001', name: 'Tienda Colón', active: true, mapping: { branchCode: '0002', billingPoint: '001' } },
          { id: '71000000002', name: 'Tienda David', active: true, mapping: null },
          { id: '71000000003', name: 'Bodega cerrada', active: false, mapping: null },
        ],
        unknown: ['99'],
      },
    });
    // The settings keep the unknown id.
    expect((await h.app.shops.get(SHOP))!.settings.locations).toEqual({
      '71000000001': { branchCode: '0002', billingPoint: '001' },
      '99': { branchCode: '0009', billingPoint: '001' },
    });
  });

  it('the settings API refuses a location that is not an id → { branchCode, billingPoint }, naming it', async () => {
    const { h } = run;
    const shop = await api(h, SHOP, '/shop');
    const settings = shop.json.settings as Record<string, unknown>;
    const bad = await api(h, SHOP, '/settings', 'PUT', {
      ...settings,
      locations: { '71000000001': { branchCode: '2', billingPoint: '000', till: 3 } },
    });
    expect(bad.status).toBe(400);
    expect((bad.json.problems as { path: string }[]).map((p) => p.path).sort()).toEqual([
      'locations.71000000001',
      'locations.71000000001.billingPoint',
      'locations.71000000001.branchCode',
    ]);
    const notAnId = await api(h, SHOP, '/settings', 'PUT', {
      ...settings,
      locations: { 'Tienda Colón': { branchCode: '0002', billingPoint: '001' } },
    });
    expect(notAnId.status).toBe(400);
    const good = await api(h, SHOP, '/settings', 'PUT', {
      ...settings,
      locations: { '71000000002': { branchCode: '0003', billingPoint: '002' } },
    });
    expect(good.status).toBe(200);
    expect((good.json.settings as { locations: unknown }).locations).toEqual({
      '71000000002': { branchCode: '0003', billingPoint: '002' },
    });
  });

  it('series/next: a bad body is 400 naming the field, nothing changed; the next number may come as digits', async () => {
    const { h } = run;
    const key = { environment: 'produccion', branchCode: '0000', billingPoint: '001', documentType: '01' };
    const bad = await api(h, SHOP, '/series/next', 'POST', { ...key, billingPoint: '000', next: 0 });
    expect(bad.status).toBe(400);
    expect((bad.json.problems as { path: string }[]).map((p) => p.path)).toEqual(['billingPoint', 'next']);
    expect((await api(h, SHOP, '/series/next', 'POST', { ...key, documentType: '99', next: 5 })).status).toBe(400);
    expect((await api(h, SHOP, '/series/next', 'POST', { ...key, next: 5, shop: 'otra.myshopify.com' })).status).toBe(400);
    expect((await api(h, SHOP, '/series')).json.series).toEqual([]);
    const digits = await api(h, SHOP, '/series/next', 'POST', { ...key, next: '1001' });
    expect(digits.status).toBe(200);
    expect(digits.json.outcome).toEqual({ kind: 'set', from: 1, to: 1001 });
  });

  it("without read_locations the shop's locations are not available, and the page is told why", async () => {
    const { h } = run;
    const other = 'tienda-sin-permiso.myshopify.com';
    await h.installShop(other);
    // The shop granted the app its scopes before read_locations was asked for.
    const scope = 'read_orders,write_orders,read_customers';
    const { accessToken } = h.simulator.addShop(other, { scope });
    await h.app.sessions.storeSession(
      new Session({ id: `offline_${other}`, shop: other, state: 'test', isOnline: false, accessToken, scope }),
    );
    h.simulator.addLocation(other, { name: 'Tienda' });
    const listed = await api(h, other, '/locations');
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ available: false, locations: [], unknown: [] });
    expect(String(listed.json.error)).toContain('read_locations');
  });
});
