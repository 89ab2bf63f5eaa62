// Orders mapped per second for a 10-line and a 250-line order (test/fixtures/orders/ten-lines.json and
// 250-lines.json): `map` is orderToDraft on the parsed order; `parse + map` adds JSON.parse and
// parseShopifyOrder of the stored body (what the worker does per attempt). The detail table also times its
// parts, `JSON.parse` and `read` (parseShopifyOrder), to show where the time goes. Warm-up, then ≥ 2 s each;
// CPU µs beside wall µs, since the machine is shared.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultMappingSettings } from '../mappers/invoice/mapping-settings.ts';
import { type OrderToDraftInput, orderToDraft } from '../mappers/invoice/order-to-document.ts';
import { parseShopifyOrder } from '../mappers/shopify/shopify-order.ts';
import type { BenchRow } from './bench-table.ts';

const FIXTURES = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'orders');
const WARM_UP_MS = 500;
const RUN_MS = 2000;
/** The target on the 2-core machine: 10-line orders mapped per second. */
const TARGET_TEN_LINES_PER_SECOND = 20_000;
/** Issue 18 item 5: 10-line orders parsed (JSON.parse + parseShopifyOrder) and mapped per second. */
const TARGET_TEN_LINES_PARSED_PER_SECOND = 20_000;

interface Row {
  order: string;
  mode: Mode;
  items: number;
  perSecond: number;
  microsPerOrder: number;
  cpuMicrosPerOrder: number;
}

type Mode = 'map' | 'parse + map' | 'JSON.parse' | 'read';
/** In the one bench table; the parts are in the detail table only. */
const SUMMARY_MODES: readonly Mode[] = ['map', 'parse + map'];

/** Call `fn` in batches until `ms` elapsed; orders per second (wall clock) and CPU µs per order. */
function measure(fn: () => void, ms: number): { perSecond: number; cpuMicros: number } {
  let count = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 50; i++) fn();
    count += 50;
    elapsed = performance.now() - start;
  }
  const used = process.cpuUsage(cpu);
  return { perSecond: (count * 1000) / elapsed, cpuMicros: (used.user + used.system) / count };
}

function benchOrder(label: string, file: string): Row[] {
  const text = readFileSync(path.join(FIXTURES, file), 'utf8');
  const parsed = parseShopifyOrder(JSON.parse(text));
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  const input: OrderToDraftInput = { order: parsed.order, settings: defaultMappingSettings };
  const first = orderToDraft(input);
  if (!first.ok) throw new Error(`${file} does not map`);
  const items = first.draft.listItems.length;

  const map = () => {
    if (!orderToDraft(input).ok) throw new Error('mapping failed');
  };
  const parseAndMap = () => {
    const order = parseShopifyOrder(JSON.parse(text));
    if (!order.ok || !orderToDraft({ ...input, order: order.order }).ok) throw new Error('mapping failed');
  };
  const body: unknown = JSON.parse(text);
  const read = () => {
    if (!parseShopifyOrder(body).ok) throw new Error('reading failed');
  };
  const jsonParse = () => {
    if (typeof JSON.parse(text) !== 'object') throw new Error('not an object');
  };
  const modes: [Mode, () => void][] = [
    ['map', map],
    ['parse + map', parseAndMap],
    ['JSON.parse', jsonParse],
    ['read', read],
  ];
  const rows: Row[] = [];
  for (const [mode, fn] of modes) {
    measure(fn, WARM_UP_MS);
    const { perSecond, cpuMicros } = measure(fn, RUN_MS);
    rows.push({ order: label, mode, items, perSecond, microsPerOrder: 1e6 / perSecond, cpuMicrosPerOrder: cpuMicros });
  }
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const rows = [...benchOrder('10 lines', 'ten-lines.json'), ...benchOrder('250 lines', '250-lines.json')];
  printDetail(rows);
  return rows.filter((r) => SUMMARY_MODES.includes(r.mode)).map((r) => summaryRow(r, rows));
}

const perSecondText = (r: Row) => `${Math.round(r.perSecond).toLocaleString('en-US')} orders/s`;

/**
 * The row of the one bench table: the 10-line rates against their targets (parse + map with what its parts
 * took), the others informational.
 */
function summaryRow(r: Row, all: readonly Row[]): BenchRow {
  const row = `mapper ${r.order}, ${r.mode}`;
  const figure = `${perSecondText(r)} (${r.microsPerOrder.toFixed(1)} µs, ${r.items} invoice items)`;
  const target = r.order !== '10 lines' ? undefined : r.mode === 'map' ? TARGET_TEN_LINES_PER_SECOND : TARGET_TEN_LINES_PARSED_PER_SECOND;
  if (target === undefined) return { row, figure, baseline: '', result: 'informational' };
  const ratio = r.perSecond / target;
  const part = (mode: Mode) => all.find((p) => p.order === r.order && p.mode === mode)?.microsPerOrder.toFixed(1) ?? '?';
  const parts = r.mode === 'parse + map' ? ` (JSON.parse ${part('JSON.parse')} µs, read ${part('read')} µs, map ${part('map')} µs)` : '';
  return {
    row,
    figure,
    baseline: `target ≥ ${target.toLocaleString('en-US')} orders/s`,
    result: `${ratio.toFixed(ratio < 1 ? 2 : 1)}× target${parts}`,
    pass: ratio >= 1,
  };
}

function printDetail(rows: Row[]): void {
  const header = ['order', 'mode', 'invoice items', 'orders/s', 'µs/order', 'CPU µs/order'];
  const table = rows.map((r) => [
    r.order,
    r.mode,
    String(r.items),
    Math.round(r.perSecond).toLocaleString('en-US'),
    r.microsPerOrder.toFixed(1),
    r.cpuMicrosPerOrder.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(line(t));
}
