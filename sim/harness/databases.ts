// The databases every database test runs against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
// Each opened PostgreSQL database is a fresh one, created for the test file and dropped after it.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import writeFileAtomic from 'write-file-atomic';
import { testDatabaseUrl } from '../../src/config/env.ts';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../../src/db/database.ts';
import { PROJECT_ROOT } from '../../src/project-root.ts';

export interface TestDatabaseTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

const pgUrl = testDatabaseUrl();

/** In-memory PGlite: the one database of the tests that need not run on both. */
export const inMemoryPglite: TestDatabaseTarget = {
  name: 'pglite',
  open: async () => openDatabase({ kind: 'pglite', dataDir: undefined, from: await migratedTemplate() }),
};

let template: Promise<Blob> | undefined;

/**
 * The files of an empty, migrated PGlite database: initdb and the migrations take some 1.5 s of each open, and the
 * suite opens hundreds. Made once per set of migrations and PGlite version, kept in the system's temporary directory
 * for every test process (written whole, then renamed, so a reader never sees half of one).
 */
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const hash = createHash('sha256').update(fs.readFileSync(path.join(PROJECT_ROOT, 'node_modules/@electric-sql/pglite/package.json')));
    for (const name of fs.readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' }).sort()) {
      const file = path.join(MIGRATIONS_DIR, name);
      if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
    }
    const file = path.join(os.tmpdir(), `factura-pa-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const fresh = await openDatabase({ kind: 'pglite', dataDir: undefined });
    try {
      const dump = await (fresh.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
      writeFileAtomic.sync(file, Buffer.from(await dump.arrayBuffer()));
      return dump;
    } finally {
      await fresh.close();
    }
  })();
  return template;
}

export const testDatabases: TestDatabaseTarget[] = [
  inMemoryPglite,
  ...(pgUrl ? [{ name: 'postgres' as const, open: () => openFreshPostgres(pgUrl) }] : []),
];

/** A URL to a new, empty PostgreSQL database, and a function that drops it. */
export async function createFreshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function openFreshPostgres(adminUrl: string): Promise<Database> {
  const fresh = await createFreshPostgresDatabase(adminUrl);
  const database = await openDatabase({ kind: 'postgres', url: fresh.url });
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
}

export const postgresUrlForTests = pgUrl;

/** One connection for `fn`, closed after it. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Ends every backend connected to the database at `url` (as an operator or a failover would); how many.
 * `midTransaction`: first wait up to that many ms for one of them to be inside a transaction, the case
 * a driver must survive: its rollback then goes to a dead connection.
 */
export async function terminateBackends(adminUrl: string, url: string, o: { midTransaction?: number } = {}): Promise<number> {
  const database = new URL(url).pathname.slice(1);
  return withClient(adminUrl, async (admin) => {
    const deadline = Date.now() + (o.midTransaction ?? 0);
    while (Date.now() < deadline) {
      const open = await admin.query(
        'select 1 from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and xact_start is not null limit 1',
        [database],
      );
      if (open.rowCount) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const result = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return result.rowCount ?? 0;
  });
}
