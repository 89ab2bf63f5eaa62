// The app as a process: its configuration (src/config/env.ts), its log, the app, and a clean stop on SIGINT and
// SIGTERM. `node src/main.ts` runs it as configured; `npm start` (scripts/start.ts) also hands it the demo, which
// runs when nothing is configured.
import { type AppParts, startApp } from './app.ts';
import { type AppConfig, ConfigError, loadConfig } from './config/env.ts';
import { type Logger, createLogger } from './logger.ts';
import { resolveEncryptionKey } from './shops/encryption-key.ts';

/** Starts the demo: a simulated store and gateway on this machine, and the app against them. */
export type StartDemo = (config: AppConfig, logger: Logger) => Promise<AppParts>;

export async function run(startDemo?: StartDemo): Promise<void> {
  try {
    await serve(startDemo);
  } catch (error) {
    console.error(error instanceof Error ? `start-up failed: ${error.message}` : error);
    process.exit(1);
  }
}

async function serve(startDemo: StartDemo | undefined): Promise<void> {
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

  const demo = config.demo && startDemo;
  const running = demo
    ? await demo(config, logger)
    : await startApp({
        config,
        logger,
        shopify: config.shopify ?? missing('SHOPIFY_API_KEY'),
        gateway: config.gateway ?? missing('GATEWAY_BASE_URL'),
        encryptionKey: resolveEncryptionKey(config.encryptionKey, config.dataDir, logger),
      });
  if (!demo) logger.info({ url: running.url }, 'app listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the invoices in hand');
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

function missing(name: string): never {
  // With nothing configured at all, only `npm start` has the demo to run instead.
  throw new ConfigError([`${name}: required (with no configuration at all, \`npm start\` runs the demo)`]);
}
