// shopify.app.toml and shopify.web.toml agree with the code: scopes, API version, OAuth callback, webhook
// addresses that the app really serves (401 unsigned, not 404), the metafields the write-back sets, and
// the Shopify CLI's own rules for subscriptions. (No TOML library in the project: a small parser for the
// subset these files use.)
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOPIFY_API_VERSION } from '../../../src/app.ts';
import type { Database } from '../../../src/db/database.ts';
import { INVOICE_METAFIELD_TYPES, CREDIT_NOTES_METAFIELD_KEY } from '../../../src/shopify/metafield-writer.ts';
import { AUTH_CALLBACK_PATH } from '../../../src/shopify/oauth-routes.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { type Harness, startHarness } from '../../../sim/harness/harness.ts';
import { ROOT } from '../../support/paths.ts';

type Toml = Record<string, unknown>;

/** Tables, arrays of tables, dotted keys, strings, booleans, integers, one-line arrays. */
function parseTomlSubset(text: string): Toml {
  const root: Toml = {};
  let table = root;
  const descend = (from: Toml, keys: string[]): Toml => {
    let t = from;
    for (const k of keys) {
      const next = t[k] ?? (t[k] = {});
      t = (Array.isArray(next) ? next[next.length - 1] : next) as Toml;
    }
    return t;
  };
  const splitKey = (k: string) => k.split('.').map((p) => p.trim().replace(/^"(.*)"$/, '$1'));
  for (const [n, raw] of text.split('\n').entries()) {
    const line = stripComment(raw).trim();
    if (line === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^\[\[(.+)\]\]$/.exec(line))) {
      const keys = splitKey(m[1]!);
      const parent = descend(root, keys.slice(0, -1));
      const list = (parent[keys.at(-1)!] ??= []) as Toml[];
      list.push((table = {}));
    } else if ((m = /^\[(.+)\]$/.exec(line))) {
      table = descend(root, splitKey(m[1]!));
    } else if ((m = /^([A-Za-z0-9_."-]+)\s*=\s*(.+)$/.exec(line))) {
      const keys = splitKey(m[1]!);
      const target = descend(table, keys.slice(0, -1));
      if (keys.at(-1)! in target) throw new Error(`line ${n + 1}: duplicate key ${m[1]}`);
      target[keys.at(-1)!] = parseValue(m[2]!.trim(), n + 1);
    } else {
      throw new Error(`line ${n + 1}: not understood: ${line}`);
    }
  }
  return root;
}

function stripComment(line: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' && line[i - 1] !== '\\') inString = !inString;
    if (line[i] === '#' && !inString) return line.slice(0, i);
  }
  return line;
}

function parseValue(v: string, line: number): unknown {
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v.startsWith('"')) return JSON.parse(v) as string;
  if (v.startsWith('[') && v.endsWith(']')) {
    const inner = v.slice(1, -1).trim();
    return inner === '' ? [] : (JSON.parse(`[${inner.replace(/,\s*$/, '')}]`) as unknown[]);
  }
  throw new Error(`line ${line}: unsupported value ${v}`);
}

const app = parseTomlSubset(fs.readFileSync(path.join(ROOT, 'shopify.app.toml'), 'utf8'));
const web = parseTomlSubset(fs.readFileSync(path.join(ROOT, 'shopify.web.toml'), 'utf8'));

interface Subscription {
  topics?: string[];
  compliance_topics?: string[];
  uri: string;
}
const webhooks = app['webhooks'] as { api_version: string; subscriptions: Subscription[] };

describe('shopify.app.toml', () => {
  it('declares the embedded app, its scopes and the OAuth callback the app serves', () => {
    expect(app['name']).toBe('Factura Electrónica PA');
    expect(app['embedded']).toBe(true);
    expect(typeof app['client_id']).toBe('string');
    expect((app['access_scopes'] as Toml)['scopes']).toBe('read_orders,write_orders,read_customers,read_locations');
    // Shopify-managed installation (token exchange), not the legacy install flow.
    expect((app['access_scopes'] as Toml)['use_legacy_install_flow']).toBe(false);
    const url = new URL(app['application_url'] as string);
    expect(url.protocol).toBe('https:');
    expect((app['auth'] as Toml)['redirect_urls']).toEqual([`${url.origin}${AUTH_CALLBACK_PATH}`]);
    expect((app['build'] as Toml)['automatically_update_urls_on_dev']).toBe(true);
  });

  it('pins the webhooks to the API version the app uses, a supported one', () => {
    expect(webhooks.api_version).toBe('2026-10');
    expect(webhooks.api_version).toBe(SHOPIFY_API_VERSION);
  });

  it('subscribes orders/paid, refunds/create, app/uninstalled and the three privacy topics, each once (the Shopify CLI rules)', () => {
    expect(webhooks.subscriptions).toEqual([
      { topics: ['orders/paid'], uri: '/webhooks/orders/paid' },
      { topics: ['refunds/create'], uri: '/webhooks/refunds/create' },
      { topics: ['app/uninstalled'], uri: '/webhooks/app/uninstalled' },
      { compliance_topics: ['customers/data_request', 'customers/redact', 'shop/redact'], uri: '/webhooks/compliance' },
    ]);
    for (const s of webhooks.subscriptions) expect(Boolean(s.topics?.length) || Boolean(s.compliance_topics?.length)).toBe(true);
    const pairs = webhooks.subscriptions.flatMap((s) => [...(s.topics ?? []), ...(s.compliance_topics ?? [])].map((t) => `${t} ${s.uri}`));
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(app['webhooks']).not.toHaveProperty('privacy_compliance');
  });

  it('defines exactly the order metafields the write-back sets, with its types, read-only for merchants', () => {
    const defs = ((app['order'] as Toml)['metafields'] as Toml)['app'] as Record<
      string,
      { type: string; name: string; access: { admin: string } }
    >;
    expect(Object.fromEntries(Object.entries(defs).map(([k, d]) => [k, d.type]))).toEqual({
      ...INVOICE_METAFIELD_TYPES,
      [CREDIT_NOTES_METAFIELD_KEY]: 'json',
    });
    for (const d of Object.values(defs)) {
      expect(d.access.admin).toBe('merchant_read');
      expect(d.name.length).toBeGreaterThan(0);
    }
  });

  it('shopify.web.toml runs the app with npm start, as one frontend and backend process', () => {
    expect(web['roles']).toEqual(['frontend', 'backend']);
    expect((web['commands'] as Toml)['dev']).toBe('npm start');
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // The app bundled first (prestart: Node's loader would re-read drizzle-orm's 179 KB package.json for each of its
    // files), then: WebAssembly kept on V8's baseline compiler (its optimizing compile of PGlite took ~600 MB once),
    // Node's heap sizes, the bundle. A cap (V8 sizes the heap from the machine's memory otherwise: 400 MiB for this
    // app), a young generation that lets a delivery die young, and an old generation that starts at 64 MB, which a
    // flash sale's garbage reaches before the first full collection (bench/RESULTS.md).
    expect(pkg.scripts['prestart']).toBe('node scripts/bundle-app.ts');
    expect(pkg.scripts['start']).toBe(
      'node --liftoff-only --max-old-space-size=512 --max-semi-space-size=8 --initial-old-space-size=64 dist/main.js',
    );
  });
});

describe('the subscribed addresses are served', () => {
  let database: Database;
  let h: Harness;
  beforeAll(async () => {
    database = await testDatabases[0]!.open();
    h = await startHarness({ database, env: { WORKER_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });

  it('each subscription uri answers an unsigned delivery 401 (a handler is there, not a 404)', async () => {
    for (const s of webhooks.subscriptions) {
      for (const topic of [...(s.topics ?? []), ...(s.compliance_topics ?? [])]) {
        const result = await h.simulator.sendWebhook({
          address: `${h.app.url}${s.uri}`,
          topic,
          shop: 'tienda-toml.myshopify.com',
          payload: { shop_domain: 'tienda-toml.myshopify.com' },
          secret: 'wrong',
        });
        expect(result.status, `${topic} at ${s.uri}`).toBe(401);
      }
    }
    const callback = await fetch(`${h.app.url}${AUTH_CALLBACK_PATH}`, {
      redirect: 'manual',
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' },
    });
    expect(callback.status).toBe(400);
  });
});
