// The one place that reads the environment. Everything else receives a typed `AppConfig`.
import path from 'node:path';
import { z } from 'zod';

const boolish = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform((u) => u.replace(/\/+$/, ''));

/** Every variable the app reads, with its default. docs/operators.md's configuration table mirrors this. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: loopback for the demo (its token route must not face a network), every interface otherwise. */
  BIND_ADDRESS: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Off behind a connection pooler that cannot keep named prepared statements (docs/operators.md). */
  DATABASE_PREPARED_STATEMENTS: boolish.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  SHOPIFY_API_KEY: z.string().min(1).optional(),
  SHOPIFY_API_SECRET: z.string().min(1).optional(),
  SHOPIFY_APP_URL: httpUrl.optional(),
  SHOPIFY_SCOPES: z.string().min(1).default('read_orders,write_orders,read_customers,read_locations'),
  SHOPIFY_ADMIN_API_ORIGIN: httpUrl.optional(),

  GATEWAY_BASE_URL: httpUrl.optional(),
  GATEWAY_AUTH_TOKEN: z.string().min(1).optional(),
  GATEWAY_AUTH_SCHEME: z.enum(['bearer', 'bare']).default('bearer'),
  GATEWAY_CONCURRENCY: positiveInt.default(8),
  GATEWAY_TIMEOUT_MS: positiveInt.default(30_000),
  GATEWAY_MAX_ANSWER_BYTES: positiveInt.default(256 * 1024),
  GATEWAY_MAX_PDF_BYTES: positiveInt.default(5 * 1024 * 1024),
  SHOPIFY_TIMEOUT_MS: positiveInt.default(15_000),
  SHOPIFY_MAX_ANSWER_BYTES: positiveInt.default(16 * 1024 * 1024),

  ENCRYPTION_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex characters or base64')
    .optional(),

  WEBHOOK_BODY_LIMIT_BYTES: positiveInt.default(2 * 1024 * 1024),
  BODY_BYTES_IN_FLIGHT: positiveInt.default(8 * 1024 * 1024),
  WORKER_ENABLED: boolish.default(true),
  WORKER_CONCURRENCY: positiveInt.default(16),
  WORKER_SHOP_CONCURRENCY: positiveInt.default(8),
  WORKER_POLL_MS: positiveInt.default(250),
  WORKER_LEASE_MS: positiveInt.default(120_000),
  WORKER_MAX_ATTEMPTS: positiveInt.default(8),
  WORKER_RETRY_BASE_MS: positiveInt.default(2_000),
  WORKER_RETRY_MAX_MS: positiveInt.default(15 * 60_000),
  RECONCILE_INTERVAL_MINUTES: z.coerce.number().int().min(0).default(15),
  RECONCILE_WINDOW_HOURS: positiveInt.default(48),
  BUYER_LINK_REQUESTS_PER_MINUTE: positiveInt.default(60),
  BUYER_ADDRESS_REQUESTS_PER_MINUTE: positiveInt.default(120),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),

  SMTP_URL: z
    .string()
    .refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.com:587')
    .optional(),
  MAIL_FROM: z.email({ error: 'must be an e-mail address, e.g. facturas@example.com' }).optional(),
  MAIL_MAX_ATTEMPTS: positiveInt.default(10),
  MAIL_RETRY_BASE_MS: positiveInt.default(60_000),
  MAIL_RETRY_MAX_MS: positiveInt.default(3_600_000),

  /**
   * Tests only (refused unless NODE_ENV=test): the instant the app's clock reads at start-up, running on at the real
   * rate from there. What month has ended (the accountant's e-mail) and which months may be reported follow it, so a
   * test of app processes can take them across the 1st. Not the documents' times: those stay the system's.
   */
  TEST_CLOCK_START: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant, e.g. 2026-11-30T23:59:58-05:00' }).optional(),
});

/** Checked without ever putting the value (it may hold a password) in a message. */
function isSmtpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

type Env = z.infer<typeof envSchema>;

/** The variables the app reads (docs/operators.md's table lists each one). */
export const ENV_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];

export interface AppConfig {
  nodeEnv: Env['NODE_ENV'];
  /** No Shopify or gateway configuration: run the in-process simulators and a demo shop. */
  demo: boolean;
  port: number;
  bindAddress: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: each connection prepares the app's statements once (DATABASE_PREPARED_STATEMENTS). */
  databasePreparedStatements: boolean;
  logLevel: Env['LOG_LEVEL'];
  shopify:
    | {
        apiKey: string;
        apiSecret: string;
        appUrl: string;
        scopes: string[];
        adminApiOrigin: string | undefined;
      }
    | undefined;
  gateway:
    | {
        baseUrl: string;
        authToken: string;
        authScheme: 'bearer' | 'bare';
        timeoutMs: number;
      }
    | undefined;
  gatewayTimeoutMs: number;
  /** What a gateway answer may weigh: JSON answers, and the PDF of a DownloadPDF answer. */
  gatewayLimits: { maxAnswerBytes: number; maxPdfBytes: number };
  /** One Admin API call, headers and body, and what its answer may weigh. */
  shopifyAdmin: { timeoutMs: number; maxAnswerBytes: number };
  encryptionKey: Buffer | undefined;
  webhookBodyLimitBytes: number;
  /** Bytes of request bodies read or handled at once; beyond, 503 with Retry-After. */
  bodyBytesInFlight: number;
  worker: {
    enabled: boolean;
    concurrency: number;
    shopConcurrency: number;
    /** Gateway calls in flight at once; fewer than `concurrency`, so database and Shopify work overlaps them. */
    gatewayConcurrency: number;
    pollMs: number;
    leaseMs: number;
    maxAttempts: number;
    retryBaseMs: number;
    retryMaxMs: number;
  };
  reconcile: { intervalMinutes: number; windowHours: number };
  /** The buyer's pages (docs/buyer-page.md): requests a minute per link and per client address, then 429. */
  buyerPage: { perLinkPerMinute: number; perAddressPerMinute: number };
  /** Who may read /metrics: anyone (development), holders of the bearer token, or nobody (production without one). */
  metrics: MetricsAccess;
  /** E-mail to buyers (SMTP_URL and MAIL_FROM); undefined: no delivery for any shop. */
  mail: MailSettings | undefined;
  /** TEST_CLOCK_START (tests only): where the app's clock starts; undefined: the system's clock. */
  testClockStart: Date | undefined;
}

export interface MailSettings {
  /** smtp:// or smtps://, user and password included: a secret, never logged or shown. */
  smtpUrl: string;
  /** The sender's address; the From name is the shop's. */
  from: string;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export type MetricsAccess = { kind: 'open' } | { kind: 'token'; token: string } | { kind: 'off' };

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const SHOPIFY_VARS = ['SHOPIFY_API_KEY', 'SHOPIFY_API_SECRET', 'SHOPIFY_APP_URL'] as const;
const GATEWAY_VARS = ['GATEWAY_BASE_URL', 'GATEWAY_AUTH_TOKEN'] as const;

/** Parse and check the environment. Throws a ConfigError with one line per problem; never echoes a value. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // An empty variable means "not set", as it does for most tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];

  const shopifySet = SHOPIFY_VARS.filter((k) => env[k] !== undefined);
  const gatewaySet = GATEWAY_VARS.filter((k) => env[k] !== undefined);
  const demo = shopifySet.length === 0 && gatewaySet.length === 0;
  if (!demo) {
    for (const k of SHOPIFY_VARS) if (env[k] === undefined) problems.push(`${k}: required once any Shopify or gateway setting is given`);
    for (const k of GATEWAY_VARS) if (env[k] === undefined) problems.push(`${k}: required once any Shopify or gateway setting is given`);
  }
  // A claimed invoice must outlive its slowest gateway call, or a second worker could take it over mid-call.
  if (env.WORKER_LEASE_MS < 2 * env.GATEWAY_TIMEOUT_MS) {
    problems.push(`WORKER_LEASE_MS: must be at least twice GATEWAY_TIMEOUT_MS (${2 * env.GATEWAY_TIMEOUT_MS})`);
  }
  if ((env.SMTP_URL === undefined) !== (env.MAIL_FROM === undefined)) {
    problems.push(env.SMTP_URL === undefined ? 'SMTP_URL: required with MAIL_FROM' : 'MAIL_FROM: required with SMTP_URL');
  }
  if (env.BODY_BYTES_IN_FLIGHT < env.WEBHOOK_BODY_LIMIT_BYTES) {
    problems.push(
      `BODY_BYTES_IN_FLIGHT: must be at least WEBHOOK_BODY_LIMIT_BYTES (${env.WEBHOOK_BODY_LIMIT_BYTES}), or the largest webhook could never be read`,
    );
  }
  if (env.NODE_ENV === 'production') {
    if (demo) problems.push('NODE_ENV=production needs the Shopify and gateway settings (the demo never runs in production)');
    if (env.ENCRYPTION_KEY === undefined) problems.push('ENCRYPTION_KEY: required in production');
    if (env.SHOPIFY_ADMIN_API_ORIGIN !== undefined)
      problems.push('SHOPIFY_ADMIN_API_ORIGIN: not allowed in production (it points Admin API calls away from Shopify)');
  }
  // A clock set by hand would send the accountant a month that has not ended: only a test may move it.
  if (env.TEST_CLOCK_START !== undefined && env.NODE_ENV !== 'test') {
    problems.push('TEST_CLOCK_START: allowed only with NODE_ENV=test (it moves the clock that says which month has ended)');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const key = env.ENCRYPTION_KEY;
  return {
    nodeEnv: env.NODE_ENV,
    demo,
    port: env.PORT,
    bindAddress: env.BIND_ADDRESS ?? (demo ? '127.0.0.1' : '0.0.0.0'),
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    logLevel: env.LOG_LEVEL,
    shopify: demo
      ? undefined
      : {
          apiKey: env.SHOPIFY_API_KEY!,
          apiSecret: env.SHOPIFY_API_SECRET!,
          appUrl: env.SHOPIFY_APP_URL!,
          scopes: env.SHOPIFY_SCOPES.split(',')
            .map((s) => s.trim())
            .filter(Boolean),
          adminApiOrigin: env.SHOPIFY_ADMIN_API_ORIGIN,
        },
    gateway: demo
      ? undefined
      : {
          baseUrl: env.GATEWAY_BASE_URL!,
          authToken: env.GATEWAY_AUTH_TOKEN!,
          authScheme: env.GATEWAY_AUTH_SCHEME,
          timeoutMs: env.GATEWAY_TIMEOUT_MS,
        },
    gatewayTimeoutMs: env.GATEWAY_TIMEOUT_MS,
    gatewayLimits: { maxAnswerBytes: env.GATEWAY_MAX_ANSWER_BYTES, maxPdfBytes: env.GATEWAY_MAX_PDF_BYTES },
    shopifyAdmin: { timeoutMs: env.SHOPIFY_TIMEOUT_MS, maxAnswerBytes: env.SHOPIFY_MAX_ANSWER_BYTES },
    encryptionKey: key === undefined ? undefined : Buffer.from(key, key.length === 64 ? 'hex' : 'base64'),
    webhookBodyLimitBytes: env.WEBHOOK_BODY_LIMIT_BYTES,
    bodyBytesInFlight: env.BODY_BYTES_IN_FLIGHT,
    worker: {
      enabled: env.WORKER_ENABLED,
      concurrency: env.WORKER_CONCURRENCY,
      shopConcurrency: env.WORKER_SHOP_CONCURRENCY,
      gatewayConcurrency: env.GATEWAY_CONCURRENCY,
      pollMs: env.WORKER_POLL_MS,
      leaseMs: env.WORKER_LEASE_MS,
      maxAttempts: env.WORKER_MAX_ATTEMPTS,
      retryBaseMs: env.WORKER_RETRY_BASE_MS,
      retryMaxMs: env.WORKER_RETRY_MAX_MS,
    },
    reconcile: { intervalMinutes: env.RECONCILE_INTERVAL_MINUTES, windowHours: env.RECONCILE_WINDOW_HOURS },
    buyerPage: { perLinkPerMinute: env.BUYER_LINK_REQUESTS_PER_MINUTE, perAddressPerMinute: env.BUYER_ADDRESS_REQUESTS_PER_MINUTE },
    // The app's port faces the internet (Shopify calls it): in production, metrics only for the token's holder.
    metrics:
      env.METRICS_TOKEN !== undefined
        ? { kind: 'token', token: env.METRICS_TOKEN }
        : env.NODE_ENV === 'production'
          ? { kind: 'off' }
          : { kind: 'open' },
    mail:
      env.SMTP_URL !== undefined && env.MAIL_FROM !== undefined
        ? {
            smtpUrl: env.SMTP_URL,
            from: env.MAIL_FROM,
            maxAttempts: env.MAIL_MAX_ATTEMPTS,
            retryBaseMs: env.MAIL_RETRY_BASE_MS,
            retryMaxMs: env.MAIL_RETRY_MAX_MS,
          }
        : undefined,
    testClockStart: env.TEST_CLOCK_START === undefined ? undefined : new Date(env.TEST_CLOCK_START),
  };
}

/** Test databases: the only other environment input, read here so the rule "one module reads env" holds. */
export function testDatabaseUrl(source: Record<string, string | undefined> = process.env): string | undefined {
  const url = source.TEST_DATABASE_URL;
  return url === undefined || url === '' ? undefined : url;
}

/** PostgreSQL for `npm run bench`: DATABASE_URL, else TEST_DATABASE_URL; undefined when neither is set. */
export function benchDatabaseUrl(source: Record<string, string | undefined> = process.env): string | undefined {
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL']) {
    const url = source[name];
    if (url !== undefined && url !== '') return url;
  }
  return undefined;
}

/** The minimal environment for a child process of ours (tests, bench): PATH and HOME, nothing configured. */
export function baseChildEnvironment(source: Record<string, string | undefined> = process.env): Record<string, string> {
  return { PATH: source.PATH ?? '/usr/bin:/bin', HOME: source.HOME ?? '/tmp' };
}
