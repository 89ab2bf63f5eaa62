// Reenviar pressed many times at once (issue 25 item 9): one e-mail queued, every press answered with it. The
// database decides (a unique index on a document's waiting resend), not a look before the insert.
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { resendDocument } from '../../../src/buyer-email/resend.ts';
import { documentEmails, documents, shops } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { databaseForBlock } from '../../support/database-block.ts';
import { invoiceRow } from '../../support/documents.ts';

const SHOP = 'tienda-reenvio.myshopify.com';
const PRESSES = 20;

describe.each(testDatabases)(`Reenviar pressed ${PRESSES} times at once on $name`, (target) => {
  const run = databaseForBlock(target, [documentEmails, documents, shops]);
  let doc: DocumentRow;

  beforeEach(async () => {
    const db = run.database.db;
    await db.insert(shops).values({ shop: SHOP, enabled: true });
    const [inserted] = await db
      .insert(documents)
      .values(
        invoiceRow({
          shop: SHOP,
          orderGid: 'gid://shopify/Order/1',
          orderName: '#1',
          totalCents: 1000,
          currency: 'USD',
          status: 'completed',
          step: 'done',
          snapshot: {},
          document: { dataTransaction: { client: { email1: 'ana@example.com' } } },
        }),
      )
      .returning();
    doc = inserted!;
    // The e-mail of the authorization went out already.
    await db
      .insert(documentEmails)
      .values({ documentId: doc.id, shop: SHOP, recipient: 'ana@example.com', language: 'es', reason: 'authorized', status: 'sent' });
  });

  const press = () => Promise.all(Array.from({ length: PRESSES }, () => resendDocument(run.database.db, doc, true)));
  const resends = () => run.database.db.select().from(documentEmails).where(eq(documentEmails.reason, 'resend'));

  it(`${PRESSES} presses queue one e-mail; every press answers with it, one of them as queued`, async () => {
    const outcomes = await press();
    const rows = await resends();
    expect(rows.map((r) => [r.status, r.recipient])).toEqual([['pending', 'ana@example.com']]);
    expect(outcomes.map((o) => o.ok && o.email.id)).toEqual(Array.from({ length: PRESSES }, () => rows[0]!.id));
    expect(outcomes.filter((o) => o.ok && o.queued)).toHaveLength(1);
  });

  it('once that e-mail has gone, the next presses queue one more, again only one', async () => {
    await press();
    await run.database.db.update(documentEmails).set({ status: 'sent' }).where(eq(documentEmails.reason, 'resend'));
    const outcomes = await press();
    const rows = await resends();
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'sent']);
    expect(outcomes.filter((o) => o.ok && o.queued)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.ok && o.email.id))).toEqual(new Set([rows.find((r) => r.status === 'pending')!.id]));
  });
});
