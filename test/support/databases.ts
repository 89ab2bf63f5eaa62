// The databases every database test runs against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
// Each opened PostgreSQL database is a fresh one, created for the test file and dropped after it.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { testDatabaseUrl } from '../../src/config/env.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';

export interface TestDatabaseTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

const pgUrl = testDatabaseUrl();

export const testDatabases: TestDatabaseTarget[] = [
  { name: 'pglite', open: () => openDatabase({ kind: 'pglite', dataDir: undefined }) },
  ...(pgUrl ? [{ name: 'postgres' as const, open: () => openFreshPostgres(pgUrl) }] : []),
];

/** A URL to a new, empty PostgreSQL database, and a function that drops it. */
export async function createFreshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
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
