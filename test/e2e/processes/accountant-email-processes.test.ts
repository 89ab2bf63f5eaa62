// The accountant's monthly e-mail from app processes started as `npm start` starts them (docs/reports.md), each
// process's clock set by the test (TEST_CLOCK_START, tests only), a real SMTP server on loopback (the mail catcher,
// with a login). On PostgreSQL: two processes, one running across midnight of the 1st in Panamá, the other stopped on
// the 30th and started again on the 1st: October's e-mail once, then November's once, with its CSV and XLSX. On
// PGlite (a data directory belongs to one process at a time): one process restarted across the 1st, then again.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from '@shopify/shopify-api';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../../../src/admin/session-token.ts';
import { type Database, openDatabase } from '../../../src/db/database.ts';
import { reportEmails, shops } from '../../../src/db/schema.ts';
import { EncryptedSessionStorage } from '../../../src/shopify/session-storage.ts';
import { createSecretBox } from '../../../src/shops/secret-box.ts';
import { ShopRepository } from '../../../src/shops/shop-repository.ts';
import { type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { type AppProcess, spawnApp, testAppEnv } from '../../../sim/harness/app-process.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';
import { TEST_API_KEY, TEST_API_SECRET, credentialsFor, freePort, waitFor } from '../../../sim/harness/harness.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { seedDocuments } from '../../support/report-seeds.ts';

const SHOP = 'tienda-procesos-contador.myshopify.com';
const ACCOUNTANT = 'contador@example.com';
const SUBJECT = (month: string) => `Libro de ventas ${month} de Tienda Procesos`;

let sandbox: RunningSandbox;
let simulator: StoreSimulator;
let catcher: MailCatcher;
const key = randomBytes(32);
const apps: AppProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandboxServer({ seed: 28 });
  simulator = await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
  catcher = await startMailCatcher({ auth: { user: 'mailer', pass: 'smtp-pass' } });
});
afterAll(async () => {
  for (const app of apps) await app.kill();
  await catcher?.close();
  await simulator?.close();
  await sandbox?.close();
});

/** The shop installed in October, in production, with its accountant; an invoice and a note in November. */
async function seed(database: Database): Promise<void> {
  const box = createSecretBox(key);
  const { accessToken } = simulator.addShop(SHOP, { name: 'Tienda Procesos' });
  await new EncryptedSessionStorage(database.db, box).storeSession(
    new Session({ id: `offline_${SHOP}`, shop: SHOP, state: 'test', isOnline: false, accessToken, scope: 'read_orders,write_orders' }),
  );
  const repo = new ShopRepository(database.db, box);
  await repo.ensureInstalled(SHOP);
  const saved = await repo.saveSettings(SHOP, {
    ...(await repo.get(SHOP))!.settings,
    credentials: credentialsFor(SHOP),
    enabled: true,
    environment: 'produccion',
    accountantEmail: ACCOUNTANT,
  });
  if (!saved.ok) throw new Error(saved.problems.join('; '));
  await database.db
    .update(shops)
    .set({ enabled: true, installedAt: new Date('2026-10-20T12:00:00Z') })
    .where(eq(shops.shop, SHOP));
  await seedDocuments(database.db, [
    { shop: SHOP, number: 1, authorizedAt: '2026-11-10T15:00:00Z', items: [['01', 10_000, 700]] },
    { shop: SHOP, number: 1, type: '04', authorizedAt: '2026-11-20T15:00:00Z', items: [['01', 1_000, 70]] },
  ]);
}

/** An app process whose clock starts at `clock` (an instant in Panamá time), e-mailing through the catcher. */
async function startApp(storage: Record<string, string>, clock: string): Promise<{ app: AppProcess; port: number }> {
  const port = await freePort();
  const app = spawnApp({
    ...testAppEnv({ port, gatewayUrl: sandbox.url, key, adminApiOrigin: simulator.origin }),
    ...storage,
    SMTP_URL: catcher.url,
    MAIL_FROM: 'facturas@example.com',
    // The accountant runner ticks every 20 polls: every 400 ms here.
    WORKER_POLL_MS: '20',
    TEST_CLOCK_START: clock,
  });
  apps.push(app);
  await app.ready;
  return { app, port };
}

/** The HTTP status of the app's report of `month`: 400 while that month has not begun by the app's clock. */
async function reportStatus(port: number, month: string): Promise<number> {
  const { token } = await mintSessionToken({ shop: SHOP, apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET, ttlSeconds: 60 });
  const res = await fetch(`http://127.0.0.1:${port}/api/reports/month?month=${month}`, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

const mailsTo = () => catcher.messages().filter((m) => m.envelope.to.includes(ACCOUNTANT));
const subjects = () => mailsTo().map((m) => m.parsed.subject);

/** November's (last) e-mail: the figures in the body, the sales book attached as CSV and XLSX. */
async function expectNovember(): Promise<void> {
  const november = mailsTo().findLast((m) => m.parsed.subject === SUBJECT('2026-11'))!.parsed;
  expect(november.text).toContain(
    'Facturas: 1 por 107.00 USD. Notas de crédito: 1 por 10.70 USD. Neto del mes: 96.30 USD (ITBMS neto 6.30 USD).',
  );
  const [csv, xlsx] = november.attachments;
  expect([csv!.filename, xlsx!.filename]).toEqual(['libro-de-ventas-2026-11.csv', 'libro-de-ventas-2026-11.xlsx']);
  const lines = csv!.content.toString('utf8').split('\r\n');
  expect(lines.slice(1)).toEqual([
    expect.stringMatching(/^2026-11-10,01,0000-001-0000000001,.*,100\.00,7\.00,0\.00,0\.00,0\.00,0\.00,107\.00,$/),
    expect.stringMatching(/^2026-11-20,04,0000-001-0000000001,.*,-10\.00,-0\.70,0\.00,0\.00,0\.00,0\.00,-10\.70,$/),
    '',
  ]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsx!.content as unknown as ExcelJS.Buffer);
  expect(book.getWorksheet('Libro de ventas')!.rowCount).toBe(3);
}

/** Some of the runner's ticks (every 400 ms) in every running process. */
const someTicks = () => new Promise((r) => setTimeout(r, 2_000));

describe("the accountant's e-mail from app processes", () => {
  it.skipIf(!postgresUrlForTests)(
    'on PostgreSQL: two processes, one across midnight of the 1st and one restarted over it, send each month once',
    async () => {
      const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
      const database = await openDatabase({ kind: 'postgres', url: fresh.url });
      const storage = { DATABASE_URL: fresh.url };
      try {
        await seed(database);
        // A: 30 November, 23:59:30 in Panamá, running on across midnight. B: that evening.
        const a = await startApp(storage, '2026-11-30T23:59:30-05:00');
        const b = await startApp(storage, '2026-11-30T20:00:00-05:00');
        expect(await reportStatus(b.port, '2026-12')).toBe(400);
        // Still November for both: October's e-mail is due (installed in October), November's is not.
        await waitFor(async () => subjects().length === 1, 30_000, "October's e-mail");
        expect(subjects()).toEqual([SUBJECT('2026-10')]);

        // B stops on the 30th and starts again on the 1st; A passes midnight on its own.
        await b.app.kill();
        const restarted = await startApp(storage, '2026-12-01T00:00:02-05:00');
        expect(await reportStatus(restarted.port, '2026-12')).toBe(200);
        await waitFor(async () => subjects().length === 2, 30_000, "November's e-mail");
        await waitFor(async () => (await reportStatus(a.port, '2026-12')) === 200, 60_000, "A's clock past the 1st");
        await someTicks();

        expect(subjects()).toEqual([SUBJECT('2026-10'), SUBJECT('2026-11')]);
        await expectNovember();
        const rows = await database.db.select().from(reportEmails).where(eq(reportEmails.shop, SHOP));
        expect(rows.map((r) => [r.month, r.reason, r.status, r.attempts]).sort()).toEqual([
          ['2026-10', 'monthly', 'sent', 1],
          ['2026-11', 'monthly', 'sent', 1],
        ]);
      } finally {
        for (const app of apps.splice(0)) await app.kill();
        await database.close();
        await fresh.drop();
      }
    },
    180_000,
  );

  it('on PGlite: one process, stopped on the 30th and started on the 1st, then again, sends each month once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-contador-'));
    const pglite = () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    const before = mailsTo().length;
    const mine = () => subjects().slice(before);
    // The data directory belongs to one process at a time: seeded before the app, read after it.
    const seeding = await pglite();
    await seed(seeding);
    await seeding.close();

    const evening = await startApp({ DATA_DIR: dataDir }, '2026-11-30T20:00:00-05:00');
    await waitFor(async () => mine().length === 1, 30_000, "October's e-mail");
    await evening.app.kill();
    const morning = await startApp({ DATA_DIR: dataDir }, '2026-12-01T00:00:02-05:00');
    await waitFor(async () => mine().length === 2, 30_000, "November's e-mail");
    await morning.app.kill();
    const later = await startApp({ DATA_DIR: dataDir }, '2026-12-01T09:00:00-05:00');
    await someTicks();
    await later.app.kill();
    apps.splice(0);

    expect(mine()).toEqual([SUBJECT('2026-10'), SUBJECT('2026-11')]);
    await expectNovember();
    const database = await pglite();
    try {
      const rows = await database.db.select().from(reportEmails).where(eq(reportEmails.shop, SHOP));
      expect(rows.map((r) => [r.month, r.reason, r.status, r.attempts]).sort()).toEqual([
        ['2026-10', 'monthly', 'sent', 1],
        ['2026-11', 'monthly', 'sent', 1],
      ]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
