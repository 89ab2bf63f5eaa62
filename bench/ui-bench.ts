// The admin page's invoice list as a merchant's browser draws it: Largest Contentful Paint and Cumulative
// Layout Shift measured in Chromium with the Performance API (PerformanceObserver), at 1280 × 800 and
// 390 × 844, each a fresh browser context (no cache) loading /admin#/facturas of a shop with 5,000 invoices
// on file-backed PGlite. Targets: LCP < 1 s, CLS < 0.1 (Google's "good").
//   npm run bench -- ui        (or: node bench/ui-bench.ts)
import { CHROMIUM, hasChromium, launchChromium } from '../test/support/chromium.ts';
import { generateDocuments } from './admin-bench.ts';
import { benchKey, int, ms, onFreshDatabase, percentile, seedShop, startIntakeApp } from './bench-support.ts';
import type { BenchRow } from './bench-table.ts';
import { textTable } from './bench-table.ts';

const SHOP = 'tienda-bench-ui.myshopify.com';
const INVOICES = 5_000;
const LOADS = 7;
const LCP_TARGET_MS = 1000;
const CLS_TARGET = 0.1;
const VIEWPORTS = [
  { name: '1280 × 800', width: 1280, height: 800 },
  { name: '390 × 844', width: 390, height: 844 },
];

/** Installed before the page's own scripts: LCP's latest candidate and the sum of unprovoked layout shifts. */
const OBSERVERS = `
  window.__vitals = { lcp: 0, cls: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__vitals.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__vitals.cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

interface Vitals {
  lcp: number;
  cls: number;
}

async function measure(url: string, viewport: { width: number; height: number }): Promise<Vitals[]> {
  const browser = await launchChromium();
  try {
    const loads: Vitals[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport, locale: 'es-PA' });
      await context.addInitScript(OBSERVERS);
      const page = await context.newPage();
      await page.goto(url);
      await page.locator('#invoice-table tbody tr').first().waitFor({ timeout: 20_000 });
      // Let the last paint and any late shift land (the list refreshes itself only after 2 s).
      await page.waitForTimeout(1000);
      loads.push(await page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals));
      await context.close();
    }
    return loads;
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  if (!hasChromium) {
    return [{ row: 'admin page, invoice list', figure: `${CHROMIUM} not found`, baseline: 'install Debian’s chromium', result: '—' }];
  }
  console.log(`admin page: invoice list of a shop with ${int(INVOICES)} invoices, ${LOADS} cold loads per viewport`);
  return onFreshDatabase(undefined, async (database) => {
    const key = benchKey();
    await seedShop(database, key, SHOP, 'shpat_bench_ui');
    await generateDocuments(database, SHOP, INVOICES, 300_000);
    const app = await startIntakeApp(database, key);
    try {
      const rows: BenchRow[] = [];
      for (const viewport of VIEWPORTS) {
        const loads = await measure(`${app.url}/admin?shop=${SHOP}#/facturas`, viewport);
        const lcp = loads.map((l) => l.lcp);
        const cls = Math.max(...loads.map((l) => l.cls));
        console.log(`  ${viewport.name}: LCP ${lcp.map((v) => ms(v)).join(', ')}; CLS ${loads.map((l) => l.cls.toFixed(3)).join(', ')}`);
        rows.push(
          {
            row: `admin page, invoice list ${viewport.name}: Largest Contentful Paint`,
            figure: `median ${ms(percentile(lcp, 50))}, worst ${ms(Math.max(...lcp))} (${LOADS} cold loads)`,
            baseline: `target < ${ms(LCP_TARGET_MS)}`,
            result: `${(percentile(lcp, 50) / LCP_TARGET_MS).toFixed(2)}× target`,
            pass: percentile(lcp, 50) < LCP_TARGET_MS,
          },
          {
            row: `admin page, invoice list ${viewport.name}: Cumulative Layout Shift`,
            figure: `worst ${cls.toFixed(3)} (${LOADS} cold loads)`,
            baseline: `target < ${CLS_TARGET}`,
            result: cls < CLS_TARGET ? 'met' : 'missed',
            pass: cls < CLS_TARGET,
          },
        );
      }
      return rows;
    } finally {
      await app.close();
    }
  });
}

if (import.meta.main) console.log(`\n${textTable(await run())}`);
