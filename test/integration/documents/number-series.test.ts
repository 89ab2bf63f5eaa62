// Number series over HTTP on both databases (docs/series.md): orders of two mapped Shopify locations and of the online
// store numbered 1, 2, 3 … each in its own branch and point at the sandbox gateway; a refund of a POS order numbered in
// that location's branch and point, type 04's own series; test invoices never taking a production number; set-next
// from the admin API, and refused below the last number used.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { documents, fiscalSequences, fiscalSeriesChanges } from '../../../src/db/schema.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const STORES = 'tienda-sucursales.myshopify.com';
const SWITCH = 'tienda-estreno.myshopify.com';
const COLON = 71_000_000_001;
const DAVID = 71_000_000_002;

async function completed(database: Database, shop: string, count: number): Promise<DocumentRow[]> {
  return waitFor(
    async () => {
      const rows = await database.db.select().from(documents).where(eq(documents.shop, shop));
      return rows.filter((r) => r.status === 'completed' && r.step === 'done').length === count ? rows : undefined;
    },
    60_000,
    `${count} completed documents of ${shop}`,
  );
}

/** `0002-001 01 pruebas` → its numbers, for every series the rows hold. */
function numbersBySeries(rows: readonly DocumentRow[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const r of rows) (out[`${r.branchCode}-${r.billingPoint} ${r.documentType} ${r.environment}`] ??= []).push(r.fiscalNumber!);
  for (const list of Object.values(out)) list.sort((a, b) => a - b);
  return out;
}

/** The admin API as the page calls it, with a session token of `shop`. */
async function api(h: Harness, shop: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const token = await h.simulator.sessionToken(shop, { userId: 4242 });
  const res = await fetch(`${h.app.url}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe.each(testDatabases)('number series over HTTP on $name', (target) => {
  const run = harnessFor(target);

  it('two mapped locations and the online store: three series, each 1, 2, 3 in its branch and point; a POS refund in its', async () => {
    const { h, database } = run;
    await h.installShop(STORES, {
      locations: { [COLON]: { branchCode: '0002', billingPoint: '001' }, [DAVID]: { branchCode: '0003', billingPoint: '002' } },
    });
    const where = [COLON, DAVID, null];
    for (let i = 0; i < 9; i++) {
      const order = { ...makePaidOrder({ id: 7_200_000_000_000 + i }), location_id: where[i % 3] };
      expect((await h.simulator.orderPaid(STORES, order, h.webhookAddress)).status).toBe(200);
    }
    const rows = await completed(database, STORES, 9);
    expect(numbersBySeries(rows)).toEqual({
      '0002-001 01 pruebas': [1, 2, 3],
      '0003-002 01 pruebas': [1, 2, 3],
      '0000-001 01 pruebas': [1, 2, 3],
    });
    // The gateway holds them so, and each order's fiscal_number names its branch and point.
    const issued = h.sandbox.gateway.documents().filter((d) => d.company === STORES);
    expect(issued.map((d) => `${d.codeBranchIssuer}-${d.pointBillingFiscal}-${d.numberDocumentFiscal}`).sort()).toEqual(
      ['0000-001', '0002-001', '0003-002'].flatMap((p) => [1, 2, 3].map((n) => `${p}-000000000${n}`)),
    );
    const first = rows.find((r) => r.orderGid === 'gid://shopify/Order/7200000000001')!;
    const fields = Object.fromEntries(h.simulator.metafields(first.orderGid, STORES).map((m) => [m.key, m.value]));
    // David's three orders are issued concurrently, so which takes 1 may vary: the metafield names the row's own number.
    expect(first.fiscalNumber).toBeGreaterThanOrEqual(1);
    expect(fields.fiscal_number).toBe(`0003-002-${String(first.fiscalNumber).padStart(10, '0')}`);

    // A refund of one shirt of David's second order: note 1 of type 04 in 0003-002.
    const posOrder = 'gid://shopify/Order/7200000000004';
    await h.simulator.refund(
      STORES,
      posOrder,
      { lines: [{ lineItemId: 720_000_000_000_400, quantity: 1 }] },
      `${h.app.url}/webhooks/refunds/create`,
    );
    const withNote = await completed(database, STORES, 10);
    const note = withNote.find((r) => r.kind === 'credit_note')!;
    expect(note).toMatchObject({ branchCode: '0003', billingPoint: '002', documentType: '04', fiscalNumber: 1, environment: 'pruebas' });
    expect(note.invoiceId).toBe(withNote.find((r) => r.orderGid === posOrder && r.kind === 'invoice')!.id);
    const notes = JSON.parse(Object.fromEntries(h.simulator.metafields(posOrder, STORES).map((m) => [m.key, m.value])).credit_notes!);
    expect(notes.map((n: { fiscal_number: string }) => n.fiscal_number)).toEqual(['0003-002-0000000001']);
    const issuedNote = h.sandbox.gateway.documents().find((d) => d.cufe === note.cufe)!;
    expect([issuedNote.codeBranchIssuer, issuedNote.pointBillingFiscal, issuedNote.typeDocument]).toEqual(['0003', '002', '04']);

    // Four series now; the admin API lists them.
    const listed = await api(h, STORES, '/series');
    expect(listed.status).toBe(200);
    expect(
      (
        listed.json.series as { branchCode: string; billingPoint: string; documentType: string; lastUsed: number; nextNumber: number }[]
      ).map((s) => [s.branchCode, s.billingPoint, s.documentType, s.lastUsed, s.nextNumber]),
    ).toEqual([
      ['0000', '001', '01', 3, 4],
      ['0002', '001', '01', 3, 4],
      ['0003', '002', '01', 3, 4],
      ['0003', '002', '04', 1, 2],
    ]);
  });

  it('3 test invoices, then production: the first production invoice is 1; set-next moves it, and not below', async () => {
    const { h, database } = run;
    await h.installShop(SWITCH);
    for (let i = 0; i < 3; i++) await h.simulator.orderPaid(SWITCH, makePaidOrder({ id: 7_300_000_000_000 + i }), h.webhookAddress);
    await completed(database, SWITCH, 3);
    const current = (await h.app.shops.get(SWITCH))!;
    expect((await h.app.shops.saveSettings(SWITCH, { ...current.settings, environment: 'produccion' })).ok).toBe(true);
    await h.simulator.orderPaid(SWITCH, makePaidOrder({ id: 7_300_000_000_010 }), h.webhookAddress);
    let rows = await completed(database, SWITCH, 4);
    expect(numbersBySeries(rows)).toEqual({ '0000-001 01 pruebas': [1, 2, 3], '0000-001 01 produccion': [1] });
    const production = h.sandbox.gateway.documents().filter((d) => d.company === SWITCH && d.environment === '1');
    expect(production.map((d) => d.numberDocumentFiscal)).toEqual(['0000000001']);

    // Continuing from another system's numbers: set-next 1001 from Configuración, recorded with who.
    const key = { environment: 'produccion', branchCode: '0000', billingPoint: '001', documentType: '01' };
    const moved = await api(h, SWITCH, '/series/next', { ...key, next: 1001 });
    expect(moved.status).toBe(200);
    expect(moved.json.outcome).toEqual({ kind: 'set', from: 2, to: 1001 });
    await h.simulator.orderPaid(SWITCH, makePaidOrder({ id: 7_300_000_000_011 }), h.webhookAddress);
    rows = await completed(database, SWITCH, 5);
    expect(numbersBySeries(rows)['0000-001 01 produccion']).toEqual([1, 1001]);

    // Below (or at) the last number used: refused, nothing changed.
    const before = {
      sequences: await database.db.select().from(fiscalSequences).where(eq(fiscalSequences.shop, SWITCH)),
      changes: await database.db.select().from(fiscalSeriesChanges).where(eq(fiscalSeriesChanges.shop, SWITCH)),
    };
    const refused = await api(h, SWITCH, '/series/next', { ...key, next: 1001 });
    expect(refused).toEqual({
      status: 409,
      json: {
        error: 'refused, nothing changed: 1001 is at or below 1001, a number already used (the series continues at 1002)',
        code: 'series_next_refused',
        refusal: { kind: 'refused', next: 1001, lastUsed: 1001, lastReserved: 1001, nextNumber: 1002 },
      },
    });
    expect((await api(h, SWITCH, '/series/next', { ...key, next: 500 })).status).toBe(409);
    expect({
      sequences: await database.db.select().from(fiscalSequences).where(eq(fiscalSequences.shop, SWITCH)),
      changes: await database.db.select().from(fiscalSeriesChanges).where(eq(fiscalSeriesChanges.shop, SWITCH)),
    }).toEqual(before);
    expect(before.changes.map((c) => [c.environment, c.kind, c.fromNext, c.toNext, c.changedBy])).toEqual([
      ['produccion', 'set_next', 2, 1001, 'admin:4242'],
    ]);
    // The test series went on untouched.
    const [testSeries] = await database.db
      .select()
      .from(fiscalSequences)
      .where(and(eq(fiscalSequences.shop, SWITCH), eq(fiscalSequences.environment, 'pruebas')));
    expect(testSeries?.nextNumber).toBe(4);
  });
});
