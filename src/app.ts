// Assembles the app from its configuration: database, Shopify library, worker, HTTP routes.
// src/main.ts runs it; tests start it in-process on port 0 with their own configuration.
import '@shopify/shopify-api/adapters/node';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiVersion, LogSeverity, type Shopify, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { appUninstalledWebhook } from '../webhooks/app-uninstalled.ts';
import { complianceWebhook } from '../webhooks/compliance.ts';
import { ordersPaidWebhook } from '../webhooks/orders-paid.ts';
import { refundsCreateWebhook } from '../webhooks/refunds-create.ts';
import { mountAdmin } from './admin/admin-routes.ts';
import type { AppConfig, MailSettings } from './config/env.ts';
import { type Database, databaseTargetFor, openDatabase } from './db/database.ts';
import { mountBuyerPage } from './buyer-page/buyer-routes.ts';
import { healthRoutes } from './http/health-routes.ts';
import { createHttpApp } from './http/http-app.ts';
import { documentPdfRoute } from './http/document-pdf-route.ts';
import { completionEmails } from './buyer-email/email-recipient.ts';
import { AccountantEmailRunner } from './reports/accountant-email-runner.ts';
import { EmailRunner } from './buyer-email/email-runner.ts';
import { createMailer } from './buyer-email/smtp-mailer.ts';
import { DocumentRunner } from './documents/document-runner.ts';
import { FlowRunner } from './flow/flow-runner.ts';
import { IntakeBatcher } from './documents/intake-batcher.ts';
import { PDF_ROUTE } from './documents/pdf-link.ts';
import { ReconcileSweeper } from './documents/reconcile-sweep.ts';
import { BackfillRunner } from './backfill/backfill-runner.ts';
import { createGatewayClient, type GatewaySettings } from './gateway/gateway-client.ts';
import type { Logger } from './logger.ts';
import { type AppMetrics, createAppMetrics } from './metrics.ts';
import { createShopifyAdmin, type ShopifyAdmin } from './shopify/admin-client.ts';
import { shopifyOrders } from './shopify/shopify-orders.ts';
import { shopNames } from './shopify/shop-name.ts';
import { rewritingFetch } from './shopify/admin-api-origin.ts';
import { mountOAuthRoutes } from './shopify/oauth-routes.ts';
import { createOfflineSessions } from './shopify/offline-sessions.ts';
import { EncryptedSessionStorage } from './shopify/session-storage.ts';
import { createSecretBox, type SecretBox } from './shops/secret-box.ts';
import { ShopRepository } from './shops/shop-repository.ts';

export const SHOPIFY_API_VERSION = ApiVersion.October26;

/** A shop's session read for an Admin API call serves its next calls this long (a document makes several). */
const SESSION_CACHE_MS = 5_000;

export interface AppParts {
  config: AppConfig;
  logger: Logger;
  database: Database;
  box: SecretBox;
  shopify: Shopify;
  shops: ShopRepository;
  sessions: EncryptedSessionStorage;
  admin: ShopifyAdmin;
  worker: DocumentRunner;
  /** Sends buyer e-mails (when SMTP is configured and the worker runs). */
  emails: EmailRunner | undefined;
  /** Sends the accountant's monthly sales book (when SMTP is configured and the worker runs). */
  accountantEmails: AccountantEmailRunner | undefined;
  /** Fires the shops' Shopify Flow triggers (when the worker runs; docs/flow.md). */
  flow: FlowRunner;
  /** The reconciliation sweep (on a timer when the worker runs and RECONCILE_INTERVAL_MINUTES > 0). */
  sweep: ReconcileSweeper;
  /** Reads running backfills (docs/backfill.md) when the worker runs. */
  backfill: BackfillRunner;
  metrics: AppMetrics;
  server: http.Server;
  /** Where the app listens, e.g. http://127.0.0.1:3000. */
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  config: AppConfig;
  logger: Logger;
  encryptionKey: Buffer;
  /** Shopify app credentials and public URL (the demo passes its own). */
  shopify: { apiKey: string; apiSecret: string; appUrl: string; scopes: string[]; adminApiOrigin: string | undefined };
  gateway: GatewaySettings;
  /** SMTP for buyer e-mails (the demo passes its catcher's); otherwise the configuration's, if any. */
  mail?: MailSettings;
  /** An already open database (tests share one); otherwise opened from the configuration. */
  database?: Database;
  /** The clock that says which month has ended (the accountant's e-mail, the reports' months); tests set it. */
  clock?: () => Date;
}

export async function startApp(options: StartOptions): Promise<AppParts> {
  const { config, logger } = options;
  const o: StartOptions = { ...options, ...clockOf(options) };
  const database =
    o.database ?? (await openDatabase(databaseTargetFor(config), (error) => logger.warn({ err: error }, 'database connection lost')));
  const box = createSecretBox(o.encryptionKey);
  const appUrl = new URL(o.shopify.appUrl);

  if (o.shopify.adminApiOrigin) {
    // Development and tests only (the configuration refuses it in production).
    setAbstractFetchFunc(rewritingFetch(o.shopify.adminApiOrigin, globalThis.fetch));
    logger.warn({ origin: o.shopify.adminApiOrigin }, 'Shopify Admin API calls go to a simulator');
  }
  const shopify = shopifyApi({
    apiKey: o.shopify.apiKey,
    apiSecretKey: o.shopify.apiSecret,
    hostName: appUrl.host,
    hostScheme: appUrl.protocol === 'http:' ? 'http' : 'https',
    apiVersion: SHOPIFY_API_VERSION,
    isEmbeddedApp: true,
    scopes: o.shopify.scopes,
    logger: { level: LogSeverity.Error, log: async (_severity, message) => logger.error({ source: 'shopify-api' }, message) },
  });

  const shops = new ShopRepository(database.db, box);
  const sessions = new EncryptedSessionStorage(database.db, box, { cacheMs: SESSION_CACHE_MS });
  const offlineSessions = createOfflineSessions({ shopify, db: database.db, storage: sessions });
  const admin = createShopifyAdmin({
    sessions: offlineSessions,
    apiVersion: SHOPIFY_API_VERSION,
    logger,
    timeoutMs: config.shopifyAdmin.timeoutMs,
    maxAnswerBytes: config.shopifyAdmin.maxAnswerBytes,
  });
  const metrics = createAppMetrics();
  const intake = new IntakeBatcher(database.db);
  const gateway = createGatewayClient({ ...config.gatewayLimits, ...o.gateway, onCall: (call) => metrics.recordGatewayCall(call) });
  const emails = startEmails(o, database, admin, appUrl.origin);
  const flow = new FlowRunner({
    db: database.db,
    admin,
    appUrl: appUrl.origin,
    logger,
    options: { ...config.worker, pollMs: config.worker.pollMs * 4 },
  });
  const worker = new DocumentRunner({
    db: database.db,
    shops,
    shopify: shopifyOrders(admin),
    gateway,
    appUrl: appUrl.origin,
    logger,
    options: config.worker,
    ...(emails ? { buyerEmail: completionEmails(database.db, () => emails.runner.wake()) } : {}),
    flow: { queued: () => flow.wake() },
  });
  const sweep = new ReconcileSweeper(
    {
      db: database.db,
      admin,
      intake,
      windowHours: config.reconcile.windowHours,
      logger,
      owner: worker.owner,
      onStored: () => worker.wake(),
      metrics,
    },
    { intervalMs: config.reconcile.intervalMinutes * 60_000 },
  );
  const backfill = new BackfillRunner({
    db: database.db,
    admin,
    intake,
    logger,
    leaseMs: config.worker.leaseMs,
    pollMs: Math.max(200, config.worker.pollMs * 4),
    onStored: () => worker.wake(),
  });

  const app = createHttpApp({
    logger,
    webhookBodyLimitBytes: config.webhookBodyLimitBytes,
    // A privacy request lists every order of the customer: 150,000 ids are about 2 MB. Within the in-flight budget.
    webhookBodyLimits: {
      '/webhooks/compliance': Math.max(config.webhookBodyLimitBytes, Math.min(config.bodyBytesInFlight, 8 * 1024 * 1024)),
    },
    bodyBytesInFlight: config.bodyBytesInFlight,
    webhooks: {
      '/webhooks/orders/paid': ordersPaidWebhook({ shopify, db: database.db, shops, intake, logger, onStored: () => worker.wake() }),
      '/webhooks/refunds/create': refundsCreateWebhook({ shopify, db: database.db, shops, intake, logger, onStored: () => worker.wake() }),
      '/webhooks/app/uninstalled': appUninstalledWebhook({ shopify, db: database.db, sessions, shops, logger }),
      '/webhooks/compliance': complianceWebhook({ shopify, db: database.db, logger }),
    },
    mount(a) {
      a.use(
        healthRoutes({
          db: database.db,
          worker,
          workerEnabled: config.worker.enabled,
          pollMs: config.worker.pollMs,
          metrics,
          metricsAccess: config.metrics,
        }),
      );
      // Before OAuth: `/` without a shop opens the admin page; /api/auth falls through to OAuth.
      mountAdmin(a, {
        db: database.db,
        shopify,
        shops,
        sessions,
        gateway: o.gateway,
        appUrl: appUrl.origin,
        wakeWorker: () => worker.wake(),
        wakeBackfill: () => backfill.wake(),
        emails: { configured: emails !== undefined, wake: () => emails?.runner.wake() },
        accountantEmails: { configured: emails !== undefined, wake: () => emails?.accountant.wake() },
        ...(o.clock ? { now: o.clock } : {}),
        gatewaySlots: worker.gatewaySlots,
        shopifyAdmin: admin,
        logger,
        devSessionTokens: config.demo || config.nodeEnv === 'test',
      });
      mountOAuthRoutes(a, { shopify, sessions, shops, logger, adminApiOrigin: o.shopify.adminApiOrigin });
      a.get(PDF_ROUTE, documentPdfRoute(database.db));
      mountBuyerPage(a, {
        db: database.db,
        shops,
        appUrl: appUrl.origin,
        limits: config.buyerPage,
        wakeWorker: () => worker.wake(),
        logger,
      });
    },
  });

  const server = await new Promise<http.Server>((resolve, reject) => {
    const s = app.listen(config.port, config.bindAddress, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  if (config.worker.enabled) worker.start();
  if (config.worker.enabled && config.reconcile.intervalMinutes > 0) sweep.start();
  if (config.worker.enabled) backfill.start();
  if (config.worker.enabled) emails?.runner.start();
  if (config.worker.enabled) flow.start();
  if (config.worker.enabled) emails?.accountant.start();

  return {
    config,
    logger,
    database,
    box,
    shopify,
    shops,
    sessions,
    admin,
    worker,
    emails: emails?.runner,
    flow,
    accountantEmails: emails?.accountant,
    sweep,
    backfill,
    metrics,
    server,
    url: `http://${host}:${address.port}`,
    async close() {
      await sweep.stop();
      await backfill.stop();
      await worker.stop();
      await emails?.runner.stop();
      await flow.stop();
      await emails?.accountant.stop();
      emails?.mailer.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!o.database) await database.close();
    },
  };
}

/** The clock a test gave: in process, or TEST_CLOCK_START (tests only, env.ts) for an app started as a process. */
function clockOf(o: StartOptions): Pick<StartOptions, 'clock'> {
  if (o.clock) return { clock: o.clock };
  const start = o.config.testClockStart;
  if (!start) return {};
  o.logger.warn({ clock: start.toISOString() }, 'the clock is set by TEST_CLOCK_START (tests only)');
  const startedAt = performance.now();
  return { clock: () => new Date(start.getTime() + Math.round(performance.now() - startedAt)) };
}

/** The buyer e-mail runner and its SMTP transport, or none (said once, at start-up) when SMTP is not configured. */
function startEmails(o: StartOptions, database: Database, admin: ShopifyAdmin, appUrl: string) {
  const mail = o.mail ?? o.config.mail;
  if (!mail) {
    o.logger.info('buyer e-mail is off for every shop: SMTP_URL and MAIL_FROM are not set');
    return undefined;
  }
  const { smtpUrl, ...options } = mail;
  const mailer = createMailer({ smtpUrl });
  o.logger.info({ server: mailer.server, from: mail.from }, 'buyer e-mail is on: authorized documents are e-mailed to buyers');
  const names = shopNames(admin);
  const runner = new EmailRunner({
    db: database.db,
    mailer,
    shopNames: names,
    appUrl,
    logger: o.logger,
    options: { ...options, leaseMs: o.config.worker.leaseMs, pollMs: o.config.worker.pollMs * 4 },
  });
  const accountant = new AccountantEmailRunner({
    db: database.db,
    mailer,
    shopName: async (shop) => {
      const name = await names(shop);
      return name.ok ? name.data.name : shop;
    },
    logger: o.logger,
    // The month's e-mail is looked for every few seconds: one statement, and at most once per shop and month.
    options: { ...options, leaseMs: o.config.worker.leaseMs, pollMs: o.config.worker.pollMs * 20 },
    ...(o.clock ? { now: o.clock } : {}),
  });
  return { mailer, runner, accountant };
}
