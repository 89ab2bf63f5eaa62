// A gateway incident answering 201 ("error processing the request") to every SendDocument, through the fault proxy,
// on both databases (issue 25, item 8): the orders paid during it wait (the page shows the incident), none needs a
// person, and once it passes every one is authorized by itself, each number once, without a gap. 30 s: the harness's
// worker retries within 200 ms, so every document meets the incident many times over (its 8 attempts would be long
// gone if 201s counted).
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../sim/harness/databases.ts';
import { lastErrorText } from '../support/documents.ts';
import { faultHarnessFor } from '../support/fault-harness.ts';

const INCIDENT_MS = 30_000;
/** Orders keep being paid during it, two at a time. */
const PAY_EVERY_MS = 10_000;

describe.each(testDatabases)('a 201-to-everything incident on $name', (target) => {
  const run = faultHarnessFor(target);

  it(
    '30 s of 201 to everything: every order of it authorized afterwards, none needing a person',
    async () => {
      const shops = [await run.shop(), await run.shop()];
      const started = Date.now();
      run.gateway.setRules([{ operation: 'SendDocument', fault: { kind: 'code', code: '201', message: 'Error al procesar solicitud' } }]);
      const orders: string[] = [];
      const seen = new Set<string>();
      // Orders keep coming during the incident: two at its start, then two every PAY_EVERY_MS.
      const pay = async () => {
        for (const shop of shops) orders.push(await run.pay(shop));
      };
      await pay();
      while (Date.now() - started < INCIDENT_MS) {
        await new Promise((r) => setTimeout(r, 1000));
        for (const gid of orders) seen.add((await run.invoiceOf(gid))?.status ?? 'none');
        if ((Date.now() - started) % PAY_EVERY_MS < 1000 && orders.length < 10) await pay();
      }
      // Meanwhile: nobody was asked to act, and the page said why the orders waited.
      expect([...seen].filter((s) => s === 'needs_attention' || s === 'failed')).toEqual([]);
      const shown = await run.invoiceOf(orders[0]!);
      expect(shown?.status).toBe('waiting');
      expect(lastErrorText(shown!)).toMatch(/to every document since \d{4}-\d{2}-\d{2}T/);
      expect(run.gateway.requests.filter((r) => r.fault === 'code').length).toBeGreaterThan(orders.length * 3);

      run.gateway.setRules([]);
      const rows = await Promise.all(orders.map((gid) => run.until(gid, ['completed'], 90_000)));
      for (const shop of shops) {
        const numbers = rows.filter((r) => r.shop === shop).map((r) => r.fiscalNumber);
        expect(numbers.sort((a, b) => a! - b!)).toEqual(numbers.map((_, i) => i + 1));
      }
      for (const row of rows) {
        expect(row.lastErrorKind).toBeNull();
        expect((await run.calls(row.id)).filter((c) => c === 'SendDocument:authorized:200')).toHaveLength(1);
      }
      console.log(
        `201 to everything for ${INCIDENT_MS / 1000} s (${run.gateway.requests.filter((r) => r.fault === 'code').length} answers): ` +
          `${rows.length} orders paid during it, all completed ${Math.round((Date.now() - started - INCIDENT_MS) / 1000)} s after it ended, none needed a person`,
      );
    },
    INCIDENT_MS + 180_000,
  );
});
