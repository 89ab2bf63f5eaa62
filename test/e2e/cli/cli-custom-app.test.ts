// The custom-app path from the operators' CLI alone, in real processes: `shops add` (the Admin API token
// on stdin), `shops configure` with the settings file from docs/merchants.md, then the app (`src/main.ts`)
// on the same data against the store simulator and the sandbox gateway: a signed orders/paid arrives, the
// invoice is authorized and written back; `invoices list|show|retry` read and requeue. Bad input gets
// exit code 2 or 1, a clear message, and no secret in any output.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseChildEnvironment } from '../../../src/config/env.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../../../sim/sandbox/sandbox-gateway.ts';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { type StoreSimulator, startStoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { APP_START_ARGS, CLI_START_ARGS } from '../../../sim/harness/app-process.ts';
import { createFreshPostgresDatabase, postgresUrlForTests } from '../../../sim/harness/databases.ts';
import { freePort, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';
import { ROOT } from '../../support/paths.ts';

const SHOP = 'tienda-custom.myshopify.com';
const API_KEY = 'custom-app-api-key';
const API_SECRET = 'custom-app-api-secret-0123456789';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The settings example of docs/merchants.md, exactly as a reader would copy it. */
function documentedSettings(): string {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'merchants.md'), 'utf8');
  const block = /<!-- settings-example[^>]*-->\s*```json\n([\s\S]*?)\n```/.exec(doc);
  if (!block?.[1]) throw new Error('docs/merchants.md has no settings example');
  return block[1];
}

interface Target {
  name: string;
  open(): Promise<{ env: Record<string, string>; close(): Promise<void> }>;
}

const targets: Target[] = [
  { name: 'pglite', open: async () => ({ env: {}, close: async () => {} }) },
  ...(postgresUrlForTests
    ? [
        {
          name: 'postgres',
          async open() {
            const fresh = await createFreshPostgresDatabase(postgresUrlForTests!);
            return { env: { DATABASE_URL: fresh.url }, close: fresh.drop };
          },
        },
      ]
    : []),
];

describe.each(targets)('custom app from the CLI on $name', (target) => {
  let dataDir: string;
  let dbEnv: { env: Record<string, string>; close(): Promise<void> };
  let simulator: StoreSimulator;
  let sandbox: RunningSandbox;
  let accessToken: string;
  let settingsFile: string;
  const outputs: string[] = [];
  const credentialValues: string[] = [];

  const env = (extra: Record<string, string> = {}) => ({
    ...baseChildEnvironment(),
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ...dbEnv.env,
    ...extra,
  });

  function cli(args: string[], input?: string): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...CLI_START_ARGS, ...args], { cwd: ROOT, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        outputs.push(stdout, stderr);
        resolve({ code, stdout, stderr });
      });
      child.stdin.end(input ?? '');
    });
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-custom-app-'));
    dbEnv = await target.open();
    simulator = await startStoreSimulator({ apiKey: API_KEY, apiSecret: API_SECRET });
    sandbox = await startSandboxServer({});
    accessToken = simulator.addShop(SHOP).accessToken;
    settingsFile = path.join(dataDir, 'settings.json');
    const settings = documentedSettings();
    fs.writeFileSync(settingsFile, settings);
    credentialValues.push(
      ...Object.values((JSON.parse(settings) as { credentials: Record<string, string> }).credentials).filter((v) => v !== 'EBI'),
    );
  });
  afterAll(async () => {
    await simulator?.close();
    await sandbox?.close();
    await dbEnv?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses bad input with exit code 2 and one clear line, never echoing the token', async () => {
    const badShop = await cli(['shops', 'add', '--shop', 'not a shop', '--access-token', accessToken]);
    expect(badShop).toMatchObject({ code: 2, stdout: '' });
    expect(badShop.stderr).toBe("shops add: --shop must be the store's myshopify.com domain, e.g. tienda.myshopify.com\n");
    expect((await cli(['shops', 'frobnicate'])).code).toBe(2);

    // Nothing was stored. The first command to open the data made the encryption key, and said so.
    const listed = await cli(['shops', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(listed.stderr).toContain(`note: made a new encryption key at ${path.join(dataDir, 'encryption.key')}`);
    expect(fs.statSync(path.join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);
    for (const out of outputs) expect(out).not.toContain(accessToken);
  }, 120_000);

  it('adds the store with the token read from stdin: installed, disabled until configured', async () => {
    const added = await cli(['shops', 'add', '--shop', 'Tienda-Custom.myshopify.com', '--access-token', '-'], `${accessToken}\n`);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      [
        `Shop ${SHOP} added as a custom app: access token stored encrypted.`,
        `Invoicing is off until the settings are complete: npm run cli -- shops configure --shop ${SHOP} --file <settings.json>`,
        '',
      ].join('\n'),
    );
    expect(added.stderr).toBe('');

    const listed = await cli(['shops', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      { shop: SHOP, enabled: false, installed: true, pausedReason: null, environment: 'pruebas', access: 'static token' },
    ]);
  }, 120_000);

  it('refuses to configure a shop it does not know (exit 1), changing nothing', async () => {
    const unknown = await cli(['shops', 'configure', '--shop', 'otra-tienda.myshopify.com', '--file', settingsFile]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^shops configure: shop otra-tienda\.myshopify\.com is not known here: add it first/);
    expect(JSON.parse((await cli(['shops', 'list', '--json'])).stdout)).toMatchObject([{ shop: SHOP, enabled: false }]);
  }, 120_000);

  it('configures the shop with the documented settings file; no credential is printed', async () => {
    const configured = await cli(['shops', 'configure', '--shop', SHOP, '--file', settingsFile]);
    expect(configured.code).toBe(0);
    expect(configured.stdout).toBe(
      [
        `Settings saved for ${SHOP}.`,
        '  environment:   pruebas',
        '  branch, point: 0000, 001',
        '  credentials:   set (new)',
        '  invoicing:     enabled',
        '',
      ].join('\n'),
    );
    const table = await cli(['shops', 'list']);
    expect(table.stdout.split('\n')).toEqual([
      'SHOP                         INSTALLED  ENABLED  ENVIRONMENT  ACCESS        PAUSED',
      `${SHOP}  yes        yes      pruebas      static token  -`,
      '',
    ]);
    for (const out of outputs) for (const value of credentialValues) expect(out).not.toContain(value);
  }, 120_000);

  it('the app on the same data invoices a signed orders/paid and writes it back; the CLI reads and requeues', async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const app: ChildProcess = spawn(process.execPath, APP_START_ARGS, {
      cwd: ROOT,
      env: env({
        PORT: String(port),
        BIND_ADDRESS: '127.0.0.1',
        SHOPIFY_API_KEY: API_KEY,
        SHOPIFY_API_SECRET: API_SECRET,
        SHOPIFY_APP_URL: appUrl,
        SHOPIFY_ADMIN_API_ORIGIN: simulator.origin,
        GATEWAY_BASE_URL: sandbox.url,
        GATEWAY_AUTH_TOKEN: DEFAULT_SANDBOX_AUTH_TOKEN,
        WORKER_POLL_MS: '50',
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let appOutput = '';
    app.stdout!.on('data', (d: Buffer) => (appOutput += d.toString()));
    app.stderr!.on('data', (d: Buffer) => (appOutput += d.toString()));
    const exited = new Promise<number | null>((resolve) => app.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        async () => appOutput.includes('"msg":"app listening"') || (app.exitCode !== null && Promise.reject(new Error(appOutput))),
        30_000,
        'the app to listen',
      );

      // A buyer's RUC with a wrong check digit: the order cannot be invoiced as it is (needs attention).
      const unmappable = {
        ...makePaidOrder({ id: 5_900_000_001_002 }),
        note_attributes: [
          { name: 'ruc', value: '155596713-2-2015' },
          { name: 'dv', value: '00' },
        ],
      };
      expect((await simulator.orderPaid(SHOP, unmappable, `${appUrl}/webhooks/orders/paid`)).status).toBe(200);
      // 2 × 24.50 at 7 % + 18.00 exempt + 5.00 shipping at 7 %: 49.00 + 3.43 + 18.00 + 5.00 + 0.35 = 75.78
      const good = await simulator.orderPaid(
        SHOP,
        makePaidOrder({ id: 5_900_000_001_001, shippingCents: 500 }),
        `${appUrl}/webhooks/orders/paid`,
      );
      expect(good.status).toBe(200);
      expect(JSON.parse(good.body)).toEqual({ outcome: 'stored' });

      const gid = 'gid://shopify/Order/5900000001001';
      const fields = await waitFor(
        async () => {
          const written = simulator.metafields(gid, SHOP);
          return written.length === 7 ? Object.fromEntries(written.map((m) => [m.key, m.value])) : undefined;
        },
        30_000,
        'the metafields on the order',
      );
      expect(fields['fiscal_number']).toBe('0000-001-0000000001');
      expect(fields['cufe']).toMatch(/^FE01\d{2}/);
      expect(fields['pdf_url']).toMatch(new RegExp(`^${appUrl}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
      const pdf = await fetch(fields['pdf_url']!);
      expect(pdf.status).toBe(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    } finally {
      // SIGTERM: the app finishes the invoices in hand, then exits (the embedded database is single-process).
      app.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    for (const secret of [accessToken, ...credentialValues, API_SECRET]) expect(appOutput).not.toContain(secret);

    const listed = await cli(['invoices', 'list', '--shop', SHOP, '--json']);
    expect(listed.code).toBe(0);
    const invoices = JSON.parse(listed.stdout) as Record<string, unknown>[];
    const byOrder = Object.fromEntries(invoices.map((i) => [i['orderName'], i]));
    expect(Object.keys(byOrder).sort()).toEqual(['#1001', '#1002']);
    const authorized = simulator.metafields('gid://shopify/Order/5900000001001', SHOP).find((m) => m.key === 'cufe')!.value;
    expect(byOrder['#1001']).toMatchObject({
      shop: SHOP,
      status: 'completed',
      step: 'done',
      fiscalNumber: '0000-001-0000000001',
      total: '75.78',
      currency: 'USD',
      cufe: authorized,
      lastError: null,
    });
    expect(byOrder['#1002']).toMatchObject({ status: 'needs_attention', step: 'send', fiscalNumber: null, cufe: null });
    expect(String(byOrder['#1002']!['lastError'])).toMatch(/155596713-2-2015/);

    const goodId = String(byOrder['#1001']!['id']);
    const badId = String(byOrder['#1002']!['id']);
    const shown = await cli(['invoices', 'show', goodId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`status:            Authorized (completed)\n`);
    expect(shown.stdout).toContain(`cufe:              ${authorized}\n`);
    expect(shown.stdout).toMatch(/pdf: {15}stored, \d+ bytes, SHA-256 [0-9a-f]{64}\n/);
    // The PDF link's token is a credential: not printed.
    const pdfToken = /invoices\/([A-Za-z0-9_-]{32})\.pdf/.exec(
      simulator.metafields('gid://shopify/Order/5900000001001', SHOP).find((m) => m.key === 'pdf_url')!.value,
    )![1]!;
    expect(shown.stdout).not.toContain(pdfToken);

    const table = await cli(['invoices', 'list', '--status', 'completed']);
    expect(table.stdout.split('\n')[0]).toBe(
      'ID                                    SHOP                         ORDER  KIND     STATUS      STEP  NUMBER               TOTAL      CREATED (PANAMÁ)  LAST ERROR',
    );
    expect(table.stdout).toContain(`${goodId}  ${SHOP}  #1001  invoice  Authorized  done  0000-001-0000000001  75.78 USD`);

    const notRetryable = await cli(['invoices', 'retry', goodId]);
    expect(notRetryable).toMatchObject({ code: 1, stdout: '' });
    expect(notRetryable.stderr).toBe(
      `invoices retry: invoice ${goodId} is Authorized: only failed, needs-attention, waiting or retrying documents can be retried\n`,
    );
    expect((await cli(['invoices', 'retry', '00000000-0000-4000-8000-000000000000'])).code).toBe(1);
    expect((await cli(['invoices', 'retry', badId, '--failed'])).code).toBe(2);

    const none = await cli(['invoices', 'retry', '--failed', '--status', 'failed', '--shop', SHOP]);
    expect(none).toMatchObject({ code: 0, stdout: `0 invoices (failed) back in the queue for ${SHOP}.\n` });

    const requeued = await cli(['invoices', 'retry', badId]);
    expect(requeued).toMatchObject({ code: 0, stdout: `Invoice ${badId} (${SHOP} #1002) is back in the queue.\n`, stderr: '' });
    const pending = JSON.parse((await cli(['invoices', 'list', '--status', 'pending', '--json'])).stdout) as { id: string }[];
    expect(pending.map((i) => i.id)).toEqual([badId]);

    for (const out of outputs) {
      expect(out).not.toContain(accessToken);
      for (const value of credentialValues) expect(out).not.toContain(value);
    }
  }, 180_000);
});
