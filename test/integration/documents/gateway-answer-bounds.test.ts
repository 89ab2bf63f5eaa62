// Answers that trickle, stall or never end, from the gateway and from Shopify: each call ends at its deadline, the
// slot is freed, invoicing goes on, and every order is issued once with contiguous numbers (issue 25, items 1–2).
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { faultHarnessFor } from '../../support/fault-harness.ts';

const MiB = 1024 * 1024;

describe.each(testDatabases)('bounded gateway and Shopify answers on $name', (target) => {
  const run = faultHarnessFor(target, () => ({
    gatewayTimeoutMs: 1000,
    env: {
      GATEWAY_CONCURRENCY: '3',
      SHOPIFY_TIMEOUT_MS: '1000',
      GATEWAY_MAX_PDF_BYTES: String(MiB),
      WORKER_MAX_ATTEMPTS: '8',
    },
  }));

  it('trickling and stalled SendDocument bodies end at the deadline; other orders are authorized meanwhile', async () => {
    const shop = await run.shop();
    run.gateway.setRules([
      { operation: 'SendDocument', fault: { kind: 'trickle' }, times: 1 },
      { operation: 'SendDocument', fault: { kind: 'stall' }, times: 1 },
    ]);
    const orders = [];
    for (let i = 0; i < 5; i++) orders.push(await run.pay(shop));
    const rows = await Promise.all(orders.map((gid) => run.until(gid, ['completed'])));
    // Every order once, numbers 1..5 without a gap.
    expect(rows.map((r) => r.fiscalNumber).sort()).toEqual([1, 2, 3, 4, 5]);
    const slow = [];
    for (const row of rows) {
      const calls = await run.callRows(row.id);
      if (calls.some((c) => c.outcome === 'indeterminate')) slow.push({ row, calls });
    }
    expect(slow).toHaveLength(2);
    for (const { row, calls } of slow) {
      expect(calls[0]).toMatchObject({ operation: 'SendDocument', outcome: 'indeterminate', message: 'no answer within the time-out' });
      // The gateway had issued it: the next attempt found it (102, StatusDocument, its PDF) and kept its number.
      expect(calls.map((c) => `${c.operation}:${c.outcome}`)).toContain('StatusDocument:authorized');
      expect(row.cufe).toMatch(/^FE01/);
    }
    // The trickled answers were cut off at the deadline, well before their last byte (a byte a second).
    for (const { calls } of slow) expect(calls[0]!.durationMs).toBeLessThan(10_000);
  });

  it('a 3 GB PDF answer and a 300 MB SendDocument answer are dropped while they stream; RSS stays near its baseline', async () => {
    const shop = await run.shop();
    run.gateway.setRules([
      { operation: 'SendDocument', fault: { kind: 'huge', bytes: 300 * MiB, shape: 'message' }, times: 1 },
      { operation: 'DownloadPDF', fault: { kind: 'huge', bytes: 3 * 1024 * MiB }, times: 2 },
    ]);
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const gid = await run.pay(shop);
      const row = await run.until(gid, ['completed']);
      const calls = await run.callRows(row.id);
      expect(calls.map((c) => `${c.operation}:${c.outcome}`)).toEqual(
        expect.arrayContaining(['SendDocument:indeterminate', 'DownloadPDF:unavailable', 'DownloadPDF:pdf']),
      );
      expect(calls.find((c) => c.outcome === 'indeterminate')?.message).toBe(`the answer is larger than ${256 * 1024} bytes`);
      // What the audit keeps is small whatever came.
      for (const c of calls) expect(JSON.stringify(c.response ?? '').length).toBeLessThan(4096);
    } finally {
      clearInterval(sampler);
    }
    expect((peak - baseline) / MiB).toBeLessThan(100);
    expect(run.gateway.openAnswers()).toBe(0);
  });

  it("Shopify's metafieldsSet answer trickling ends at SHOPIFY_TIMEOUT_MS and is retried", async () => {
    const shop = await run.shop();
    run.admin.setRules([{ bodyContains: 'metafieldsSet', fault: { kind: 'trickle', tickMs: 200 }, times: 1 }]);
    const gid = await run.pay(shop);
    const row = await run.until(gid, ['completed']);
    expect(row.writtenBackAt).not.toBeNull();
    expect(run.admin.requests.filter((r) => r.fault === 'trickle')).toHaveLength(1);
    expect(run.h.simulator.metafields(gid).map((m) => m.key)).toContain('cufe');
  });
});
