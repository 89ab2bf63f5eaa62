// The demo: everything on one machine with no configuration. The embedded database, the sandbox gateway
// and the store simulator run in this process; one demo shop is installed, configured and enabled.
//
// src/main.ts loads this module by path at run time, only for the demo, so the production bundle holds none of
// the doubles. It imports nothing of src/ at run time (types only): it tells main how to start the app (the
// Shopify, gateway and mail settings of its doubles) and installs its shop in the app main started (`afterStart`),
// with what main hands it (`DemoHost`).
import fs from 'node:fs';
import path from 'node:path';
import type { AppParts } from '../../src/app.ts';
import type { AppConfig } from '../../src/config/env.ts';
import type { DemoHost, PreparedDemo } from '../../src/main.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from '../sandbox/sandbox-gateway.ts';
import { startSandboxServer } from '../sandbox/sandbox-server.ts';
import { startStoreSimulator } from '../store-simulator/store-simulator.ts';
import { startMailCatcher } from './mail-catcher.ts';

export const DEMO_SHOP = 'tienda-demo-pa.myshopify.com';
const DEMO_SHOP_NAME = 'Tienda Demo PA';
const DEMO_MAIL_FROM = 'facturas@tienda-demo-pa.example';
const DEMO_API_KEY = 'demo-api-key';
// Not a secret: it only signs webhooks between the demo's own simulator and app.
const DEMO_API_SECRET = 'demo-api-secret-not-for-production';

/** What `npm run demo` needs to drive the running demo, written to <data dir>/demo.json. */
export interface DemoInfo {
  appUrl: string;
  simulatorOrigin: string;
  sandboxUrl: string;
  shop: string;
  /** The shop's name in Shopify: the From name and subject of its buyers' e-mails. */
  shopName: string;
  webhookAddress: string;
  refundsAddress: string;
  /** Where the mail catcher keeps each e-mail (.eml files and index.json); absent with real SMTP. */
  mailDir?: string;
}

export function demoInfoFile(dataDir: string): string {
  return path.join(dataDir, 'demo.json');
}

export function demoMailDir(dataDir: string): string {
  return path.join(dataDir, 'demo-mail');
}

// demo.json holds the simulator's origin and the shop: the data directory's owner alone reads it, like its other files.
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
const DEMO_SCOPES = ['read_orders', 'write_orders', 'read_locations'];

/** Start the doubles; the app is started by main with the settings returned, then handed to `afterStart`. */
export async function prepareDemo(config: AppConfig, host: DemoHost): Promise<PreparedDemo> {
  const sandbox = await startSandboxServer({});
  const simulator = await startStoreSimulator({ apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET, controlApi: true });
  // Buyers' e-mails go to a catcher on loopback, unless SMTP is configured.
  const catcher = config.mail ? undefined : await startMailCatcher({ dir: demoMailDir(config.dataDir) });
  const appUrl = `http://localhost:${config.port}`;
  const closeDoubles = async () => {
    await simulator.close();
    await sandbox.close();
    await catcher?.close();
  };

  async function afterStart(app: AppParts): Promise<{ close(): Promise<void> }> {
    // The demo shop, installed as a custom app would be: a static Admin API token, settings, enabled.
    const { accessToken } = simulator.addShop(DEMO_SHOP, { name: DEMO_SHOP_NAME, scope: DEMO_SCOPES.join(',') });
    // Two physical stores, for Configuración's locations (docs/series.md); their POS orders would carry these ids.
    simulator.addLocation(DEMO_SHOP, { id: 71_000_000_001, name: 'Tienda Colón' });
    simulator.addLocation(DEMO_SHOP, { id: 71_000_000_002, name: 'Tienda David' });
    await host.storeOfflineSession(app, DEMO_SHOP, accessToken, DEMO_SCOPES.join(','));
    await app.shops.ensureInstalled(DEMO_SHOP);
    const current = await app.shops.get(DEMO_SHOP);
    await app.shops.saveSettings(DEMO_SHOP, {
      ...current!.settings,
      environment: 'pruebas',
      credentials: DEFAULT_SANDBOX_CREDENTIALS,
      enabled: true,
    });

    const info: DemoInfo = {
      appUrl,
      simulatorOrigin: simulator.origin,
      sandboxUrl: sandbox.url,
      shop: DEMO_SHOP,
      shopName: DEMO_SHOP_NAME,
      webhookAddress: `${app.url}/webhooks/orders/paid`,
      refundsAddress: `${app.url}/webhooks/refunds/create`,
      ...(catcher ? { mailDir: demoMailDir(config.dataDir) } : {}),
    };
    // With PostgreSQL and ENCRYPTION_KEY set the app may not have made the data directory.
    fs.mkdirSync(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    fs.writeFileSync(demoInfoFile(config.dataDir), JSON.stringify(info, null, 2), { mode: PRIVATE_FILE_MODE });

    console.log(
      [
        '',
        'Factura electrónica PA — demo running (no configuration given, so everything is simulated).',
        `  App:               ${appUrl}   (admin page: ${appUrl}/admin)`,
        `  Sandbox gateway:   ${sandbox.url}   (environment: pruebas)`,
        `  Store simulator:   ${simulator.origin}   (demo shop ${DEMO_SHOP})`,
        catcher
          ? `  Mail catcher:      ${catcher.url}   (buyers' e-mails, each saved in ${demoMailDir(config.dataDir)})`
          : '  E-mail:            through the configured SMTP server',
        `  Database:          ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${path.join(config.dataDir, 'pglite')}`}`,
        '',
        'Next: in another terminal run `npm run demo` to send a few paid orders through it and refund one;',
        'each order prints its fiscal number, CUFE, QR address, PDF link and the e-mail the buyer got, and the refund its',
        'credit note. Ctrl+C stops the demo.',
        '',
      ].join('\n'),
    );

    return {
      async close() {
        await app.close();
        await closeDoubles();
      },
    };
  }

  return {
    shopify: { apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET, appUrl, scopes: DEMO_SCOPES, adminApiOrigin: simulator.origin },
    gateway: { baseUrl: sandbox.url, authToken: DEFAULT_SANDBOX_AUTH_TOKEN, authScheme: 'bearer', timeoutMs: config.gatewayTimeoutMs },
    mail: config.mail ?? { smtpUrl: catcher!.url, from: DEMO_MAIL_FROM, maxAttempts: 10, retryBaseMs: 1_000, retryMaxMs: 60_000 },
    afterStart,
    close: closeDoubles,
  };
}
