// The accountant's month's totals (report_month_totals, kept by triggers on documents: drizzle/0013) equal what the
// stored documents say, read as the sales book reads them (documentAmounts), after every kind of statement: documents
// inserted authorized, authorized later, touched without moving, moved to another month, un-authorized, deleted; and
// on PostgreSQL while many connections authorize at once, some rolling back. A document the database cannot read
// never stops its authorization: it is counted unreadable and the report stops with an error.
import { TransactionRollbackError, eq, inArray, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents, reportMonthTotals } from '../../../src/db/schema.ts';
import type { Db } from '../../../src/db/database.ts';
import { UnreadableDocumentError, documentAmounts } from '../../../src/reports/document-amounts.ts';
import { readMonthFigures } from '../../../src/reports/month-report.ts';
import { monthBounds, panamaMonthOf } from '../../../src/reports/report-month.ts';
import { mulberry32 } from '../../../src/seeded-random.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { databaseForBlock } from '../../support/database-block.ts';
import { invoiceRow } from '../../support/documents.ts';

const SHOP = 'contable.myshopify.com';
const OTHER = 'otra.myshopify.com';
const dec = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** A stored gateway document with these items (rate code, base cents, ITBMS cents); its total their sum. */
function gatewayDocument(items: readonly [string, number, number][], type = '01'): Record<string, unknown> {
  const total = items.reduce((t, [, b, i]) => t + b + i, 0);
  return {
    dataTransaction: { typeDocument: type, client: { typeClientEB: '02', businessName: 'Cliente' } },
    listItems: items.map(([rateITBMS, b, i]) => ({ rateITBMS, priceItem: dec(b), valueITBMS: dec(i) })),
    totalsSubTotals: { totalInvoice: dec(total) },
  };
}

let sequence = 0;
/** A pending document row of the shop (not authorized yet). */
function pending(shop = SHOP, type: '01' | '04' = '01') {
  const n = ++sequence;
  return invoiceRow({
    shop,
    kind: type === '04' ? 'credit_note' : 'invoice',
    documentType: type,
    orderGid: `gid://shopify/Order/${n}`,
    orderName: `#${n}`,
    totalCents: 0,
    currency: 'USD',
    snapshot: {},
  });
}

/** What authorizing stores: the number, the document sent, the CUFE and the time. */
function authorized(number: number, at: Date, items: readonly [string, number, number][], environment = 'produccion', type = '01') {
  return {
    status: 'completed' as const,
    environment,
    branchCode: '0000',
    billingPoint: '001',
    fiscalNumber: number,
    document: gatewayDocument(items, type),
    cufe: `FE${type}${environment}${String(number).padStart(20, '0')}`,
    authorizedAt: at,
  };
}

/** The totals as the documents state them, computed here from every row (the oracle). */
async function expected(db: Db): Promise<string[]> {
  const rows = await db.select().from(documents);
  const byKey = new Map<string, { n: number; total: number; sums: number[]; first: number; last: number }>();
  for (const r of rows) {
    if (!r.environment || !r.cufe || !r.authorizedAt || r.fiscalNumber === null) continue;
    const key = [r.shop, r.environment, panamaMonthOf(r.authorizedAt).month, r.branchCode, r.billingPoint, r.documentType].join(' ');
    const a = documentAmounts(r.document);
    const t = byKey.get(key) ?? { n: 0, total: 0, sums: [0, 0, 0, 0, 0, 0, 0, 0], first: Infinity, last: 0 };
    t.n++;
    t.total += a.totalCents;
    ([0, 7, 10, 15] as const).forEach((rate, i) => {
      t.sums[2 * i]! += a.byRate[rate].baseCents;
      t.sums[2 * i + 1]! += a.byRate[rate].itbmsCents;
    });
    t.first = Math.min(t.first, r.fiscalNumber);
    t.last = Math.max(t.last, r.fiscalNumber);
    byKey.set(key, t);
  }
  return [...byKey].map(([k, t]) => `${k} n=${t.n} total=${t.total} [${t.sums.join(',')}] ${t.first}-${t.last} unreadable=0`).sort();
}

async function kept(db: Db): Promise<string[]> {
  const rows = await db.select().from(reportMonthTotals);
  return rows
    .map((r) => {
      const key = [r.shop, r.environment, r.month, r.branchCode, r.billingPoint, r.documentType].join(' ');
      const sums = [r.base0Cents, r.itbms0Cents, r.base7Cents, r.itbms7Cents, r.base10Cents, r.itbms10Cents, r.base15Cents, r.itbms15Cents];
      return `${key} n=${r.documents} total=${r.totalCents} [${sums.join(',')}] ${r.firstNumber}-${r.lastNumber} unreadable=${r.unreadable}`;
    })
    .sort();
}

const NOV = (day: number, hour = 12) => new Date(Date.UTC(2026, 10, day, hour));

describe.each(testDatabases)('the month totals on $name', (target) => {
  const run = databaseForBlock(target, [documents]);

  it('follow every kind of statement, to the cent', async () => {
    const db = run.database.db;
    const ids = (
      await db
        .insert(documents)
        .values([pending(), pending(), pending(), pending(), pending(OTHER)])
        .returning()
    ).map((r) => r.id);
    expect(await kept(db)).toEqual([]);

    // Authorized one by one, as the worker stores a CUFE; 23:30 on 30 November in Panamá is still November.
    await db
      .update(documents)
      .set(
        authorized(1, NOV(2), [
          ['01', 1000, 70],
          ['00', 300, 0],
        ]),
      )
      .where(eq(documents.id, ids[0]!));
    await db
      .update(documents)
      .set(authorized(2, NOV(30, 23) /* 18:00 Panamá */, [['03', 2000, 300]]))
      .where(eq(documents.id, ids[1]!));
    await db
      .update(documents)
      .set(authorized(3, new Date(Date.UTC(2026, 11, 1, 4, 30)), [['02', 999, 100]]))
      .where(eq(documents.id, ids[2]!));
    await db
      .update(documents)
      .set(authorized(1, NOV(3), [['01', 500, 35]], 'pruebas'))
      .where(eq(documents.id, ids[3]!));
    await db
      .update(documents)
      .set(authorized(1, NOV(4), [['01', 100, 7]]))
      .where(eq(documents.id, ids[4]!));
    expect(await kept(db)).toEqual(await expected(db));
    expect(await kept(db)).toContain(
      'contable.myshopify.com produccion 2026-11 0000 001 01 n=3 total=4769 [300,0,1000,70,999,100,2000,300] 1-3 unreadable=0',
    );

    // Inserted authorized (a credit note), then statements that move nothing the month counts.
    const [note] = await db
      .insert(documents)
      .values({ ...pending(SHOP, '04'), ...authorized(1, NOV(10), [['01', 200, 14]], 'produccion', '04') })
      .returning();
    await db
      .update(documents)
      .set({ writtenBackAt: NOV(11), attempts: 3 })
      .where(inArray(documents.id, [...ids, note!.id]));
    expect(await kept(db)).toEqual(await expected(db));

    // Moved to October (its time corrected), its document replaced, one un-authorized, two deleted.
    await db
      .update(documents)
      .set({ authorizedAt: new Date(Date.UTC(2026, 9, 31, 12)) })
      .where(eq(documents.id, ids[0]!));
    await db
      .update(documents)
      .set({ document: gatewayDocument([['03', 2100, 315]]) })
      .where(eq(documents.id, ids[1]!));
    await db.update(documents).set({ cufe: null, authorizedAt: null }).where(eq(documents.id, ids[2]!));
    expect(await kept(db)).toEqual(await expected(db));
    expect(await kept(db)).toContain(
      'contable.myshopify.com produccion 2026-11 0000 001 01 n=1 total=2415 [0,0,0,0,0,0,2100,315] 2-2 unreadable=0',
    );
    await db.delete(documents).where(inArray(documents.id, [ids[1]!, note!.id]));
    expect(await kept(db)).toEqual(await expected(db));
    await db.delete(documents).where(eq(documents.shop, SHOP));
    expect(await kept(db)).toEqual(await expected(db));
    expect(await kept(db)).toEqual([
      'otra.myshopify.com produccion 2026-11 0000 001 01 n=1 total=107 [0,0,100,7,0,0,0,0] 1-1 unreadable=0',
    ]);
  });

  it('count what they cannot read, and the report then stops instead of guessing', async () => {
    const db = run.database.db;
    const ids = (await db.insert(documents).values([pending(), pending(), pending(), pending()]).returning()).map((r) => r.id);
    const unreadable: unknown[] = [
      gatewayDocument([['07', 100, 7]]),
      { ...gatewayDocument([['01', 100, 7]]), totalsSubTotals: { totalInvoice: '1.075' } },
      { listItems: [{ rateITBMS: '01', priceItem: 1, valueITBMS: '0.07' }], totalsSubTotals: { totalInvoice: '99999999999999999999.00' } },
    ];
    for (const [i, document] of unreadable.entries())
      await db
        .update(documents)
        .set({ ...authorized(i + 1, NOV(5), []), document })
        .where(eq(documents.id, ids[i]!));
    await db
      .update(documents)
      .set({ ...authorized(4, NOV(5), [['01', 100, 7]]), document: null })
      .where(eq(documents.id, ids[3]!));
    const [row] = await db.select().from(reportMonthTotals);
    expect([row!.documents, row!.unreadable, row!.base7Cents, row!.itbms7Cents]).toEqual([4, 5, 100, 14]);
    for (const document of unreadable) expect(() => documentAmounts(document)).toThrow(UnreadableDocumentError);
    const q = { shop: SHOP, month: monthBounds(2026, 11), environment: 'produccion' as const };
    await expect(readMonthFigures(db, q)).rejects.toThrow(UnreadableDocumentError);
  });

  it.skipIf(target.name !== 'postgres')('stay exact while many connections authorize at once, some rolling back', async () => {
    const db = run.database.db;
    const rows = await db
      .insert(documents)
      .values(Array.from({ length: 240 }, () => pending()))
      .returning({ id: documents.id });
    const random = mulberry32(28);
    const plans = rows.map((r, i) => ({
      id: r.id,
      at: NOV(1 + (i % 28), i % 24),
      items: [
        ['01', 100 + Math.floor(random() * 9000), Math.floor(random() * 700)],
        ['00', Math.floor(random() * 500), 0],
      ] as [string, number, number][],
      rollback: i % 7 === 0,
    }));
    // Eight writers, each authorizing its share two documents a transaction, in an order of its own.
    const writers = Array.from({ length: 8 }, (_, w) => plans.filter((_, i) => i % 8 === w).reverse());
    const batches = writers.map((mine) => Array.from({ length: Math.ceil(mine.length / 2) }, (_, b) => mine.slice(2 * b, 2 * b + 2)));
    await Promise.all(
      batches.map(async (mine) => {
        for (const batch of mine) {
          await db
            .transaction(async (tx) => {
              for (const p of batch)
                await tx
                  .update(documents)
                  .set(authorized(plans.indexOf(p) + 1, p.at, p.items))
                  .where(eq(documents.id, p.id));
              if (batch[0]!.rollback) tx.rollback();
            })
            .catch((e: unknown) => {
              if (!(e instanceof TransactionRollbackError)) throw e;
            });
        }
      }),
    );
    const committed = batches
      .flat()
      .filter((b) => !b[0]!.rollback)
      .flat().length;
    expect(await db.$count(documents, isNotNull(documents.cufe))).toBe(committed);
    expect(await kept(db)).toEqual(await expected(db));
  });
});
