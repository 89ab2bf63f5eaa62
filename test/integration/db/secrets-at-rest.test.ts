// No credential or token in plain text at rest or in the logs: after an OAuth install (access + refresh
// token), a token refresh, a custom-app token added as the CLI does, gateway credentials saved and
// invoices issued, every row of every table is read raw and searched for each secret; on PGlite the
// database files on disk are searched too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomAppShop, offlineSessionId } from '../../../src/cli/shops-command.ts';
import { type Database, openDatabase } from '../../../src/db/database.ts';
import { documents, schema } from '../../../src/db/schema.ts';
import type { GatewayCredentials } from '../../../src/gateway/gateway-types.ts';
import { createLogger } from '../../../src/logger.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../../../sim/sandbox/sandbox-gateway.ts';
import { postgresUrlForTests, testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, TEST_API_SECRET, startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { installViaOAuth } from '../../support/oauth-install.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const OAUTH_SHOP = 'tienda-secretos.myshopify.com';
const CUSTOM_SHOP = 'tienda-custom-secretos.myshopify.com';

/** Distinctive credentials, so a match cannot be a coincidence; the sandbox takes any Token not starting with "bad". */
function credentials(tag: string): GatewayCredentials {
  const r = () => randomBytes(6).toString('hex');
  return {
    GW_Company: `gwco-${tag}-${r()}`,
    GW_Token: `gwpass-${tag}-${r()}`,
    Id_Pac: 'EBI',
    Enterprise: `ent-${tag}-${r()}`,
    Company: `company-${tag}-${r()}`,
    Token: `token-${tag}-${r()}`,
  };
}

interface Target {
  name: string;
  open(): Promise<{ database: Database; dataDir: string | undefined }>;
}

const targets: Target[] = [
  {
    name: 'pglite (files on disk)',
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-at-rest-'));
      return { database: await openDatabase({ kind: 'pglite', dataDir }), dataDir };
    },
  },
  ...(postgresUrlForTests
    ? [{ name: 'postgres', open: async () => ({ database: await testDatabases[1]!.open(), dataDir: undefined }) }]
    : []),
];

describe.each(targets)('secrets at rest on $name', (target) => {
  let database: Database;
  let dataDir: string | undefined;
  let h: Harness;
  const logLines: string[] = [];
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    ({ database, dataDir } = await target.open());
    h = await startHarness({ database, logger: createLogger('debug', { write: (line: string) => void logLines.push(line) }) });

    // OAuth install: an expiring access token and its refresh token.
    expect((await installViaOAuth(h.app.url, OAUTH_SHOP)).status).toBe(302);
    const installed = (await h.app.sessions.loadSession(offlineSessionId(OAUTH_SHOP)))!;
    secrets.set('oauth access token', installed.accessToken!);
    secrets.set('oauth refresh token', installed.refreshToken!);

    // Custom app, as `shops add` stores it.
    const { accessToken } = h.simulator.addShop(CUSTOM_SHOP);
    secrets.set('custom app token', accessToken);
    await addCustomAppShop(h.app.sessions, h.app.shops, CUSTOM_SHOP, accessToken);

    for (const [shop, tag] of [
      [OAUTH_SHOP, 'oauth'],
      [CUSTOM_SHOP, 'custom'],
    ] as const) {
      const creds = credentials(tag);
      for (const [k, v] of Object.entries(creds)) if (k !== 'Id_Pac') secrets.set(`${tag} ${k}`, v);
      const saved = await h.app.shops.saveSettings(shop, { ...(await h.app.shops.get(shop))!.settings, credentials: creds, enabled: true });
      expect(saved).toEqual({ ok: true });
    }

    // The OAuth token is near its end: the worker's first Admin API call refreshes it.
    installed.expires = new Date(Date.now() + 60_000);
    await h.app.sessions.storeSession(installed);

    await h.simulator.orderPaid(OAUTH_SHOP, makePaidOrder({ id: 5_900_000_000_901 }), h.webhookAddress);
    await h.simulator.orderPaid(CUSTOM_SHOP, makePaidOrder({ id: 5_900_000_000_902 }), h.webhookAddress);
    await waitFor(
      async () => {
        const rows = await database.db.select({ status: documents.status }).from(documents);
        return rows.length === 2 && rows.every((r) => r.status === 'completed');
      },
      30_000,
      'both invoices completed',
    );

    expect(h.simulator.refreshCount(OAUTH_SHOP)).toBe(1);
    const refreshed = (await h.app.sessions.loadSession(offlineSessionId(OAUTH_SHOP)))!;
    expect(refreshed.accessToken).not.toBe(installed.accessToken);
    secrets.set('refreshed access token', refreshed.accessToken!);
    secrets.set('refreshed refresh token', refreshed.refreshToken!);
    secrets.set('gateway authorization token', DEFAULT_SANDBOX_AUTH_TOKEN);
    secrets.set('app secret', TEST_API_SECRET);
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the CLI stores a custom app under the session id the Shopify library looks up', () => {
    expect(offlineSessionId(CUSTOM_SHOP)).toBe(h.app.shopify.session.getOfflineId(CUSTOM_SHOP));
  });

  it('no table row holds a token or credential in plain text', async () => {
    let dump = '';
    const tables = Object.entries(schema);
    for (const [name, table] of tables) {
      const rows = await database.db.select().from(table as typeof documents);
      dump += `\n${name}: ${JSON.stringify(rows, (_k, v: unknown) => (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' ? Buffer.from((v as { data: number[] }).data).toString('latin1') : v))}`;
    }
    // The dump is real: it has both shops, the sealed tokens and the issued invoices.
    expect(dump).toContain(OAUTH_SHOP);
    expect(dump).toContain(CUSTOM_SHOP);
    expect(dump).toMatch(/"accessTokenEnc":"v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"/);
    expect(dump).toMatch(/"credentialsEnc":"v1\./);
    expect(dump).toContain('%PDF-');
    expect(secrets.size).toBe(17);
    for (const [what, value] of secrets) expect(dump.includes(value), what).toBe(false);

    // The sealed values open to the secrets: encrypted, not dropped.
    const session = await h.app.sessions.loadSession(offlineSessionId(CUSTOM_SHOP));
    expect(session?.accessToken).toBe(secrets.get('custom app token'));
    expect((await h.app.shops.get(CUSTOM_SHOP))?.credentials?.GW_Token).toBe(secrets.get('custom GW_Token'));
  });

  it('no log line holds a token or credential', () => {
    const logs = logLines.join('');
    expect(logs).toContain('app installed: offline session stored');
    expect(logs).toContain(OAUTH_SHOP);
    for (const [what, value] of secrets) expect(logs.includes(value), what).toBe(false);
  });

  it.runIf(target.name.startsWith('pglite'))('no database file on disk holds one either', async () => {
    await h.close();
    await database.close();
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.isFile()) files.push(full);
      }
    };
    walk(dataDir!);
    let sawShop = false;
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      if (bytes.includes(OAUTH_SHOP)) sawShop = true;
      for (const [what, value] of secrets) expect(bytes.includes(value), `${what} in ${path.relative(dataDir!, file)}`).toBe(false);
    }
    // The search does see the data (the shop domain is stored in plain text).
    expect(sawShop).toBe(true);
    // Reopened for afterAll's close.
    database = await openDatabase({ kind: 'pglite', dataDir: dataDir! });
    const [row] = await database.db.select().from(documents).where(eq(documents.shop, OAUTH_SHOP));
    expect(row?.status).toBe('completed');
    h = { close: async () => {} } as unknown as Harness;
  });
});
