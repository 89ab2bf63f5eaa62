// A document is saved as sending before it waits for a gateway slot, so a slot's time is the call's alone. When the
// wait ate into the lease (a gateway slow for everyone), the lease is renewed before the call, so it covers the call.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { documents } from '../../../src/db/schema.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-ranura.myshopify.com';
const LEASE_MS = 2_000;
/** Longer than a quarter of the lease: the wait after which the lease is renewed before the call. */
const SLOT_WAIT_MS = 900;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(testDatabases)('a document waiting for a gateway slot, on $name', (target) => {
  const run = harnessFor(target, () => ({
    env: { WORKER_LEASE_MS: String(LEASE_MS), GATEWAY_CONCURRENCY: '1' },
    gatewayTimeoutMs: 1_000,
    // Each call takes 400 ms, long enough to read the lease while SendDocument is in flight.
    sandbox: { faults: { latencyMs: 400 } },
  }));
  beforeAll(() => run.h.installShop(SHOP));

  const row = async (gid: string) => (await run.database.db.select().from(documents).where(eq(documents.orderGid, gid)))[0];

  it('is saved as sending before the slot, waits, and has its lease renewed before SendDocument', async () => {
    const { h } = run;
    let release!: () => void;
    const busy = h.app.worker.gatewaySlots.run(() => new Promise<void>((r) => (release = r)));
    // However the test ends, the slot is given back: the app's close waits for the documents in hand.
    onTestFinished(() => release());
    const gid = 'gid://shopify/Order/5900000000301';
    expect((await h.simulator.orderPaid(SHOP, makePaidOrder({ id: 5_900_000_000_301 }), h.webhookAddress)).status).toBe(200);

    const marked = await waitFor(
      async () => {
        const r = await row(gid);
        return r?.sendMayHaveReached ? r : undefined;
      },
      10_000,
      'the invoice to be saved as sending',
    );
    expect(marked).toMatchObject({ status: 'pending', step: 'send', fiscalNumber: 1, leaseOwner: expect.any(String) });
    await sleep(SLOT_WAIT_MS);
    // Waiting: nothing sent, the lease as it was saved.
    expect(h.sandbox.gateway.stats().requests.SendDocument).toBe(0);
    expect((await row(gid))!.leaseUntil).toEqual(marked.leaseUntil);

    release();
    await busy;
    const renewed = await waitFor(
      async () => {
        const r = await row(gid);
        return r && r.leaseUntil && r.leaseUntil > marked.leaseUntil! ? r : undefined;
      },
      5_000,
      'the lease to be renewed',
    );
    // Renewed once the slot came, a whole lease from then: later than the first by at least the wait.
    expect(renewed.leaseUntil!.getTime() - marked.leaseUntil!.getTime()).toBeGreaterThanOrEqual(SLOT_WAIT_MS);
    expect(renewed.cufe).toBeNull();

    const done = await waitFor(
      async () => {
        const r = await row(gid);
        return r?.status === 'completed' ? r : undefined;
      },
      10_000,
      'the invoice to complete',
    );
    expect(done.fiscalNumber).toBe(1);
    expect(h.sandbox.gateway.stats().requests.SendDocument).toBe(1);
    expect(h.sandbox.gateway.documents()).toHaveLength(1);
  });
});
