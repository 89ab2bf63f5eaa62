// `npm start`: with real configuration, the app; with none, the demo (simulated Shopify store and gateway).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Session } from '@shopify/shopify-api';
import { type AppParts, type StartOptions, startApp } from './app.ts';
import { type AppConfig, ConfigError, type MailSettings, loadConfig } from './config/env.ts';
import type { GatewaySettings } from './gateway/gateway-client.ts';
import { type Logger, createLogger } from './logger.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { resolveEncryptionKey } from './shops/encryption-key.ts';

/**
 * The demo and its doubles (sandbox gateway, store simulator, mail catcher) are loaded from source at run time, only
 * when there is no configuration: a computed specifier, which esbuild does not follow, so the bundle of a configured
 * app (dist/main.js) holds none of them nor their packages (test/integration/bundle/production-bundle.test.ts).
 */
const DEMO_MODULE = pathToFileURL(path.join(PROJECT_ROOT, 'sim', 'demo', 'demo-setup.ts')).href;

/** What sim/demo/demo-setup.ts exports. */
export interface DemoModule {
  prepareDemo(config: AppConfig, host: DemoHost): Promise<PreparedDemo>;
}

/** The doubles started, and how to start the app against them. */
export interface PreparedDemo {
  shopify: StartOptions['shopify'];
  gateway: GatewaySettings;
  mail: MailSettings;
  /** Install the demo shop in the started app; closing what it returns stops the app, then the doubles. */
  afterStart(app: AppParts): Promise<{ close(): Promise<void> }>;
  /** Stop the doubles (the app did not start). */
  close(): Promise<void>;
}

/** What the app does for the demo, so the demo loads none of src/ at run time (a second copy beside the bundle). */
export interface DemoHost {
  /** Keep a custom app's static Admin API token as the shop's offline session. */
  storeOfflineSession(app: AppParts, shop: string, accessToken: string, scope: string): Promise<void>;
}

const demoHost: DemoHost = {
  async storeOfflineSession(app, shop, accessToken, scope) {
    const id = app.shopify.session.getOfflineId(shop);
    await app.sessions.storeSession(new Session({ id, shop, state: 'demo', isOnline: false, accessToken, scope }));
  },
};

async function loadDemo(): Promise<DemoModule> {
  try {
    return (await import(DEMO_MODULE)) as DemoModule;
  } catch (error) {
    // The doubles' packages are development dependencies: an install with --omit=dev has no demo.
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      `the demo (no configuration given) needs the development packages, which are not installed: ${(error as Error).message}. ` +
        'Run `npm install` without --omit=dev, or configure the app (SHOPIFY_API_KEY, GATEWAY_BASE_URL…).',
      { cause: error },
    );
  }
}

async function startDemo(config: AppConfig, logger: Logger, encryptionKey: Buffer): Promise<{ close(): Promise<void> }> {
  const { prepareDemo } = await loadDemo();
  const demo = await prepareDemo(config, demoHost);
  try {
    const app = await startApp({ config, logger, encryptionKey, shopify: demo.shopify, gateway: demo.gateway, mail: demo.mail });
    return await demo.afterStart(app);
  } catch (error) {
    await demo.close();
    throw error;
  }
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const encryptionKey = resolveEncryptionKey(config.encryptionKey, config.dataDir, logger);

  let running: { close(): Promise<void> };
  if (config.demo) {
    running = await startDemo(config, logger, encryptionKey);
  } else {
    const app = await startApp({
      config,
      logger,
      encryptionKey,
      shopify: config.shopify ?? missing('SHOPIFY_API_KEY'),
      gateway: config.gateway ?? missing('GATEWAY_BASE_URL'),
    });
    logger.info({ url: app.url }, 'app listening');
    running = app;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the invoices in hand');
    // Every call in flight ends by its deadline (the whole answer included); past this bound, stop anyway: a document
    // whose step was not saved is taken up again after the restart, its number kept.
    const bound = shutdownBoundMs(config);
    setTimeout(() => {
      logger.error({ boundMs: bound }, 'stopping: calls still in flight past the shutdown bound; exiting');
      process.exit(1);
    }, bound).unref();
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** How long a stop may take: one gateway call, one Admin API call, and the database's own work. */
function shutdownBoundMs(config: Pick<AppConfig, 'gatewayTimeoutMs' | 'shopifyAdmin'>): number {
  return config.gatewayTimeoutMs + config.shopifyAdmin.timeoutMs + 5_000;
}

function missing(name: string): never {
  throw new ConfigError([`${name}: required`]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `start-up failed: ${error.message}` : error);
  process.exit(1);
});
