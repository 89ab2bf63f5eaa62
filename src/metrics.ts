// A small Prometheus registry (text exposition format 0.0.4), written by hand: counters and histograms
// fed in-process, and metrics read at scrape time (from the database) through collect functions.
import type { GatewayCallRecord } from './gateway/gateway-client.ts';

export type Labels = Record<string, string>;
export interface Sample {
  labels: Labels;
  value: number;
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Gateway time-out defaults to 30 s: the top buckets tell slow answers from time-outs. */
export const GATEWAY_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Kind = 'counter' | 'gauge' | 'histogram';

interface Metric {
  readonly name: string;
  readonly help: string;
  readonly kind: Kind;
  /** Sample lines without HELP/TYPE; a collect function may fail (then the metric has no samples). */
  lines(): Promise<string[]>;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

/** Same labels in any order → same series. */
function seriesKey(labels: Labels): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function checkLabels(metric: string, labels: Labels): void {
  for (const k of Object.keys(labels)) {
    if (!LABEL_NAME.test(k) || k.startsWith('__')) throw new Error(`${metric}: invalid label name ${k}`);
  }
}

export class Counter implements Metric {
  readonly kind = 'counter';
  readonly name: string;
  readonly help: string;
  private readonly series = new Map<string, Sample>();

  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name}: a counter only goes up`);
    checkLabels(this.name, labels);
    const key = seriesKey(labels);
    const current = this.series.get(key);
    if (current) current.value += by;
    else this.series.set(key, { labels: { ...labels }, value: by });
  }

  get(labels: Labels = {}): number {
    return this.series.get(seriesKey(labels))?.value ?? 0;
  }

  async lines(): Promise<string[]> {
    return [...this.series.values()].map((s) => `${this.name}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
}

export class Histogram implements Metric {
  readonly kind = 'histogram';
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();

  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.buckets = [...buckets].sort((a, b) => a - b);
  }

  observe(labels: Labels, value: number): void {
    checkLabels(this.name, labels);
    if ('le' in labels) throw new Error(`${this.name}: "le" is the bucket label`);
    const key = seriesKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    // Buckets are cumulative: a value counts in every bucket whose bound it does not exceed.
    this.buckets.forEach((bound, i) => {
      if (value <= bound) s.counts[i]! += 1;
    });
    s.sum += value;
    s.count += 1;
  }

  async lines(): Promise<string[]> {
    const out: string[] = [];
    for (const s of this.series.values()) {
      this.buckets.forEach((bound, i) =>
        out.push(`${this.name}_bucket${labelText({ ...s.labels, le: formatValue(bound) })} ${s.counts[i]}`),
      );
      out.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${formatValue(s.sum)}`);
      out.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

/** A gauge or counter whose samples are read when scraped (e.g. counted in the database). */
class Collected implements Metric {
  readonly kind: 'counter' | 'gauge';
  readonly name: string;
  readonly help: string;
  private readonly collect: () => Promise<Sample[]> | Sample[];
  private readonly onError: (name: string, error: unknown) => void;

  constructor(
    kind: 'counter' | 'gauge',
    name: string,
    help: string,
    collect: () => Promise<Sample[]> | Sample[],
    onError: (name: string, error: unknown) => void,
  ) {
    this.kind = kind;
    this.name = name;
    this.help = help;
    this.collect = collect;
    this.onError = onError;
  }

  async lines(): Promise<string[]> {
    let samples: Sample[];
    try {
      samples = await this.collect();
    } catch (error) {
      // One failing source (the database) must not hide the in-process metrics.
      this.onError(this.name, error);
      return [];
    }
    return samples.map((s) => {
      checkLabels(this.name, s.labels);
      return `${this.name}${labelText(s.labels)} ${formatValue(s.value)}`;
    });
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();
  private failures: string[] = [];

  counter(name: string, help: string): Counter {
    return this.add(new Counter(name, help));
  }

  histogram(name: string, help: string, buckets: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, buckets));
  }

  /** A gauge read at scrape time; when `collect` throws, the gauge has no samples in that scrape. */
  collectedGauge(name: string, help: string, collect: () => Promise<Sample[]> | Sample[]): void {
    this.add(new Collected('gauge', name, help, collect, (n) => this.failures.push(n)));
  }

  /** A counter kept elsewhere (e.g. rows in a table), read at scrape time. */
  collectedCounter(name: string, help: string, collect: () => Promise<Sample[]> | Sample[]): void {
    this.add(new Collected('counter', name, help, collect, (n) => this.failures.push(n)));
  }

  /** The whole exposition, HELP and TYPE before each metric's samples. */
  async render(): Promise<string> {
    this.failures = [];
    const blocks = await Promise.all(
      [...this.metrics.values()].map(async (m) => [
        `# HELP ${m.name} ${escapeHelp(m.help)}`,
        `# TYPE ${m.name} ${m.kind}`,
        ...(await m.lines()),
      ]),
    );
    const failed = this.failures;
    blocks.push([
      '# HELP fe_scrape_collect_failures Metrics that could not be read in this scrape (their samples are missing).',
      '# TYPE fe_scrape_collect_failures gauge',
      `fe_scrape_collect_failures ${failed.length}`,
    ]);
    return `${blocks.flat().join('\n')}\n`;
  }

  private add<M extends Metric>(metric: M): M {
    if (!METRIC_NAME.test(metric.name)) throw new Error(`invalid metric name ${metric.name}`);
    if (this.metrics.has(metric.name)) throw new Error(`metric ${metric.name} registered twice`);
    this.metrics.set(metric.name, metric);
    return metric;
  }
}

/** The app's in-process metrics: what the worker and the sweep report. Database-derived ones are added by the HTTP routes. */
export interface AppMetrics {
  registry: MetricsRegistry;
  recordGatewayCall(call: Pick<GatewayCallRecord, 'operation' | 'outcome' | 'code' | 'durationMs'>): void;
  recordSweep(summary: { enqueued: number; failedShops: number }): void;
}

export function createAppMetrics(registry = new MetricsRegistry()): AppMetrics {
  const gatewayCalls = registry.counter(
    'fe_gateway_calls_total',
    'Gateway calls made by this process, by operation, outcome and gateway code ("" when there was no answer).',
  );
  const gatewayDuration = registry.histogram(
    'fe_gateway_call_duration_seconds',
    'Gateway call duration in seconds, by operation.',
    GATEWAY_DURATION_BUCKETS,
  );
  const sweepRuns = registry.counter('fe_sweep_runs_total', 'Reconciliation sweeps run by this process.');
  const sweepEnqueued = registry.counter(
    'fe_sweep_enqueued_total',
    'Paid orders without an invoice that the sweep enqueued (webhooks never delivered).',
  );
  const sweepShopFailures = registry.counter(
    'fe_sweep_shop_failures_total',
    'Shops a sweep could not finish (Shopify unavailable, no access); retried at the next sweep.',
  );
  // Unlabelled counters start at 0, so a rate() has a first point before the first sweep.
  for (const c of [sweepRuns, sweepEnqueued, sweepShopFailures]) c.inc({}, 0);
  return {
    registry,
    recordGatewayCall(call) {
      gatewayCalls.inc({ operation: call.operation, outcome: call.outcome, code: call.code ?? '' });
      gatewayDuration.observe({ operation: call.operation }, call.durationMs / 1000);
    },
    recordSweep({ enqueued, failedShops }) {
      sweepRuns.inc();
      sweepEnqueued.inc({}, enqueued);
      sweepShopFailures.inc({}, failedShops);
    },
  };
}
