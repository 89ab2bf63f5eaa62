// Credit notes end to end: 10,000 refunds of invoiced orders delivered as fast as a burst from Shopify (refunds/create,
// a quarter each full, one unit of a line, the shipping alone, 10.00 goodwill), through the app (its own process) and
// the sandbox gateway (its own process, 200 ms per answer), until every note is written back to its order's
// credit_notes metafield. The 10,000 invoices the notes reference are seeded before the clock starts, authorized and
// completed through the document store's statements (bench/seed-invoices.ts), so the row measures notes only. A
// note makes the same two gateway calls as an invoice (SendDocument, DownloadPDF), so its limit is the same.
//   npm run bench -- notes
import { buildRefundPayload, type RefundRequest } from '../sim/store-simulator/refund-payload.ts';
import type { BenchRow } from './bench-table.ts';
import { findPostgres, int, orderIdBase, paidOrder, percentile } from './bench-support.ts';
import type { Delivery, Traffic } from './pipeline-run.ts';
import { CALLS_PER_INVOICE, CONCURRENCY, LATENCY_MS, MAX_SECONDS, TARGET_SHARE } from './pipeline-run.ts';
import { announceRun, gatewayLimit, runPipeline, timesToInvoice } from './pipeline-run.ts';
import { seedAuthorizedInvoices } from './seed-invoices.ts';

const SHOP = 'tienda-notas-bench.myshopify.com';
const REFUNDS = 10_000;

/** The refund of order `i` (paidOrder's five lines and shipping): full, one unit, the shipping, or an amount. */
function refundRequest(order: Record<string, unknown>, i: number): RefundRequest {
  const lines = order['line_items'] as { id: number; quantity: number }[];
  switch (i % 4) {
    case 0:
      return { lines: lines.map((l) => ({ lineItemId: l.id, quantity: l.quantity })), shipping: 'full' };
    case 1:
      return { lines: [{ lineItemId: lines[0]!.id, quantity: 1, restockType: 'return' }] };
    case 2:
      return { shipping: 'full' };
    default:
      return { amountOnly: { amount: 1000, reason: 'Compensación por demora' } };
  }
}

/** Refunds of orders whose invoices are seeded first; done once the order's credit_notes metafield is written. */
function refunds(deliveries: readonly Delivery[]): Traffic {
  const orders = new Map(deliveries.map((d) => [d.orderId, paidOrder(d.orderId)]));
  const index = new Map(deliveries.map((d, i) => [d.orderId, i]));
  return {
    kind: 'credit_note',
    async prepare(database, { simulator, gatewayUrl, key }) {
      for (const order of orders.values()) simulator.setOrder(SHOP, order);
      const started = performance.now();
      const seeded = await seedAuthorizedInvoices(database, {
        shop: SHOP,
        key,
        gatewayUrl,
        latencyMs: LATENCY_MS,
        orders: [...orders.values()],
      });
      console.log(`notes: ${int(seeded)} authorized invoices seeded in ${((performance.now() - started) / 1000).toFixed(1)} s (not timed)`);
    },
    body: (d) => buildRefundPayload(orders.get(d.orderId)!, [], refundRequest(orders.get(d.orderId)!, index.get(d.orderId)!)),
    send: async (simulator, appUrl, d, refund) =>
      (await simulator.refundCreated(d.shop, refund, `${appUrl}/webhooks/refunds/create`)).status,
    done: (simulator, d) => simulator.metafields(`gid://shopify/Order/${d.orderId}`, d.shop).some((m) => m.key === 'credit_notes'),
  };
}

export async function run(): Promise<BenchRow[]> {
  const postgresUrl = await findPostgres();
  const storage = postgresUrl ? 'PostgreSQL' : 'PGlite';
  const limit = gatewayLimit(CONCURRENCY);
  announceRun('notes', `${int(REFUNDS)} refunds`, storage, CONCURRENCY);
  const base = orderIdBase(920);
  const deliveries = Array.from({ length: REFUNDS }, (_, i) => ({ shop: SHOP, orderId: base + i }));
  const r = await runPipeline({
    postgresUrl,
    shops: [SHOP],
    deliveries,
    concurrency: CONCURRENCY,
    maxSeconds: MAX_SECONDS,
    traffic: refunds(deliveries),
  });
  const perSecond = r.done / r.seconds;
  const complete = r.done === REFUNDS;
  const toNote = timesToInvoice(r.invoices);
  const perNote = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${(ms / r.done).toFixed(1)} ms`);
  // Little's law, as the e2e row: calls in flight on average = notes/s × gateway time per note; out of CONCURRENCY slots.
  const busy = (perSecond * (r.gateway.perInvoice / 1000)) / CONCURRENCY;
  const detail =
    `gateway slots busy ${(busy * 100).toFixed(0)} % of the run; a note's calls took ${Math.round(r.gateway.perInvoice)} ms (nominal ${CALLS_PER_INVOICE * LATENCY_MS} ms); ` +
    `intake done in ${r.intakeSeconds.toFixed(1)} s (${r.non200} not 200); ${int(r.issued)} notes issued for ${int(r.done)} written back, ` +
    `${int(r.sendDocuments - r.issued)} SendDocument repeated; refund → metafield p50 ${(percentile(toNote, 50) / 1000).toFixed(1)} s; ` +
    `CPU per note: app ${perNote(r.cpu.app)}, sandbox gateway ${perNote(r.cpu.sandbox)}, store simulator + bench ${perNote(r.cpu.bench)}`;
  console.log(detail);
  return [
    {
      row: `credit notes (${storage}): notes/s`,
      figure: complete
        ? `${perSecond.toFixed(1)} notes/s (${int(REFUNDS)} refunds in ${r.seconds.toFixed(1)} s)`
        : `${perSecond.toFixed(1)} notes/s; STOPPED after ${r.seconds.toFixed(0)} s with ${int(r.done)} of ${int(REFUNDS)} written back`,
      baseline:
        `limit ${int(limit)}/s = gateway concurrency ${CONCURRENCY} ÷ (${CALLS_PER_INVOICE} gateway calls per note × ${LATENCY_MS} ms); ` +
        `target ≥ ${TARGET_SHARE * 100} %; the ${int(REFUNDS)} invoices seeded as authorized beforehand (not timed)`,
      result: `${((perSecond / limit) * 100).toFixed(1)} % of limit; ${detail}`,
      pass: complete && perSecond >= TARGET_SHARE * limit && r.non200 === 0 && r.issued === r.done,
    },
  ];
}
