// Prometheus metrics through prom-client: counters and a histogram fed in-process, and values read when scraped
// (from the database), whose failed reads leave their metric empty and are counted instead of failing the scrape.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GatewayCallRecord } from './gateway/gateway-client.ts';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}
type Read = () => Promise<Sample[]> | Sample[];

/** Gateway time-out defaults to 30 s: the top buckets tell slow answers from time-outs. */
const GATEWAY_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** A prom-client registry whose `metrics()` first reads the values kept elsewhere (the database). */
export class MetricsRegistry extends Registry {
  private readonly reads: Array<() => Promise<void>> = [];
  private readonly failures = new Gauge({
    name: 'fe_scrape_collect_failures',
    help: 'Metrics that could not be read in this scrape (their samples are missing).',
    registers: [this],
  });

  /** A gauge read at scrape time; when `read` throws, the gauge has no samples in that scrape. */
  collectedGauge(name: string, help: string, labelNames: readonly string[], read: Read): void {
    const gauge = new Gauge({ name, help, labelNames, registers: [this] });
    this.collected(gauge, read, (s) => gauge.set(s.labels, s.value));
  }

  /** A counter kept elsewhere (e.g. rows in a table), read at scrape time like `collectedGauge`. */
  collectedCounter(name: string, help: string, labelNames: readonly string[], read: Read): void {
    const counter = new Counter({ name, help, labelNames, registers: [this] });
    this.collected(counter, read, (s) => counter.inc(s.labels, s.value));
  }

  /** The exposition, after every read of this scrape has answered or failed. */
  override async metrics(): Promise<string> {
    const outcomes = await Promise.allSettled(this.reads.map((read) => read()));
    this.failures.set(outcomes.filter((o) => o.status === 'rejected').length);
    return super.metrics();
  }

  private collected(metric: Gauge | Counter, read: Read, write: (sample: Sample) => void): void {
    this.reads.push(async () => {
      let samples: Sample[] = [];
      try {
        samples = await read();
      } finally {
        // Also after a failed read: one failing source (the database) leaves its metrics empty, not stale, and
        // does not hide the in-process ones. reset() leaves an unlabelled metric at 0: unread is absent, not 0.
        metric.reset();
        metric.remove({});
        samples.forEach(write);
      }
    });
  }
}

/** The app's in-process metrics: what the worker and the sweep report. Database-derived ones are added by the HTTP routes. */
export interface AppMetrics {
  registry: MetricsRegistry;
  recordGatewayCall(call: Pick<GatewayCallRecord, 'operation' | 'outcome' | 'code' | 'durationMs'>): void;
  recordSweep(summary: { enqueued: number; failedShops: number }): void;
}

/**
 * Node's default process metrics (collectDefaultMetrics) are left out: each registry would start a GC observer
 * and an event-loop timer that cannot be stopped, and the app builds one registry per instance.
 */
export function createAppMetrics(registry = new MetricsRegistry()): AppMetrics {
  const registers = [registry];
  const gatewayCalls = new Counter({
    name: 'fe_gateway_calls_total',
    help: 'Gateway calls made by this process, by operation, outcome and gateway code ("" when there was no answer).',
    labelNames: ['operation', 'outcome', 'code'],
    registers,
  });
  const gatewayDuration = new Histogram({
    name: 'fe_gateway_call_duration_seconds',
    help: 'Gateway call duration in seconds, by operation.',
    labelNames: ['operation'],
    buckets: GATEWAY_DURATION_BUCKETS,
    registers,
  });
  // Unlabelled counters start at 0, so a rate() has a first point before the first sweep.
  const sweepRuns = new Counter({ name: 'fe_sweep_runs_total', help: 'Reconciliation sweeps run by this process.', registers });
  const sweepEnqueued = new Counter({
    name: 'fe_sweep_enqueued_total',
    help: 'Paid orders without an invoice that the sweep enqueued (webhooks never delivered).',
    registers,
  });
  const sweepShopFailures = new Counter({
    name: 'fe_sweep_shop_failures_total',
    help: 'Shops a sweep could not finish (Shopify unavailable, no access); retried at the next sweep.',
    registers,
  });
  return {
    registry,
    recordGatewayCall(call) {
      gatewayCalls.inc({ operation: call.operation, outcome: call.outcome, code: call.code ?? '' });
      gatewayDuration.observe({ operation: call.operation }, call.durationMs / 1000);
    },
    recordSweep({ enqueued, failedShops }) {
      sweepRuns.inc();
      sweepEnqueued.inc(enqueued);
      sweepShopFailures.inc(failedShops);
    },
  };
}
