// The merchant corrects an invoice's client (docs/design.md §10, issue 16 item 2), end to end over HTTP with the store
// simulator and the sandbox gateway, on both databases:
// - through the admin API: a wrong check digit is refused (400 naming the DV, nothing saved), another shop's invoice
//   is not found, a right correction requeues the invoice and it is authorized with the corrected client;
// - through the CLI (`invoices correct`): exit codes 2 for bad input (nothing saved), 1 for what cannot be done, 0;
// - an order fixed in Shopify (the cart attribute edited) and retried: the order is read again and invoiced with the
//   new data, and the stored snapshot is the fresh one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { parseShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { customerDataReport } from '../../../src/privacy/customer-data-report.ts';
import { redactCustomer } from '../../../src/privacy/customer-redaction.ts';
import { TAXPAYER_CLIENT_BLOCK, TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { invoiceRow } from '../../support/documents.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { invoicesCli } from '../../support/harness-cli.ts';
import { makePaidOrder } from '../../support/order-factory.ts';
import { ROOT } from '../../support/paths.ts';

const SHOP = 'tienda-correcciones.myshopify.com';
const OTHER = 'tienda-vecina.myshopify.com';

/** A RUC whose check digit is 59 (155596713-2-2015 DV 59), typed with a wrong one. */
const WRONG_DV = [
  { name: 'ruc', value: '155596713-2-2015' },
  { name: 'dv', value: '00' },
];

/** The client file of docs/merchants.md, exactly as a reader would copy it. */
function documentedClient(): string {
  const guide = fs.readFileSync(path.join(ROOT, 'docs', 'merchants.md'), 'utf8');
  const block = /<!-- client-example[^>]*-->\s*```json\n([\s\S]*?)\n```/.exec(guide);
  if (!block?.[1]) throw new Error('docs/merchants.md has no client example');
  return block[1];
}

type Row = typeof documents.$inferSelect;
type Client = Record<string, string>;

describe.each(testDatabases)('correcting an invoice’s client on $name', (target) => {
  const run = harnessForShop(target, SHOP, OTHER);
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-correction-'));
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const gidOf = (id: number) => `gid://shopify/Order/${id}`;
  const rowOf = async (orderId: number): Promise<Row | undefined> =>
    (
      await run.database.db
        .select()
        .from(documents)
        .where(and(eq(documents.shop, SHOP), eq(documents.orderGid, gidOf(orderId))))
    )[0];
  const settled = (orderId: number, status: Row['status']) =>
    waitFor(
      async () => {
        const row = await rowOf(orderId);
        return row?.status === status ? row : undefined;
      },
      20_000,
      `order ${orderId} to be ${status}`,
    );
  /** What the gateway received for an authorized invoice. */
  const sentClient = (row: Row): Client => {
    const issued = run.h.sandbox.gateway.documents().find((d) => d.cufe === row.cufe);
    if (!issued) throw new Error(`the sandbox has no document ${row.cufe}`);
    return issued.document.dataTransaction.client as Client;
  };

  async function paidWithWrongDv(orderId: number, lines?: Parameters<typeof makePaidOrder>[0]['lines']): Promise<Row> {
    await run.h.simulator.orderPaid(
      SHOP,
      { ...makePaidOrder({ id: orderId, ...(lines ? { lines } : {}) }), note_attributes: WRONG_DV },
      run.h.webhookAddress,
    );
    return settled(orderId, 'needs_attention');
  }

  async function call(method: string, route: string, o: { body?: string; type?: string; shop?: string } = {}) {
    const token = await run.h.simulator.sessionToken(o.shop ?? SHOP);
    const response = await fetch(`${run.h.app.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(o.type ? { 'Content-Type': o.type } : {}) },
      ...(o.body === undefined ? {} : { body: o.body }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { invoice?: Record<string, unknown> } };
  }
  const putClient = (id: string, client: unknown, shop?: string) =>
    call('PUT', `/api/invoices/${id}/client`, { body: JSON.stringify(client), type: 'application/json', ...(shop ? { shop } : {}) });

  it('API: a wrong DV is refused and nothing is saved; the right client is saved, requeued and authorized', async () => {
    const stopped = await paidWithWrongDv(6_600_000_000_001);
    expect(stopped).toMatchObject({ lastErrorKind: 'mapping', clientOverride: null, fiscalNumber: null });

    // The form starts from what the buyer typed, so only the DV needs fixing.
    const form = await call('GET', `/api/invoices/${stopped.id}/client`);
    expect(form).toEqual({
      status: 200,
      body: {
        correctable: true,
        refusal: null,
        correction: null,
        fields: {
          type: 'taxpayer',
          ruc: '155596713-2-2015',
          dv: '00',
          name: 'Ana Pérez',
          address: 'Calle 50, Panamá',
          locationCode: '8-8-7',
          email: 'cliente@example.com',
        },
      },
    });

    const wrongDv = await putClient(stopped.id, { ...TAXPAYER_CORRECTION, dv: '00' });
    expect(wrongDv).toEqual({
      status: 400,
      body: {
        error: 'invalid client: dv: the check digit 00 does not belong to the RUC 155596713-2-2015',
        problems: [{ path: 'dv', message: 'the check digit 00 does not belong to the RUC 155596713-2-2015' }],
      },
    });
    // Every field that is wrong is named at once.
    const several = await putClient(stopped.id, {
      ...TAXPAYER_CORRECTION,
      name: '',
      locationCode: '99-99-99',
      email: 'no',
      phone: '6000-0000',
    });
    expect(several.status).toBe(400);
    expect(several.body.problems).toEqual([
      { path: 'name', message: 'name must have at least 1 characters' },
      { path: 'locationCode', message: 'locationCode is not a province-district-corregimiento code of the DGI catalogue' },
      { path: 'email', message: 'email is not an e-mail address' },
      { path: '(body)', message: 'Unrecognized key: "phone"' },
    ]);
    expect(await call('PUT', `/api/invoices/${stopped.id}/client`, { body: 'type=taxpayer', type: 'text/plain' })).toEqual({
      status: 415,
      body: { error: 'send the client as JSON (Content-Type: application/json)' },
    });
    expect(await call('PUT', `/api/invoices/${stopped.id}/client`, { body: '{"type": "taxpayer",', type: 'application/json' })).toEqual({
      status: 400,
      body: { error: 'the body is not valid JSON', problems: [{ path: '(body)', message: 'is not valid JSON' }] },
    });
    // Another shop's token finds nothing, even with a valid client; an id that is not one is a 400.
    expect(await putClient(stopped.id, TAXPAYER_CORRECTION, OTHER)).toEqual({ status: 404, body: { error: 'invoice not found' } });
    expect((await call('DELETE', `/api/invoices/${stopped.id}/client`, { shop: OTHER })).status).toBe(404);
    expect((await putClient('00000000-0000-4000-8000-000000000000', TAXPAYER_CORRECTION)).status).toBe(404);
    expect((await putClient('not-an-id', TAXPAYER_CORRECTION)).status).toBe(400);
    // Nothing of that changed the invoice.
    expect(await rowOf(6_600_000_000_001)).toEqual(stopped);

    const saved = await putClient(stopped.id, TAXPAYER_CORRECTION);
    expect(saved.status).toBe(200);
    expect(saved.body.invoice).toMatchObject({
      id: stopped.id,
      status: 'pending',
      attempts: 0,
      reason: null,
      correctable: false,
      clientCorrection: TAXPAYER_CORRECTION,
    });

    const done = await settled(6_600_000_000_001, 'completed');
    expect(done).toMatchObject({ taxIdSource: 'correction', clientOverride: TAXPAYER_CORRECTION, refreshSnapshot: false, lastError: null });
    expect(sentClient(done)).toEqual(TAXPAYER_CLIENT_BLOCK);
    const detail = await call('GET', `/api/invoices/${stopped.id}`);
    expect(detail.body.invoice).toMatchObject({
      status: 'completed',
      taxIdSource: 'correction',
      clientCorrection: TAXPAYER_CORRECTION,
      correctable: false,
    });

    // Authorized: the client can no longer change, either way.
    const refused = { error: 'the invoice is authorized (completed): its client can no longer change', status: 'completed' };
    expect(await putClient(stopped.id, TAXPAYER_CORRECTION)).toEqual({ status: 409, body: refused });
    expect(await call('DELETE', `/api/invoices/${stopped.id}/client`)).toEqual({ status: 409, body: refused });
  });

  it('API: a correction that did not settle everything stays with the invoice, and can be dropped', async () => {
    // 12 % is no ITBMS rate: the order stops on it too, once its client is right.
    const stopped = await paidWithWrongDv(6_600_000_000_002, [{ title: 'Servicio', price: 1000, quantity: 1, ratePercent: 12 }]);
    expect((await putClient(stopped.id, { type: 'final_consumer', name: 'Ana Pérez' })).status).toBe(200);
    const again = await waitFor(async () => {
      const row = await rowOf(6_600_000_000_002);
      return row?.status === 'needs_attention' && row.updatedAt > stopped.updatedAt ? row : undefined;
    });
    expect(again).toMatchObject({ clientOverride: { type: 'final_consumer', name: 'Ana Pérez' }, lastErrorKind: 'mapping' });
    expect((again.problems as { code: string }[]).map((p) => p.code)).toEqual(['unsupported_tax_rate']);
    const form = await call('GET', `/api/invoices/${stopped.id}/client`);
    expect(form.body).toMatchObject({
      correctable: true,
      correction: { type: 'final_consumer', name: 'Ana Pérez' },
      fields: { type: 'final_consumer', ruc: '', dv: '', name: 'Ana Pérez', address: '', locationCode: '', email: '' },
    });

    const dropped = await call('DELETE', `/api/invoices/${stopped.id}/client`);
    expect(dropped.status).toBe(200);
    // Dropping does not requeue: the invoice waits for the merchant's retry, with its reason.
    expect(dropped.body.invoice).toMatchObject({ status: 'needs_attention', clientCorrection: null, correctable: true, retryable: true });
    expect(await rowOf(6_600_000_000_002)).toMatchObject({ status: 'needs_attention', clientOverride: null, problems: again.problems });

    // A correction is the buyer's data: a customers/data_request reports it, a customers/redact takes it.
    expect((await putClient(stopped.id, TAXPAYER_CORRECTION)).status).toBe(200);
    const corrected = await waitFor(async () => {
      const row = await rowOf(6_600_000_000_002);
      return row?.status === 'needs_attention' && row.clientOverride ? row : undefined;
    });
    const subject = { customerId: undefined, email: undefined, orderGids: [corrected.orderGid] };
    expect((await customerDataReport(run.database.db, SHOP, subject)).invoices).toMatchObject([{ clientCorrection: TAXPAYER_CORRECTION }]);
    await redactCustomer(run.database.db, SHOP, subject);
    expect(await rowOf(6_600_000_000_002)).toMatchObject({ clientOverride: null, snapshotRedacted: true });
  });

  it('API: a credit note, or an invoice authorized but stopped later, takes no correction', async () => {
    const [note, authorized] = await run.database.db
      .insert(documents)
      .values([
        invoiceRow({
          shop: SHOP,
          kind: 'credit_note',
          documentType: '04',
          sourceKey: 'gid://shopify/Refund/1',
          orderGid: gidOf(6_600_000_000_090),
          orderName: '#90',
          status: 'failed',
          totalCents: 100,
          currency: 'USD',
          snapshot: {},
        }),
        invoiceRow({
          shop: SHOP,
          orderGid: gidOf(6_600_000_000_091),
          orderName: '#91',
          status: 'failed',
          step: 'pdf',
          cufe: 'FE0120000000000000-0-0000-0000000000000000000000000000000000000000',
          totalCents: 100,
          currency: 'USD',
          snapshot: {},
        }),
      ])
      .returning();
    expect(await putClient(note!.id, TAXPAYER_CORRECTION)).toEqual({
      status: 409,
      body: { error: "a credit note's client is its invoice's: it cannot be corrected", status: 'failed' },
    });
    expect(await putClient(authorized!.id, TAXPAYER_CORRECTION)).toEqual({
      status: 409,
      body: { error: 'the invoice is authorized (failed): its client can no longer change', status: 'failed' },
    });
    expect((await call('GET', `/api/invoices/${authorized!.id}/client`)).body).toMatchObject({
      correctable: false,
      refusal: 'the invoice is authorized (failed): its client can no longer change',
    });
    for (const row of [note!, authorized!])
      expect((await run.database.db.select().from(documents).where(eq(documents.id, row.id)))[0]).toEqual(row);
  });

  it('CLI: invoices correct refuses bad input (exit 2, nothing saved) and a wrong state (exit 1); a right client is invoiced', async () => {
    const stopped = await paidWithWrongDv(6_600_000_000_003);
    const cli = invoicesCli(run.h);
    const file = (name: string, text: string) => {
      const where = path.join(dir, name);
      fs.writeFileSync(where, text);
      return where;
    };
    const consumer = { type: 'final_consumer', name: 'Ana Pérez', email: 'ana@example.com' };
    const good = file('client.json', documentedClient());
    const missing = path.join(dir, 'missing.json');

    expect(await cli('correct', stopped.id, '--file', missing)).toEqual({
      code: 2,
      out: [],
      err: [`invoices correct: cannot read the client file ${missing}: no such file`],
    });
    const broken = file('broken.json', '{"type": "taxpayer",\n');
    expect(await cli('correct', stopped.id, '--file', broken)).toMatchObject({ code: 2, out: [] });
    expect((await cli('correct', stopped.id, '--file', broken)).err[0]).toMatch(
      /^invoices correct: the client file .*broken\.json is not valid JSON/,
    );
    const wrongDv = file('wrong-dv.json', JSON.stringify({ ...TAXPAYER_CORRECTION, dv: '58' }));
    expect(await cli('correct', stopped.id, '--file', wrongDv)).toEqual({
      code: 2,
      out: [],
      err: [
        `invoices correct: the client file ${wrongDv} was not saved: dv: the check digit 58 does not belong to the RUC 155596713-2-2015`,
      ],
    });
    expect((await cli('correct', stopped.id)).code).toBe(2);
    expect((await cli('correct', stopped.id, '--file', good, '--clear')).code).toBe(2);
    expect((await cli('correct', 'not-an-id', '--file', good)).code).toBe(2);
    expect(await cli('correct', '00000000-0000-4000-8000-000000000000', '--file', good)).toEqual({
      code: 1,
      out: [],
      err: ['invoices correct: no invoice 00000000-0000-4000-8000-000000000000'],
    });
    expect(await rowOf(6_600_000_000_003)).toEqual(stopped);

    expect(await cli('correct', stopped.id, '--file', good)).toEqual({
      code: 0,
      out: [`Invoice ${stopped.id} (${SHOP} #3): client corrected (taxpayer, RUC 155596713-2-2015 DV 59); back in the queue.`],
      err: [],
    });
    const done = await settled(6_600_000_000_003, 'completed');
    // The client file of docs/merchants.md is the client the tests use.
    expect(JSON.parse(documentedClient())).toEqual(TAXPAYER_CORRECTION);
    expect(done).toMatchObject({ taxIdSource: 'correction', clientOverride: TAXPAYER_CORRECTION });
    expect(sentClient(done)).toEqual(TAXPAYER_CLIENT_BLOCK);

    const refused = `invoices correct: invoice ${stopped.id}: the invoice is authorized (completed): its client can no longer change`;
    expect(await cli('correct', stopped.id, '--file', file('consumer.json', JSON.stringify(consumer)))).toEqual({
      code: 1,
      out: [],
      err: [refused],
    });
    expect(await cli('correct', stopped.id, '--clear')).toEqual({ code: 1, out: [], err: [refused] });
  });

  it('an order fixed in Shopify and retried is read again: invoiced with the new attribute, the fresh snapshot stored', async () => {
    const orderId = 6_600_000_000_004;
    const stopped = await paidWithWrongDv(orderId);
    run.h.simulator.updateOrder(SHOP, gidOf(orderId), {
      note_attributes: [
        { name: 'ruc', value: '155646463-2-2017' },
        { name: 'dv', value: '86' },
        { name: 'razon_social', value: 'Importadora Ejemplo, S.A.' },
      ],
    });
    run.h.simulator.resetLogs();
    const retried = await call('POST', `/api/invoices/${stopped.id}/retry`);
    expect(retried.body.retried).toBe(1);

    const done = await settled(orderId, 'completed');
    expect(done.taxIdSource).toBe('cart_attributes');
    expect(sentClient(done)).toMatchObject({
      typeClientEB: '01',
      typeTaxpayer: '2',
      numberRUC: '155646463-2-2017',
      digitCheckRUC: '86',
      businessName: 'Importadora Ejemplo, S.A.',
    });
    // The order was read through Admin GraphQL once, and that answer, as the webhook's shape, replaced the intake's
    // snapshot: the same typed order as the store's own.
    const reads = run.h.simulator.calls().filter((c) => c.shop === SHOP && c.operation === 'order' && !('withCompany' in c.variables));
    expect(reads).toHaveLength(1);
    // (GraphQL gives times in UTC, the webhook in the shop's offset: the same instants.)
    const typed = (body: unknown) => {
      const parsed = parseShopifyOrder(body);
      if (!parsed.ok) throw new Error('unreadable order');
      return {
        ...parsed.order,
        createdAt: Date.parse(parsed.order.createdAt ?? ''),
        processedAt: Date.parse(parsed.order.processedAt ?? ''),
      };
    };
    expect(typed(done.snapshot)).toEqual(typed(run.h.simulator.order(SHOP, gidOf(orderId))));
    expect(done.snapshot).not.toEqual(stopped.snapshot);
  });
});
