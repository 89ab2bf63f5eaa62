// Two full refunds of one order delivered at once (docs/design.md §9): one note credits the invoice, the other stops
// for a person, and no fiscal number is left held by a note that will never be sent. When both notes were numbered
// before either was saved for sending, the loser's number is given up as a recorded skip (docs/series.md); when the
// second was mapped after the first, it never took one. Either way the notes' series is contiguous: every number is
// a completed note or a recorded skip.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents, fiscalSkips } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { readRefundFixture } from '../../support/refund-fixtures.ts';

const SHOP = 'tienda-carrera.myshopify.com';
const ORDERS = 4;

describe.each(testDatabases)('two full refunds of one order at once, on $name', (target) => {
  const run = harnessForShop(target, SHOP);

  it('one note completes, the other stops holding no number, and every note number is issued or a recorded skip', async () => {
    const order = readRefundFixture('full-refund', 'order');
    const refund = readRefundFixture('full-refund', 'refund');
    const orders = Array.from({ length: ORDERS }, (_, i) => {
      const id = 5_900_000_077_000 + i;
      return { ...order, id, admin_graphql_api_id: `gid://shopify/Order/${id}`, name: `#77${i}` };
    });
    for (const o of orders) await run.h.simulator.orderPaid(SHOP, o, run.h.webhookAddress);
    await waitFor(
      async () => {
        const rows = await run.database.db.select().from(documents).where(eq(documents.shop, SHOP));
        return rows.filter((r) => r.status === 'completed').length === ORDERS || undefined;
      },
      30_000,
      'the invoices',
    );

    const refunds = orders.flatMap((o, i) =>
      [1, 2].map((n) => {
        const id = 9_400_000_770_000 + 10 * i + n;
        return { ...refund, id, admin_graphql_api_id: `gid://shopify/Refund/${id}`, order_id: o.id };
      }),
    );
    const answers = await Promise.all(
      refunds.map((r) => run.h.simulator.refundCreated(SHOP, r, `${run.h.app.url}/webhooks/refunds/create`)),
    );
    expect(answers.map((a) => a.status)).toEqual(refunds.map(() => 200));

    const notes = await waitFor(
      async () => {
        const rows = await run.database.db
          .select()
          .from(documents)
          .where(and(eq(documents.shop, SHOP), eq(documents.kind, 'credit_note')));
        const settled = rows.filter((r) => r.status === 'completed' || r.status === 'needs_attention');
        return settled.length === 2 * ORDERS ? rows : undefined;
      },
      30_000,
      'every note completed or stopped',
    );
    const completed = notes.filter((n) => n.status === 'completed');
    const stopped = notes.filter((n) => n.status === 'needs_attention');
    expect(completed).toHaveLength(ORDERS);
    expect(new Set(completed.map((n) => n.orderGid)).size).toBe(ORDERS);
    expect(completed.map((n) => n.totalCents)).toEqual(completed.map(() => 7132));
    for (const note of stopped) {
      expect(note.fiscalNumber).toBeNull();
      expect((note.lastError as { key: string }).key).toMatch(/^credit_(everything_credited|exceeds_invoice)$/);
    }

    const skips = await run.database.db
      .select()
      .from(fiscalSkips)
      .where(and(eq(fiscalSkips.shop, SHOP), eq(fiscalSkips.documentType, '04')));
    for (const skip of skips) expect(skip.reason).toMatch(/^reserved, never sent: the credit note stopped before sending \(credit_/);
    const used = [...completed.map((n) => n.fiscalNumber!), ...skips.map((s) => s.number)].sort((a, b) => a - b);
    expect(used).toEqual(Array.from({ length: used.length }, (_, i) => i + 1));
    // Only the notes the gateway authorized reached it.
    expect(run.h.sandbox.gateway.documents().filter((d) => d.cufe?.startsWith('FE04'))).toHaveLength(ORDERS);
    console.log(
      `${target.name}: ${ORDERS} orders × 2 full refunds at once: ${completed.length} notes, ${skips.length} numbers given up by a race`,
    );
  });
});
