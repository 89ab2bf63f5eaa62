// The documents store's claims, leases and lease-guarded writes (src/documents/store/), on PGlite and PostgreSQL.
// Only these tests use enabled shops, and disable them when done, so no claim takes another test's rows.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, rowsOf } from '../../../src/db/database.ts';
import { documents, shops } from '../../../src/db/schema.ts';
import {
  claimDue,
  discardLeased,
  finishLeased,
  queueStats,
  recordGatewayCalls,
  releaseLease,
  updateLeased,
} from '../../../src/documents/store/index.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { addShop, callRecord, callsOf, leasedTo, put, reread, secondsFromNow, uniqueShop } from '../../support/document-store-seeds.ts';
import { OWNER, OTHER, LEASE_MS, numbering } from '../../support/document-store-seeds.ts';

describe.each(testDatabases)('documents store on $name', (target) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await target.open();
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
  });

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  describe('claims and leases', () => {
    const enabled: string[] = [];
    const claimableShop = async (label: string) => {
      const shop = await addShop(db, label, { enabled: true });
      enabled.push(shop);
      return shop;
    };
    // Shops at their limit in this process: held as many as the limit allows.
    const claim = (owner: string, limit = 100, fullShops: string[] = []) =>
      claimDue(db, { owner, limit, leaseMs: LEASE_MS, shopLimit: 100, held: new Map(fullShops.map((s) => [s, 100])) });
    afterEach(async () => {
      // Leave nothing claimable behind for the next test.
      if (enabled.length > 0)
        await db
          .update(shops)
          .set({ enabled: false })
          .where(inArray(shops.shop, enabled.splice(0)));
    });

    it('two owners claiming at once never get the same row, and together get every due row', async () => {
      const shop = await claimableShop('claim');
      const rows = await Promise.all(Array.from({ length: 20 }, () => put(db, shop)));
      const [a, b] = await Promise.all([claim(OWNER, 15), claim(OTHER, 15)]);
      expect(a!.length + b!.length).toBe(20);
      expect(new Set([...ids(a!), ...ids(b!)])).toEqual(new Set(ids(rows)));
      expect(a!.every((r) => r.leaseOwner === OWNER) && b!.every((r) => r.leaseOwner === OTHER)).toBe(true);
      const stored = await db.select().from(documents).where(eq(documents.shop, shop));
      expect(stored.filter((r) => r.leaseOwner === OWNER).length).toBe(a!.length);
      // Leased for LEASE_MS by the database's clock.
      const [lease] = rowsOf<{ ms: number }>(
        await db.execute(sql`select extract(epoch from (lease_until - now())) * 1000 as ms from ${documents} where id = ${rows[0]!.id}`),
      );
      expect(Number(lease!.ms)).toBeGreaterThan(LEASE_MS - 5_000);
      expect(Number(lease!.ms)).toBeLessThanOrEqual(LEASE_MS);
      expect(await claim('worker-c')).toEqual([]);
    });

    it('an expired lease (a crashed worker) is claimable again; a live one is not', async () => {
      const shop = await claimableShop('expired');
      const expired = await put(db, shop, { leaseOwner: 'crashed', leaseUntil: secondsFromNow(-1) });
      await put(db, shop, leasedTo(OWNER));
      expect(ids(await claim(OTHER))).toEqual([expired.id]);
    });

    it('only enabled, installed, unpaused shops are claimed from', async () => {
      const ok = await claimableShop('ok');
      const disabled = await addShop(db, 'disabled', { enabled: false });
      const uninstalled = await addShop(db, 'uninstalled', { enabled: true, installed: false });
      const paused = await addShop(db, 'paused', { enabled: true, paused: true });
      enabled.push(uninstalled, paused);
      const mine = await put(db, ok);
      for (const shop of [disabled, uninstalled, paused, uniqueShop('unknown')]) await put(db, shop);
      expect(ids(await claim(OWNER))).toEqual([mine.id]);
    });

    it('pending and waiting rows when due, oldest first; never before their time, never a person’s or finished ones', async () => {
      const shop = await claimableShop('due');
      const waiting = await put(db, shop, { status: 'waiting', nextAttemptAt: secondsFromNow(-120) });
      const pending = await put(db, shop, { status: 'pending', nextAttemptAt: secondsFromNow(-60) });
      await put(db, shop, { status: 'pending', nextAttemptAt: secondsFromNow(3600) });
      await put(db, shop, { status: 'waiting', nextAttemptAt: secondsFromNow(3600) });
      for (const status of ['needs_attention', 'failed', 'completed', 'skipped'] as const)
        await put(db, shop, { status, nextAttemptAt: secondsFromNow(-600) });
      const stats = await queueStats(db);
      expect(stats.due).toBe(2);
      expect(stats.oldestDueAgeSeconds).toBeGreaterThanOrEqual(120);
      expect(stats.oldestDueAgeSeconds).toBeLessThan(130);
      expect(await claim(OWNER, 10, [shop])).toEqual([]);
      expect(ids(await claim(OWNER, 1))).toEqual([waiting.id]);
      expect(ids(await claim(OWNER, 10))).toEqual([pending.id]);
    });

    it('a released lease is claimable at once; only its holder can release it', async () => {
      const shop = await claimableShop('release');
      const row = await put(db, shop, leasedTo(OWNER));
      await releaseLease(db, row.id, OTHER);
      expect((await reread(db, row.id))?.leaseOwner).toBe(OWNER);
      await releaseLease(db, row.id, OWNER);
      expect(await reread(db, row.id)).toMatchObject({ leaseOwner: null, leaseUntil: null });
      expect(ids(await claim(OTHER))).toEqual([row.id]);
    });
  });

  describe('lease-guarded writes', () => {
    it('update: the holder’s patch is written and returned; a lost lease writes nothing', async () => {
      const shop = await addShop(db, 'update');
      const row = await put(db, shop, leasedTo(OWNER));
      const notice = { key: 'recovered_after_lost_answer', params: { number: '0000-001-0000000042' } };
      // A key set to undefined leaves its column as it was.
      const updated = await updateLeased(db, row, OWNER, LEASE_MS, { step: 'pdf', cufe: 'FE01', notice, lastError: undefined });
      const stored = await reread(db, row.id);
      expect(updated).toEqual({ ...row, step: 'pdf', cufe: 'FE01', notice });
      expect(stored).toEqual({ ...updated, leaseUntil: stored!.leaseUntil, updatedAt: stored!.updatedAt });
      expect(await updateLeased(db, stored!, OTHER, LEASE_MS, { step: 'writeback', cufe: 'FE02' })).toBeUndefined();
      expect(await reread(db, row.id)).toEqual(stored);
    });

    it('finish: patch written, lease dropped and the calls logged in one go; a lost lease writes nothing but logs the calls', async () => {
      const shop = await addShop(db, 'finish');
      const row = await put(db, shop, leasedTo(OWNER));
      const send = callRecord('SendDocument');
      expect(
        await finishLeased(db, row.id, OWNER, { status: 'completed', step: 'done' }, { shop, documentId: row.id, records: [send] }),
      ).toBe(true);
      expect(await reread(db, row.id)).toMatchObject({ status: 'completed', step: 'done', leaseOwner: null, leaseUntil: null });
      const log = (r: typeof send) => ({
        documentId: row.id,
        shop,
        operation: r.operation,
        outcome: r.outcome,
        code: null,
        message: r.message,
        durationMs: r.durationMs,
        request: r.request,
        response: r.response,
      });
      expect(await callsOf(db, row.id)).toEqual([log(send)]);

      const other = await put(db, shop, leasedTo(OTHER));
      const pdf = callRecord('DownloadPDF', { outcome: 'not_found', code: '404', message: 'x'.repeat(1500) });
      expect(await finishLeased(db, other.id, OWNER, { status: 'failed' }, { shop, documentId: other.id, records: [pdf] })).toBe(false);
      expect(await reread(db, other.id)).toEqual(other);
      expect(await callsOf(db, other.id)).toEqual([{ ...log(pdf), documentId: other.id, code: '404', message: 'x'.repeat(1000) }]);
      await recordGatewayCalls(db, { shop, documentId: other.id, records: [] });
      expect(await callsOf(db, other.id)).toHaveLength(1);
    });

    it('discard: removes the holder’s document that has no number; a numbered one or a lost lease stays', async () => {
      const shop = await addShop(db, 'discard');
      const foreign = await put(db, shop, leasedTo(OWNER));
      const numbered = await put(db, shop, leasedTo(OWNER, { ...numbering, fiscalNumber: 7 }));
      const taken = await put(db, shop, leasedTo(OTHER));
      expect(await discardLeased(db, foreign, OWNER)).toBe(true);
      expect(await discardLeased(db, numbered, OWNER)).toBe(false);
      expect(await discardLeased(db, taken, OWNER)).toBe(false);
      expect(ids(await db.select().from(documents).where(eq(documents.shop, shop))).sort()).toEqual([numbered.id, taken.id].sort());
    });
  });
});
