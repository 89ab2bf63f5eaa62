// A database for a describe block whose tests work on the tables directly (no app): each test starts from empty tables.
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database } from '../../src/db/database.ts';

/**
 * A fresh database from `target`, opened before the block's tests and closed after them; `emptied` (children before
 * their parents) deleted before each test, ahead of the block's own beforeEach.
 */
export function databaseForBlock(target: { open(): Promise<Database> }, emptied: readonly PgTable[]): { readonly database: Database } {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    for (const table of emptied) await database!.db.delete(table);
  });
  return {
    get database() {
      if (!database) throw new Error('the database opens in beforeAll');
      return database;
    },
  };
}
