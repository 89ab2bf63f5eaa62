// The accountant's monthly e-mail on both databases (docs/reports.md): two e-mail runners sharing the database stand
// for two app processes, their clock set by the test; a real SMTP server on loopback (the mail catcher, with a login)
// receives the month's sales book once, with one runner restarted across the 1st; the page's resend sends it again.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../../src/buyer-email/smtp-mailer.ts';
import type { Database } from '../../../src/db/database.ts';
import { reportEmails, shops as shopsTable } from '../../../src/db/schema.ts';
import { silentLogger } from '../../../src/logger.ts';
import { AccountantEmailRunner } from '../../../src/reports/accountant-email-runner.ts';
import { queueReportResend } from '../../../src/reports/report-email-store.ts';
import { createSecretBox } from '../../../src/shops/secret-box.ts';
import { ShopRepository } from '../../../src/shops/shop-repository.ts';
import { type MailCatcher, startMailCatcher } from '../../../sim/demo/mail-catcher.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { seedDocuments } from '../../support/report-seeds.ts';

const SHOP = 'tienda-mensual.myshopify.com';
const TESTING_SHOP = 'tienda-en-pruebas.myshopify.com';
const ACCOUNTANT = 'contador@example.com';
const FROM = 'facturas@example.com';

describe.each(testDatabases)("the accountant's monthly e-mail on $name", (target) => {
  let database: Database;
  let catcher: MailCatcher;
  let mailer: Mailer;
  /** The test's clock: 2026-11-30 22:00 in Panamá, then past midnight. */
  let now = new Date('2026-12-01T03:00:00Z');
  const runners: AccountantEmailRunner[] = [];

  function runner(): AccountantEmailRunner {
    const r = new AccountantEmailRunner({
      db: database.db,
      mailer,
      shopName: async () => 'Tienda Mensual',
      logger: silentLogger,
      options: { from: FROM, maxAttempts: 3, retryBaseMs: 20, retryMaxMs: 100, leaseMs: 10_000, pollMs: 30 },
      now: () => now,
    });
    runners.push(r);
    r.start();
    return r;
  }
  const mailsTo = () => catcher.messages().filter((m) => m.envelope.to.includes(ACCOUNTANT));

  beforeAll(async () => {
    database = await target.open();
    catcher = await startMailCatcher({ auth: { user: 'mailer', pass: 'smtp-pass' } });
    mailer = createMailer({ smtpUrl: catcher.url });
    const repo = new ShopRepository(database.db, createSecretBox(randomBytes(32)));
    for (const [shop, environment] of [
      [SHOP, 'produccion'],
      [TESTING_SHOP, 'pruebas'],
    ] as const) {
      await repo.ensureInstalled(shop);
      const saved = await repo.saveSettings(shop, { ...(await repo.get(shop))!.settings, environment, accountantEmail: ACCOUNTANT });
      if (!saved.ok) throw new Error(saved.problems.join('; '));
      await database.db
        .update(shopsTable)
        .set({ enabled: true, installedAt: new Date('2026-10-15T12:00:00Z') })
        .where(eq(shopsTable.shop, shop));
    }
    await seedDocuments(database.db, [
      { shop: SHOP, number: 1, authorizedAt: '2026-11-10T15:00:00Z', items: [['01', 10_000, 700]] },
      { shop: SHOP, number: 2, authorizedAt: '2026-12-01T04:30:00Z', items: [['00', 2_500, 0]] },
      { shop: SHOP, number: 1, type: '04', authorizedAt: '2026-11-20T15:00:00Z', items: [['01', 1_000, 70]] },
    ]);
  });

  afterAll(async () => {
    for (const r of runners) await r.stop();
    mailer?.close();
    await catcher?.close();
    await database?.close();
  });

  it('sends the month once across two processes and a restart over the 1st, with the book attached', async () => {
    const first = runner();
    const second = runner();
    // Still November in Panamá: October's e-mail is due (the shop was installed in October), November's is not.
    await waitFor(async () => mailsTo().length === 1, 10_000, "October's e-mail");
    expect(mailsTo()[0]!.parsed.subject).toBe('Libro de ventas 2026-10 de Tienda Mensual');
    // One process restarts, and the clock passes midnight of the 1st in Panamá.
    await first.stop();
    now = new Date('2026-12-01T05:00:01Z');
    runner();
    await waitFor(async () => mailsTo().length === 2, 10_000, "November's e-mail");
    // Several more ticks of both: nothing more is sent.
    for (let i = 0; i < 5; i++) {
      second.wake();
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(mailsTo().map((m) => m.parsed.subject)).toEqual([
      'Libro de ventas 2026-10 de Tienda Mensual',
      'Libro de ventas 2026-11 de Tienda Mensual',
    ]);
    const rows = await database.db.select().from(reportEmails).where(eq(reportEmails.shop, SHOP));
    expect(rows.map((r) => [r.month, r.reason, r.status]).sort()).toEqual([
      ['2026-10', 'monthly', 'sent'],
      ['2026-11', 'monthly', 'sent'],
    ]);
    // The shop sending to the test environment gets no e-mail.
    expect(await database.db.select().from(reportEmails).where(eq(reportEmails.shop, TESTING_SHOP))).toEqual([]);

    const november = mailsTo()[1]!.parsed;
    expect(november.from?.text).toBe(`"Tienda Mensual" <${FROM}>`);
    expect(november.text).toContain(
      'Ventas gravadas al 7 %: base 100.00 USD, ITBMS 7.00 USD; notas de crédito: base 10.00 USD, ITBMS 0.70 USD; neto: base 90.00 USD, ITBMS 6.30 USD',
    );
    expect(november.text).toContain(
      'Facturas: 2 por 132.00 USD. Notas de crédito: 1 por 10.70 USD. Neto del mes: 121.30 USD (ITBMS neto 6.30 USD).',
    );
    const [csv, xlsx] = november.attachments;
    expect(csv!.filename).toBe('libro-de-ventas-2026-11.csv');
    const lines = csv!.content.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[3]).toMatch(/^2026-11-30,01,0000-001-0000000002,/);
    expect(xlsx!.filename).toBe('libro-de-ventas-2026-11.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx!.content as unknown as ExcelJS.Buffer);
    expect(book.getWorksheet('Libro de ventas')!.rowCount).toBe(4);
  });

  it('sends a month again when the merchant asks', async () => {
    const before = mailsTo().length;
    const resend = await queueReportResend(database.db, { shop: SHOP, month: '2026-11', recipient: ACCOUNTANT });
    expect(resend.queued).toBe(true);
    runners.at(-1)!.wake();
    await waitFor(async () => mailsTo().length === before + 1, 10_000, 'the resend');
    // The catcher has the e-mail a moment before the runner records it as sent.
    const row = await waitFor(
      async () => {
        const [r] = await database.db.select().from(reportEmails).where(eq(reportEmails.id, resend.email.id));
        return r?.status === 'sent' ? r : undefined;
      },
      10_000,
      'the resend recorded as sent',
    );
    expect(row).toMatchObject({ reason: 'resend', status: 'sent', attempts: 1 });
    expect(mailsTo()).toHaveLength(before + 1);
  });
});
