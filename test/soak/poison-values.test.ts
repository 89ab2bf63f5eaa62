// One poison value fails nobody else (issue 14 item 3): a NUL, a lone surrogate and 100,000-deep nesting among
// concurrent legitimate deliveries. The deep one is refused (400 naming the depth); the others are stored with U+FFFD
// and invoiced; every legitimate neighbour answers 200 and is stored; privacy requests for the shop answer 200; the
// fiscal numbers stay gapless. Over HTTP, both databases.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents, fiscalSequences } from '../../src/db/schema.ts';
import { testDatabases } from '../../sim/harness/databases.ts';
import { waitFor } from '../../sim/harness/harness.ts';
import { harnessForShop } from '../support/harness-blocks.ts';
import { makePaidOrder } from '../support/order-factory.ts';

const SHOP = 'tienda-veneno.myshopify.com';
const BASE = 6_800_000_000_000;

describe.each(testDatabases)('poison values on $name', (target) => {
  const run = harnessForShop(target, SHOP);

  it('refuses only the too-deep body, stores NUL and lone surrogates as U+FFFD, and every neighbour is stored and invoiced', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => JSON.stringify(makePaidOrder({ id: BASE + i })));
    // A NUL in an order's name, a lone surrogate in the buyer's name, as JSON escapes (raw they are not JSON at all).
    const name = (JSON.parse(bodies[5]!) as { name: string }).name;
    bodies[5] = bodies[5]!.replace(`"name":${JSON.stringify(name)}`, `"name":${JSON.stringify(`${name}`).slice(0, -1)}\\u0000"`);
    bodies[11] = bodies[11]!.replace('"first_name":"', '"first_name":"\\udc00');
    // The shop has these orders (its Admin API confirms each before it is invoiced).
    for (const body of bodies) run.h.simulator.setOrder(SHOP, JSON.parse(body) as Record<string, unknown>);
    const deep = `{"id":${BASE + 99},"name":"#deep","note_attributes":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const answers = await Promise.all(
      [...bodies, deep].map((payload) =>
        run.h.simulator.sendWebhook({ address: run.h.webhookAddress, topic: 'orders/paid', shop: SHOP, payload }),
      ),
    );
    expect(answers.slice(0, 40).map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(answers.slice(0, 40).map((a) => JSON.parse(a.body).outcome)).toEqual(Array(40).fill('stored'));
    expect(answers[40]).toMatchObject({ status: 400 });
    expect(JSON.parse(answers[40]!.body)).toEqual({ error: 'body is nested 65 levels deep (at most 64)' });

    const rows = await waitFor(
      async () => {
        const all = await run.database.db.select().from(documents).where(eq(documents.shop, SHOP));
        return all.length === 40 && all.every((r) => r.status === 'completed') ? all : undefined;
      },
      60_000,
      'the 40 invoices',
    ).catch(async (error: unknown) => {
      const all = await run.database.db.select().from(documents).where(eq(documents.shop, SHOP));
      throw new Error(
        `${String(error)} (${all.length} rows, shops: ${JSON.stringify([...new Set(all.map((r) => r.shop))])}): ${JSON.stringify(all.filter((r) => r.status !== 'completed').map((r) => [r.orderName, r.status, r.lastError]))}`,
      );
    });
    const byOrder = new Map(rows.map((r) => [r.orderGid, r]));
    const nul = byOrder.get(`gid://shopify/Order/${BASE + 5}`)!;
    expect(nul.orderName.endsWith('\ufffd')).toBe(true);
    const surrogate = byOrder.get(`gid://shopify/Order/${BASE + 11}`)!;
    expect((surrogate.snapshot as { customer: { first_name: string } }).customer.first_name.startsWith('\ufffd')).toBe(true);
    // No number burned: 1…40, each once.
    expect(rows.map((r) => r.fiscalNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const [sequence] = await run.database.db.select().from(fiscalSequences).where(eq(fiscalSequences.shop, SHOP));
    expect(sequence?.nextNumber).toBe(41);

    // Privacy requests for the shop read the stored orders without failing.
    const privacy = (topic: string, payload: object) =>
      run.h.simulator.sendWebhook({ address: `${run.h.app.url}/webhooks/compliance`, topic, shop: SHOP, payload });
    const customer = { id: BASE + 12, email: 'ana.perez@example.com' };
    const report = await privacy('customers/data_request', { shop_domain: SHOP, customer, orders_requested: [BASE + 5] });
    expect(report.status).toBe(200);
    const redact = await privacy('customers/redact', { shop_domain: SHOP, customer, orders_to_redact: [BASE + 11] });
    expect(redact.status).toBe(200);
  }, 120_000);
});
