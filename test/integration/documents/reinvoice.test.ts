// An authorized invoice issued to the wrong buyer is replaced in one action (docs/design.md §9, §10; issue 16 item 3): a credit
// note for all of it and a new invoice to the right client, both issued by the pipeline, linked to each other and to
// the order's metafields. Over HTTP (admin API) and the CLI, with the store simulator and the sandbox, both databases.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REFERENCE_FIELDS, type GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { documents } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { TAXPAYER_CLIENT_BLOCK, TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { invoicesCli } from '../../support/harness-cli.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-reemision.myshopify.com';

describe.each(testDatabases)('re-issuing an invoice to the right buyer on $name', (target) => {
  const run = harnessForShop(target, SHOP);

  const rowsOf = (orderGid: string) =>
    run.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, orderGid)));
  const sent = (row: DocumentRow) => row.document as GatewayDocument;

  /** An order invoiced to a final consumer (the buyer forgot to give the company's RUC). */
  async function wrongBuyer(id: number): Promise<{ gid: string; invoice: DocumentRow }> {
    await run.h.simulator.orderPaid(SHOP, makePaidOrder({ id }), run.h.webhookAddress);
    const gid = `gid://shopify/Order/${id}`;
    const invoice = await waitFor(async () => (await rowsOf(gid)).find((r) => r.status === 'completed'), 20_000, 'the invoice');
    expect(sent(invoice).dataTransaction.client.typeClientEB).toBe('02');
    return { gid, invoice };
  }

  /** The replacement done: the old invoice, its full credit note and the new invoice, all completed. */
  async function replaced(gid: string, old: DocumentRow) {
    return waitFor(
      async () => {
        const rows = await rowsOf(gid);
        const note = rows.find((r) => r.kind === 'credit_note' && r.status === 'completed');
        const replacement = rows.find((r) => r.kind === 'invoice' && r.replacesId === old.id && r.status === 'completed');
        return note && replacement ? { rows, note, replacement } : undefined;
      },
      30_000,
      'the credit note and the new invoice',
    );
  }

  it('through the admin API: one full credit note naming the old CUFE, one new invoice to the right client, the order showing the new one', async () => {
    const { gid, invoice } = await wrongBuyer(6_700_000_000_001);
    const token = await run.h.simulator.sessionToken(SHOP);
    const call = (body: unknown, id = invoice.id) =>
      fetch(`${run.h.app.url}/api/invoices/${id}/reinvoice`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    const wrongDv = await call({ ...TAXPAYER_CORRECTION, dv: '58' });
    expect(wrongDv.status).toBe(400);
    expect(((await wrongDv.json()) as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual(['dv']);
    expect(await rowsOf(gid)).toHaveLength(1);

    const accepted = await call(TAXPAYER_CORRECTION);
    expect(accepted.status).toBe(202);
    const ids = (await accepted.json()) as { creditNoteId: string; invoiceId: string; replaces: string };
    expect(ids.replaces).toBe(invoice.id);
    // Asked again, nothing more: the invoice is being replaced already.
    expect((await call(TAXPAYER_CORRECTION)).status).toBe(409);

    const { rows, note, replacement } = await replaced(gid, invoice);
    expect(rows).toHaveLength(3);
    expect([note.id, replacement.id]).toEqual([ids.creditNoteId, ids.invoiceId]);
    expect(note).toMatchObject({ invoiceId: invoice.id, totalCents: invoice.totalCents, documentType: '04' });
    expect(sent(note).totalsSubTotals.totalInvoice).toBe(sent(invoice).totalsSubTotals.totalInvoice);
    expect(sent(note).listItems).toEqual(sent(invoice).listItems);
    expect(sent(note).dataTransaction[REFERENCE_FIELDS.list]?.[0]?.[REFERENCE_FIELDS.cufe]).toBe(invoice.cufe);
    expect(replacement).toMatchObject({ replacesId: invoice.id, taxIdSource: 'correction', totalCents: invoice.totalCents });
    expect(sent(replacement).dataTransaction.client).toEqual(TAXPAYER_CLIENT_BLOCK);
    expect(sent(replacement).totalsSubTotals.totalInvoice).toBe(sent(invoice).totalsSubTotals.totalInvoice);

    const fields = Object.fromEntries(run.h.simulator.metafields(gid, SHOP).map((m) => [m.key, m.value]));
    expect(fields.cufe).toBe(replacement.cufe);
    expect(fields.fiscal_number).toBe('0000-001-0000000002');
    expect(JSON.parse(fields.credit_notes!)).toMatchObject([
      { cufe: note.cufe, refund_id: `replacement:${invoice.id}`, amount: sent(invoice).totalsSubTotals.totalInvoice },
    ]);
  });

  it('through the CLI, and refused for what cannot be replaced', async () => {
    const { gid, invoice } = await wrongBuyer(6_700_000_000_002);
    const cli = invoicesCli(run.h);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reinvoice-'));
    try {
      const file = path.join(dir, 'client.json');
      fs.writeFileSync(file, JSON.stringify(TAXPAYER_CORRECTION));
      const done = await cli('reinvoice', invoice.id, '--file', file);
      expect(done.code).toBe(0);
      const { note, replacement } = await replaced(gid, invoice);
      expect(done.out).toEqual([
        `Invoice ${invoice.id} (${SHOP} #${invoice.orderName.slice(1)}) is being replaced: credit note ${note.id} for all of it, ` +
          `and invoice ${replacement.id} to taxpayer, RUC 155596713-2-2015 DV 59. The running app issues both.`,
      ]);
      // A credit note is not re-issued; the replaced invoice not twice.
      expect((await cli('reinvoice', note.id, '--file', file)).code).toBe(1);
      const again = await cli('reinvoice', invoice.id, '--file', file);
      expect(again.code).toBe(1);
      expect(again.err[0]).toMatch(/was replaced already/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
