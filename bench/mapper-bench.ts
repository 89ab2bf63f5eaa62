// Orders mapped per second for a 10-line and a 250-line order (test/fixtures/orders/ten-lines.json and
// 250-lines.json): `map` is orderToDraft on the parsed order (what the worker does per attempt);
// `parse + map` adds JSON.parse and parseShopifyOrder of the stored body. Warm-up, then ≥ 2 s each.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultMappingSettings } from '../mappers/mapping-settings.ts';
import { type OrderToDraftInput, orderToDraft } from '../mappers/order-to-document.ts';
import { parseShopifyOrder } from '../mappers/shopify-order.ts';
import type { BenchRow } from './bench-table.ts';

const FIXTURES = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'orders');
const WARM_UP_MS = 500;
const RUN_MS = 2000;
/** The target on the 2-core machine: 10-line orders mapped per second. */
const TARGET_TEN_LINES_PER_SECOND = 20_000;

interface Row {
  order: string;
  mode: string;
  items: number;
  perSecond: number;
  microsPerOrder: number;
}

/** Call `fn` in batches until `ms` elapsed; orders per second. */
function measure(fn: () => void, ms: number): number {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 50; i++) fn();
    count += 50;
    elapsed = performance.now() - start;
  }
  return (count * 1000) / elapsed;
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
  const rows: Row[] = [];
  for (const [mode, fn] of [
    ['map', map],
    ['parse + map', parseAndMap],
  ] as const) {
    measure(fn, WARM_UP_MS);
    const perSecond = measure(fn, RUN_MS);
    rows.push({ order: label, mode, items, perSecond, microsPerOrder: 1e6 / perSecond });
  }
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const rows = [...benchOrder('10 lines', 'ten-lines.json'), ...benchOrder('250 lines', '250-lines.json')];
  printDetail(rows);
  return rows.map(summaryRow);
}

const perSecondText = (r: Row) => `${Math.round(r.perSecond).toLocaleString('en-US')} orders/s`;

/** The row of the one bench table: the 10-line map rate against the target, the others informational. */
function summaryRow(r: Row): BenchRow {
  const row = `mapper ${r.order}, ${r.mode}`;
  const figure = `${perSecondText(r)} (${r.microsPerOrder.toFixed(1)} µs, ${r.items} invoice items)`;
  if (r.order === '10 lines' && r.mode === 'map') {
    const ratio = r.perSecond / TARGET_TEN_LINES_PER_SECOND;
    return {
      row,
      figure,
      baseline: `target ≥ ${TARGET_TEN_LINES_PER_SECOND.toLocaleString('en-US')} orders/s`,
      result: `${ratio.toFixed(1)}× target`,
      pass: ratio >= 1,
    };
  }
  return { row, figure, baseline: '', result: 'informational' };
}

function printDetail(rows: Row[]): void {
  const header = ['order', 'mode', 'invoice items', 'orders/s', 'µs/order'];
  const table = rows.map((r) => [
    r.order,
    r.mode,
    String(r.items),
    Math.round(r.perSecond).toLocaleString('en-US'),
    r.microsPerOrder.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(line(t));
}
