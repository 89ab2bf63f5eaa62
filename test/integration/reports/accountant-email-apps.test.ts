// The accountant's monthly e-mail with two apps on one database (both databases), their clock set by the test: the
// harness's app and a second app started beside it (same database, store simulator and sandbox), then the second
// restarted across the 1st in Panamá. A real SMTP server on loopback (the mail catcher) receives each month's
// sales book once.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppParts, startApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config/env.ts';
import { reportEmails, shops } from '../../../src/db/schema.ts';
import { silentLogger } from '../../../src/logger.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../../../sim/sandbox/sandbox-gateway.ts';
import { type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { TEST_API_KEY, TEST_API_SECRET, freePort, waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';
import { seedDocuments } from '../../support/report-seeds.ts';

const SHOP = 'tienda-dos-procesos.myshopify.com';
const ACCOUNTANT = 'contadora@example.com';
const FROM = 'facturas@example.com';

let now = new Date('2026-12-01T03:00:00Z'); // 2026-11-30 22:00 in Panamá
const clock = () => now;
const KEY = randomBytes(32);
let catcher: MailCatcher;
const mailEnv = () => ({ SMTP_URL: catcher.url, MAIL_FROM: FROM, WORKER_POLL_MS: '20' });

describe.each(testDatabases)("the accountant's e-mail with two apps on $name", (target) => {
  beforeAll(async () => {
    now = new Date('2026-12-01T03:00:00Z');
    catcher = await startMailCatcher();
  });
  const run = harnessFor(target, () => ({ env: mailEnv(), clock, encryptionKey: KEY }));
  const others: AppParts[] = [];

  /** Another app on the same database, simulator and sandbox, as a second process would be. */
  async function secondApp(): Promise<AppParts> {
    const port = await freePort();
    const app = await startApp({
      config: loadConfig({ NODE_ENV: 'test', PORT: String(port), BIND_ADDRESS: '127.0.0.1', ...mailEnv() }),
      logger: silentLogger,
      encryptionKey: KEY,
      shopify: {
        apiKey: TEST_API_KEY,
        apiSecret: TEST_API_SECRET,
        appUrl: `http://127.0.0.1:${port}`,
        scopes: ['read_orders', 'write_orders', 'read_customers'],
        adminApiOrigin: run.h.simulator.origin,
      },
      gateway: { baseUrl: run.h.sandbox.url, authToken: DEFAULT_SANDBOX_AUTH_TOKEN, authScheme: 'bearer', timeoutMs: 5000 },
      database: run.database,
      clock,
    });
    others.push(app);
    return app;
  }
  const mailsTo = () => catcher.messages().filter((m) => m.envelope.to.includes(ACCOUNTANT));

  afterAll(async () => {
    for (const app of others) await app.close().catch(() => {});
    await catcher.close();
  });

  it('sends each month once, with a second app running and restarted across the 1st', async () => {
    await run.h.installShop(SHOP, { environment: 'produccion', accountantEmail: ACCOUNTANT }, { name: 'Tienda Dos Procesos' });
    await run.database.db
      .update(shops)
      .set({ installedAt: new Date('2026-10-20T12:00:00Z') })
      .where(eq(shops.shop, SHOP));
    await seedDocuments(run.database.db, [{ shop: SHOP, number: 1, authorizedAt: '2026-11-10T15:00:00Z', items: [['01', 2000, 140]] }]);
    const second = await secondApp();
    run.h.app.accountantEmails!.wake();
    second.accountantEmails!.wake();
    await waitFor(async () => mailsTo().length === 1, 15_000, "October's e-mail");
    // The second app stops; midnight of the 1st passes in Panamá; it starts again.
    await second.close();
    now = new Date('2026-12-01T05:00:05Z');
    const restarted = await secondApp();
    restarted.accountantEmails!.wake();
    run.h.app.accountantEmails!.wake();
    await waitFor(async () => mailsTo().length === 2, 15_000, "November's e-mail");
    for (let i = 0; i < 5; i++) {
      run.h.app.accountantEmails!.wake();
      restarted.accountantEmails!.wake();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(mailsTo().map((m) => m.parsed.subject)).toEqual([
      'Libro de ventas 2026-10 de Tienda Dos Procesos',
      'Libro de ventas 2026-11 de Tienda Dos Procesos',
    ]);
    expect(mailsTo()[1]!.parsed.attachments.map((a) => a.filename)).toEqual([
      'libro-de-ventas-2026-11.csv',
      'libro-de-ventas-2026-11.xlsx',
    ]);
    const rows = await run.database.db.select().from(reportEmails).where(eq(reportEmails.shop, SHOP));
    expect(rows.map((r) => [r.month, r.status]).sort()).toEqual([
      ['2026-10', 'sent'],
      ['2026-11', 'sent'],
    ]);
  });
});
