// Re-issue to another client asked for many times at once (issue 25 item 9): one credit note and one new invoice;
// every other request is refused (the admin API's 409), none fails (it was a 500 for 8 of 12 on PostgreSQL).
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { documents, shops } from '../../../src/db/schema.ts';
import { reinvoice } from '../../../src/documents/reinvoice.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { databaseForBlock } from '../../support/database-block.ts';
import { invoiceRow } from '../../support/documents.ts';

const SHOP = 'tienda-reemision-doble.myshopify.com';
const REQUESTS = 12;

describe.each(testDatabases)(`${REQUESTS} re-issues of one invoice at once on $name`, (target) => {
  const run = databaseForBlock(target, [documents, shops]);
  let invoiceId: string;

  beforeEach(async () => {
    const db = run.database.db;
    await db.insert(shops).values({ shop: SHOP, enabled: true });
    const [row] = await db
      .insert(documents)
      .values(
        invoiceRow({
          shop: SHOP,
          orderGid: 'gid://shopify/Order/12',
          orderName: '#12',
          totalCents: 2500,
          currency: 'USD',
          status: 'completed',
          step: 'done',
          cufe: 'FE01200000000000000000000000000000000000000000000000000000000000000',
          snapshot: {},
        }),
      )
      .returning();
    invoiceId = row!.id;
  });

  it('one is done, the others are refused as already replaced, and nothing throws', async () => {
    const settled = await Promise.allSettled(
      Array.from({ length: REQUESTS }, () => reinvoice(run.database.db, { id: invoiceId, shop: SHOP }, TAXPAYER_CORRECTION)),
    );
    expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    const kinds = settled.map((s) => (s.status === 'fulfilled' ? s.value.kind : 'threw'));
    expect(kinds.filter((k) => k === 'done')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'refused')).toHaveLength(REQUESTS - 1);
    const rows = await run.database.db.select().from(documents).where(eq(documents.orderGid, 'gid://shopify/Order/12'));
    expect(rows.map((r) => [r.kind, r.replacesId === invoiceId, r.invoiceId === invoiceId]).sort()).toEqual([
      ['credit_note', false, true],
      ['invoice', false, false],
      ['invoice', true, false],
    ]);
  });
});
