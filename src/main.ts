// `npm start`: with real configuration, the app; with none, the demo (simulated Shopify store and gateway).
import { ConfigError, loadConfig } from './config/env.ts';
import { createLogger } from './logger.ts';
import { startApp } from './app.ts';
import { resolveEncryptionKey } from './shops/encryption-key.ts';

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

  // The demo's simulators are loaded only for the demo.
  const running = config.demo
    ? await (await import('../sim/demo/demo-setup.ts')).startDemo(config, logger)
    : await startApp({
        config,
        logger,
        encryptionKey: resolveEncryptionKey(config.encryptionKey, config.dataDir, logger),
        shopify: config.shopify ?? missing('SHOPIFY_API_KEY'),
        gateway: config.gateway ?? missing('GATEWAY_BASE_URL'),
      });
  if (!config.demo) logger.info({ url: running.url }, 'app listening');

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
  throw new ConfigError([`${name}: required`]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `start-up failed: ${error.message}` : error);
  process.exit(1);
});
