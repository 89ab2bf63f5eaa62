// The metrics registry alone: the Prometheus exposition prom-client writes, checked line by line.
import { Counter, Histogram } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../../src/metrics.ts';

import { checkExposition } from '../../support/exposition.ts';

describe('metrics registry', () => {
  it('renders counters, histograms with cumulative buckets, and escaped label values', async () => {
    const registry = new MetricsRegistry();
    const registers = [registry];
    const c = new Counter({ name: 'x_total', help: 'Things.\nSecond line with \\ backslash.', labelNames: ['path'], registers });
    c.inc({ path: 'a"b\\c\nd' }, 2);
    c.inc({ path: 'a"b\\c\nd' });
    const hist = new Histogram({ name: 'x_seconds', help: 'Durations.', labelNames: ['op'], buckets: [0.1, 0.5, 1], registers });
    for (const v of [0.05, 0.1, 0.7, 3]) hist.observe({ op: 'Send' }, v);
    registry.collectedGauge('x_rows', 'Rows.', ['s'], () => [{ labels: { s: 'ok' }, value: 7 }]);
    registry.collectedGauge('x_broken', 'Broken.', [], () => {
      throw new Error('down');
    });

    const text = await registry.metrics();
    expect(text).toBe(
      [
        '# HELP fe_scrape_collect_failures Metrics that could not be read in this scrape (their samples are missing).',
        '# TYPE fe_scrape_collect_failures gauge',
        'fe_scrape_collect_failures 1',
        '',
        '# HELP x_total Things.\\nSecond line with \\\\ backslash.',
        '# TYPE x_total counter',
        'x_total{path="a\\"b\\\\c\\nd"} 3',
        '',
        '# HELP x_seconds Durations.',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.1",op="Send"} 2',
        'x_seconds_bucket{le="0.5",op="Send"} 2',
        'x_seconds_bucket{le="1",op="Send"} 3',
        'x_seconds_bucket{le="+Inf",op="Send"} 4',
        'x_seconds_sum{op="Send"} 3.85',
        'x_seconds_count{op="Send"} 4',
        '',
        '# HELP x_rows Rows.',
        '# TYPE x_rows gauge',
        'x_rows{s="ok"} 7',
        '',
        '# HELP x_broken Broken.',
        '# TYPE x_broken gauge',
        '',
      ].join('\n'),
    );
    checkExposition(text);
  });

  it('a value read at scrape time is replaced at each scrape, and absent (not 0) when its read fails', async () => {
    const registry = new MetricsRegistry();
    let rows: number | Error = 7;
    registry.collectedGauge('x_rows', 'Rows.', [], () => {
      if (rows instanceof Error) throw rows;
      return [{ labels: {}, value: rows }];
    });
    registry.collectedCounter('x_seen_total', 'Seen.', ['kind'], () => [{ labels: { kind: 'a' }, value: 4 }]);
    const samples = async () => (await registry.metrics()).split('\n').filter((l) => l !== '' && !l.startsWith('#'));

    expect(await samples()).toEqual(['fe_scrape_collect_failures 0', 'x_rows 7', 'x_seen_total{kind="a"} 4']);
    expect(await samples()).toEqual(['fe_scrape_collect_failures 0', 'x_rows 7', 'x_seen_total{kind="a"} 4']);
    rows = new Error('database down');
    expect(await samples()).toEqual(['fe_scrape_collect_failures 1', 'x_seen_total{kind="a"} 4']);
    rows = 2;
    expect(await samples()).toEqual(['fe_scrape_collect_failures 0', 'x_rows 2', 'x_seen_total{kind="a"} 4']);
  });

  it('refuses what Prometheus would refuse', () => {
    const registry = new MetricsRegistry();
    const registers = [registry];
    expect(() => new Counter({ name: 'bad-name', help: 'x', registers })).toThrow('Invalid metric name');
    expect(() => new Counter({ name: 'x_total', help: 'x', labelNames: ['bad-label'], registers })).toThrow('Invalid label name');
    const c = new Counter({ name: 'ok_total', help: 'x', labelNames: ['ok'], registers });
    expect(() => new Counter({ name: 'ok_total', help: 'again', registers })).toThrow('already been registered');
    const undeclared: Record<string, string> = { other: 'x' };
    expect(() => c.inc(undeclared)).toThrow('not included in initial labelset');
    expect(() => c.inc({ ok: 'x' }, -1)).toThrow('not possible to decrease a counter');
  });
});
