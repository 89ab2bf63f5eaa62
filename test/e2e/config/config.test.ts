// Configuration: defaults, one readable line per problem, and a start-up that stops on bad values.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_VARIABLES, baseChildEnvironment, loadConfig } from '../../../src/config/env.ts';

const real = {
  SHOPIFY_API_KEY: 'key',
  SHOPIFY_API_SECRET: 'shpss_secret_value',
  SHOPIFY_APP_URL: 'https://facturas.example.com/',
  GATEWAY_BASE_URL: 'https://gateway.example.com/api/v1/GFGatewayEB',
  GATEWAY_AUTH_TOKEN: 'jwt-secret-value',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('runs the demo with no configuration, with every default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      demo: true,
      nodeEnv: 'development',
      port: 3000,
      bindAddress: '127.0.0.1',
      databaseUrl: undefined,
      logLevel: 'info',
      shopify: undefined,
      gateway: undefined,
      gatewayTimeoutMs: 30_000,
      encryptionKey: undefined,
      webhookBodyLimitBytes: 2_097_152,
      worker: {
        enabled: true,
        concurrency: 16,
        shopConcurrency: 8,
        gatewayConcurrency: 8,
        pollMs: 250,
        leaseMs: 120_000,
        maxAttempts: 8,
        retryBaseMs: 2000,
        retryMaxMs: 900_000,
      },
      reconcile: { intervalMinutes: 15, windowHours: 48 },
      metrics: { kind: 'open' },
      mail: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads the real settings, trimming the trailing slash of URLs', () => {
    const config = loadConfig({ ...real, GATEWAY_AUTH_SCHEME: 'bare', ENCRYPTION_KEY: 'ab'.repeat(32), DATABASE_URL: 'postgres://u@db/x' });
    expect(config.demo).toBe(false);
    expect(config.shopify).toEqual({
      apiKey: 'key',
      apiSecret: 'shpss_secret_value',
      appUrl: 'https://facturas.example.com',
      scopes: ['read_orders', 'write_orders', 'read_customers', 'read_locations'],
      adminApiOrigin: undefined,
    });
    expect(config.gateway).toEqual({
      baseUrl: 'https://gateway.example.com/api/v1/GFGatewayEB',
      authToken: 'jwt-secret-value',
      authScheme: 'bare',
      timeoutMs: 30_000,
    });
    expect(config.encryptionKey).toEqual(Buffer.alloc(32, 0xab));
  });

  it('names every bad value on its own line', () => {
    expect(problemsOf({ PORT: 'eighty', DATABASE_URL: 'mysql://x', GATEWAY_AUTH_SCHEME: 'basic', ENCRYPTION_KEY: 'short' })).toEqual([
      'PORT: Invalid input: expected number, received NaN',
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
      'GATEWAY_AUTH_SCHEME: Invalid option: expected one of "bearer"|"bare"',
      'ENCRYPTION_KEY: must be 32 bytes as 64 hex characters or base64',
    ]);
  });

  it('wants all of the real settings once one is given', () => {
    expect(problemsOf({ SHOPIFY_API_KEY: 'key' })).toEqual([
      'SHOPIFY_API_SECRET: required once any Shopify or gateway setting is given',
      'SHOPIFY_APP_URL: required once any Shopify or gateway setting is given',
      'GATEWAY_BASE_URL: required once any Shopify or gateway setting is given',
      'GATEWAY_AUTH_TOKEN: required once any Shopify or gateway setting is given',
    ]);
  });

  it('keeps a claimed invoice longer than the slowest gateway call', () => {
    expect(problemsOf({ GATEWAY_TIMEOUT_MS: '60000', WORKER_LEASE_MS: '90000' })).toEqual([
      'WORKER_LEASE_MS: must be at least twice GATEWAY_TIMEOUT_MS (120000)',
    ]);
  });

  it('in production: no demo, an encryption key, and no simulator origin', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'NODE_ENV=production needs the Shopify and gateway settings (the demo never runs in production)',
      'ENCRYPTION_KEY: required in production',
    ]);
    expect(
      problemsOf({ ...real, NODE_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), SHOPIFY_ADMIN_API_ORIGIN: 'http://127.0.0.1:9' }),
    ).toEqual(['SHOPIFY_ADMIN_API_ORIGIN: not allowed in production (it points Admin API calls away from Shopify)']);
  });

  it('metrics: open outside production, off in production without METRICS_TOKEN, behind the token with it', () => {
    const production = { ...real, NODE_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(loadConfig(production).metrics).toEqual({ kind: 'off' });
    expect(loadConfig({ ...production, METRICS_TOKEN: 'scrape-token-0123456789' }).metrics).toEqual({
      kind: 'token',
      token: 'scrape-token-0123456789',
    });
    expect(loadConfig({ METRICS_TOKEN: 'scrape-token-0123456789' }).metrics).toEqual({ kind: 'token', token: 'scrape-token-0123456789' });
    expect(problemsOf({ METRICS_TOKEN: 'short-token' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
  });

  it('buyer e-mail: SMTP_URL and MAIL_FROM together, checked without repeating the URL (it holds a password)', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:s3cret%40pw@mail.example.com:465', MAIL_FROM: 'facturas@example.com' }).mail).toEqual({
      smtpUrl: 'smtps://mailer:s3cret%40pw@mail.example.com:465',
      from: 'facturas@example.com',
      maxAttempts: 10,
      retryBaseMs: 60_000,
      retryMaxMs: 3_600_000,
    });
    const bad = problemsOf({ SMTP_URL: 'http://mailer:s3cret-pw@mail.example.com', MAIL_FROM: 'facturas' });
    expect(bad).toEqual([
      'SMTP_URL: must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.com:587',
      'MAIL_FROM: must be an e-mail address, e.g. facturas@example.com',
    ]);
    expect(bad.join('\n')).not.toContain('s3cret-pw');
    expect(problemsOf({ SMTP_URL: 'smtp://mail.example.com' })).toEqual(['MAIL_FROM: required with SMTP_URL']);
    expect(problemsOf({ MAIL_FROM: 'facturas@example.com' })).toEqual(['SMTP_URL: required with MAIL_FROM']);
  });

  it('the test clock: an ISO instant with its offset, only with NODE_ENV=test', () => {
    const start = '2026-11-30T23:59:58-05:00';
    expect(loadConfig({ NODE_ENV: 'test', TEST_CLOCK_START: start }).testClockStart).toEqual(new Date('2026-12-01T04:59:58Z'));
    expect(loadConfig({}).testClockStart).toBeUndefined();
    const refused = 'TEST_CLOCK_START: allowed only with NODE_ENV=test (it moves the clock that says which month has ended)';
    expect(problemsOf({ TEST_CLOCK_START: start })).toEqual([refused]);
    expect(problemsOf({ ...real, NODE_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), TEST_CLOCK_START: start })).toEqual([refused]);
    expect(problemsOf({ NODE_ENV: 'test', TEST_CLOCK_START: '30/11/2026' })).toEqual([
      'TEST_CLOCK_START: must be an ISO 8601 instant, e.g. 2026-11-30T23:59:58-05:00',
    ]);
  });

  it("the operators' guide's configuration table has a row for every variable, and no other", () => {
    const guide = fs.readFileSync(new URL('../../../docs/operators.md', import.meta.url), 'utf8');
    const start = guide.indexOf('\n## Configuration\n');
    expect(start).toBeGreaterThan(-1);
    const end = guide.indexOf('\n## ', start + 1);
    const section = guide.slice(start, end === -1 ? undefined : end);
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual(ENV_VARIABLES);
  });

  it('start-up stops with the problems and never prints a secret value', () => {
    const result = spawnSync(process.execPath, ['src/main.ts'], {
      env: { ...baseChildEnvironment(), ...real, PORT: '-1', GATEWAY_TIMEOUT_MS: '0' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Invalid configuration:',
      '  - PORT: Too small: expected number to be >=0',
      '  - GATEWAY_TIMEOUT_MS: Too small: expected number to be >0',
    ]);
    expect(result.stderr + result.stdout).not.toContain('shpss_secret_value');
    expect(result.stderr + result.stdout).not.toContain('jwt-secret-value');
  });
});
