// The whole product on loopback for a test: sandbox gateway, store simulator and the app, on a given database.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Session } from '@shopify/shopify-api';
import { type AppParts, startApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/env.ts';
import type { Database } from '../../src/db/database.ts';
import { type Logger, silentLogger } from '../../src/logger.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS, type SandboxGatewayOptions } from '../sandbox/sandbox-gateway.ts';
import { type RunningSandbox, startSandboxServer } from '../sandbox/sandbox-server.ts';
import { type StoreSimulator, startStoreSimulator } from '../store-simulator/store-simulator.ts';
import type { SettingsInput } from '../../src/shops/shop-settings.ts';

export const TEST_API_KEY = 'test-api-key';
export const TEST_API_SECRET = 'test-api-secret';
/** The app's declared scopes (shopify.app.toml). */
export const TEST_SCOPES = 'read_orders,write_orders,read_customers,read_locations';

export interface Harness {
  app: AppParts;
  sandbox: RunningSandbox;
  simulator: StoreSimulator;
  webhookAddress: string;
  /** `name`: the shop's name in Shopify (the From name of buyer e-mails); `scope`: the scopes it grants (TEST_SCOPES). */
  installShop(shop: string, settings?: Partial<SettingsInput>, options?: { name?: string; scope?: string }): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  database: Database;
  sandbox?: SandboxGatewayOptions;
  env?: Record<string, string>;
  gatewayTimeoutMs?: number;
  logger?: Logger;
  /** Reuse a running sandbox (e.g. in another process). */
  sandboxUrl?: string;
  /**
   * Route the app's calls through something (a fault proxy): each function gets the address the app would use (the
   * gateway's base URL, the Admin API's origin) and returns the one it should use instead.
   */
  through?: { gateway?: (url: string) => Promise<string>; admin?: (origin: string) => Promise<string> };
  /** The app's clock for what depends on the date (the accountant's monthly e-mail); the system's otherwise. */
  clock?: () => Date;
  /** The app's encryption key (another app on the same database needs the same one); a random one otherwise. */
  encryptionKey?: Buffer;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function startHarness(o: HarnessOptions): Promise<Harness> {
  const sandbox = await startSandboxServer(o.sandbox ?? {});
  const simulator = await startStoreSimulator({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BIND_ADDRESS: '127.0.0.1',
    WORKER_POLL_MS: '50',
    WORKER_RETRY_BASE_MS: '20',
    WORKER_RETRY_MAX_MS: '200',
    WORKER_LEASE_MS: '10000',
    GATEWAY_TIMEOUT_MS: String(o.gatewayTimeoutMs ?? 5000),
    ...o.env,
  });
  const appUrl = `http://127.0.0.1:${port}`;
  const gatewayUrl = o.sandboxUrl ?? sandbox.url;
  const app = await startApp({
    config,
    logger: o.logger ?? silentLogger,
    encryptionKey: o.encryptionKey ?? randomBytes(32),
    shopify: {
      apiKey: TEST_API_KEY,
      apiSecret: TEST_API_SECRET,
      appUrl,
      scopes: ['read_orders', 'write_orders', 'read_customers', 'read_locations'],
      adminApiOrigin: o.through?.admin ? await o.through.admin(simulator.origin) : simulator.origin,
    },
    gateway: {
      baseUrl: o.through?.gateway ? await o.through.gateway(gatewayUrl) : gatewayUrl,
      authToken: DEFAULT_SANDBOX_AUTH_TOKEN,
      authScheme: 'bearer',
      timeoutMs: config.gatewayTimeoutMs,
    },
    database: o.database,
    ...(o.clock ? { clock: o.clock } : {}),
  });

  return {
    app,
    sandbox,
    simulator,
    webhookAddress: `${app.url}/webhooks/orders/paid`,
    async installShop(shop, settings = {}, options = {}) {
      const scope = options.scope ?? TEST_SCOPES;
      const { accessToken } = simulator.addShop(shop, {
        scope,
        ...(options.name === undefined ? {} : { name: options.name }),
      });
      await app.sessions.storeSession(
        new Session({
          id: app.shopify.session.getOfflineId(shop),
          shop,
          state: 'test',
          isOnline: false,
          accessToken,
          scope,
        }),
      );
      await app.shops.ensureInstalled(shop);
      const current = await app.shops.get(shop);
      // Each shop is its own taxpayer at the sandbox, so fiscal numbers never collide between shops.
      const result = await app.shops.saveSettings(shop, {
        ...current!.settings,
        credentials: credentialsFor(shop),
        enabled: true,
        ...settings,
      });
      if (!result.ok) throw new Error(result.problems.join('; '));
    },
    async close() {
      await app.close();
      await simulator.close();
      await sandbox.close();
    },
  };
}

/** The sandbox credentials of a test shop: the default ones with the shop as taxpayer user. */
export function credentialsFor(shop: string) {
  return { ...DEFAULT_SANDBOX_CREDENTIALS, Company: shop };
}

/** Poll until `check` returns a value other than undefined/false, or fail after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
