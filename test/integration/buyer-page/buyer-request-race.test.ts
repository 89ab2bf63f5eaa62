// The buyer's request held to one per invoice by the database (issue 29, docs/buyer-page.md), on both databases:
// simultaneous requests on one invoice issue one credit note and one new invoice, and all answer the same outcome;
// the shop's setting and the window refuse (409, nothing stored); a credit note's page takes no request; only JSON.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buyerRequests, documents } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-solicitudes.myshopify.com';

type Row = typeof documents.$inferSelect;

describe.each(testDatabases)("the buyer's request, one per invoice, on $name", (target) => {
  const run = harnessForShop(target, SHOP);
  let nextId = 6_960_000_000_001;

  const rowsOf = (gid: string) =>
    run.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, gid)));
  async function authorized(): Promise<{ gid: string; invoice: Row; link: string }> {
    const id = nextId++;
    const gid = `gid://shopify/Order/${id}`;
    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id }), run.h.webhookAddress);
    const invoice = await waitFor(async () => (await rowsOf(gid)).find((r) => r.status === 'completed'), 20_000, 'the invoice');
    return { gid, invoice, link: `${run.h.app.url}/d/${invoice.buyerToken}` };
  }
  async function post(link: string, body: string, type = 'application/json') {
    const response = await fetch(`${link}/request`, { method: 'POST', headers: { 'Content-Type': type }, body });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const company = JSON.stringify(TAXPAYER_CORRECTION);

  it('six requests at once: one acts, all answer its outcome; one credit note and one new invoice', async () => {
    const { gid, invoice, link } = await authorized();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(link, company)));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(answers.filter((a) => a.body.repeat === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.outcome))).toEqual(new Set(['reissued']));
    expect(new Set(answers.map((a) => a.body.replacementId)).size).toBe(1);
    const rows = await waitFor(
      async () => ((r) => r.length === 3 && r.every((d) => d.status === 'completed') && r)(await rowsOf(gid)),
      30_000,
      'the note and the new invoice',
    );
    expect(rows.filter((r) => r.kind === 'credit_note')).toHaveLength(1);
    expect(await run.database.db.select().from(buyerRequests).where(eq(buyerRequests.invoiceId, invoice.id))).toHaveLength(1);

    // The note's own page takes no request.
    const note = rows.find((r) => r.kind === 'credit_note')!;
    const refused = await post(`${run.h.app.url}/d/${note.buyerToken}`, company);
    expect(refused).toMatchObject({ status: 409, body: { reason: 'not_invoice' } });
  });

  it('JSON only: a form post is 415, a body that is not JSON 400, one too large 413, nothing stored', async () => {
    const { invoice, link } = await authorized();
    expect((await post(link, 'type=taxpayer&ruc=1', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post(link, company, 'text/plain')).status).toBe(415);
    expect(await post(link, '{"type":')).toMatchObject({ status: 400, body: { problems: [{ path: '(body)' }] } });
    // Too large: a plain answer, nothing of the code.
    const large = await post(link, JSON.stringify({ ...TAXPAYER_CORRECTION, name: 'x'.repeat(20_000) }));
    expect(large.status).toBe(413);
    expect(JSON.stringify(large.body)).not.toMatch(/ at |node_modules|\.ts|select |insert /i);
    expect(await run.database.db.select().from(buyerRequests).where(eq(buyerRequests.invoiceId, invoice.id))).toEqual([]);
  });

  it('refused when the shop turned requests off, and after the window; the page says why', async () => {
    const { invoice, link } = await authorized();
    const current = (await run.h.app.shops.get(SHOP))!;
    const saved = await run.h.app.shops.saveSettings(SHOP, { ...current.settings, buyerRequests: { enabled: false, days: 30 } });
    expect(saved).toEqual({ ok: true });
    const off = await post(link, company);
    expect(off).toMatchObject({ status: 409, body: { reason: 'disabled' } });
    expect(String(off.body.error)).toContain('contacte a la tienda');
    const page = (await (await fetch(`${link}.json`)).json()) as Record<string, unknown>;
    expect(page).toMatchObject({ requestable: false, reason: { code: 'disabled' } });

    await run.h.app.shops.saveSettings(SHOP, { ...current.settings, buyerRequests: { enabled: true, days: 1 } });
    await run.database.db
      .update(documents)
      .set({ authorizedAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(documents.id, invoice.id));
    expect(await post(link, company)).toMatchObject({ status: 409, body: { reason: 'window_passed' } });
    expect(await run.database.db.select().from(buyerRequests).where(eq(buyerRequests.invoiceId, invoice.id))).toEqual([]);
    await run.h.app.shops.saveSettings(SHOP, current.settings);
  });
});
