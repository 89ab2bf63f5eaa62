// The intake bench's baseline, in a process of its own like the app, bundled and run with the app's node flags: what
// any app must do per delivery, with one plain insert and no batching. Express + HMAC check (key made once) +
// JSON.parse + one drizzle insert of the body as jsonb into a scratch table. Arguments: the database (a postgres://
// URL, or an existing PGlite data directory) and the webhook secret. Prints `baseline listening <url>`.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { bigserial, jsonb, pgTable } from 'drizzle-orm/pg-core';
import express from 'express';
import { openDatabase } from '../src/db/database.ts';

const baselineTable = pgTable('bench_baseline', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  body: jsonb('body').notNull(),
});

const [where, secret] = process.argv.slice(2) as [string, string];
const database = await openDatabase(where.startsWith('postgres') ? { kind: 'postgres', url: where } : { kind: 'pglite', dataDir: where });
await database.db.execute(sql`create table if not exists bench_baseline (id bigserial primary key, body jsonb not null)`);
const key = createSecretKey(Buffer.from(secret, 'utf8'));
const app = express();
app.disable('x-powered-by');
app.post('/baseline', express.text({ type: () => true, limit: '2mb' }), async (req, res) => {
  const raw = typeof req.body === 'string' ? req.body : '';
  const header = req.get('x-shopify-hmac-sha256') ?? '';
  const expected = createHmac('sha256', key).update(raw, 'utf8').digest();
  const given = Buffer.from(header, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    res.status(401).json({ error: 'invalid HMAC signature' });
    return;
  }
  try {
    JSON.parse(raw);
  } catch {
    res.status(400).json({ error: 'body is not valid JSON' });
    return;
  }
  await database.db.insert(baselineTable).values({ body: sql`${raw}::jsonb` });
  res.status(200).json({ outcome: 'stored' });
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`baseline listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void database.close().then(() => process.exit(0));
});
