// The store simulator serves every shop on one origin and learns the shop from a header; the app's Admin API
// origin rewrite is what sets it. Each side names the header on its own (the simulator imports nothing from the
// app), so this checks they agree: what the app sends is what the simulator reads.
import { describe, expect, it } from 'vitest';
import { SHOP_DOMAIN_HEADER as APP_HEADER, rewritingFetch } from '../../../src/shopify/admin-api-origin.ts';
import { SHOP_DOMAIN_HEADER as SIMULATOR_HEADER } from '../../../sim/store-simulator/store-simulator.ts';

describe('the shop-domain header, app and store simulator', () => {
  it('is the same header on both sides', () => {
    expect(SIMULATOR_HEADER).toBe(APP_HEADER);
  });

  it('carries the shop of a rewritten Admin API call in the header the simulator reads', async () => {
    const seen: Request[] = [];
    const fetch = rewritingFetch('http://127.0.0.1:9', async (input, init) => {
      seen.push(new Request(input, init));
      return new Response('{}');
    });
    await fetch('https://tienda-demo.myshopify.com/admin/api/2026-10/graphql.json', { method: 'POST', body: '{}' });
    expect(seen.map((r) => [r.url, r.headers.get(SIMULATOR_HEADER)])).toEqual([
      ['http://127.0.0.1:9/admin/api/2026-10/graphql.json', 'tienda-demo.myshopify.com'],
    ]);
  });
});
