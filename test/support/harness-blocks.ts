// A describe block's app: the harness (sim/harness/harness.ts) started in the block's beforeAll on a fresh database
// and closed in its afterAll. Vitest's hooks live here, in the tests' support, so sim/ (which bench/ also runs)
// needs no test runner.
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { type Harness, type HarnessOptions, startHarness } from '../../sim/harness/harness.ts';

/** What a describe block's harness gives its tests once its beforeAll has run. */
export interface HarnessRun {
  readonly h: Harness;
  readonly database: Database;
}

/**
 * The usual setup of a describe block: a fresh database from `target`, the app, sandbox and store simulator on it
 * (`options()`, read when the block starts, so it may use what an earlier beforeAll started); started before the
 * block's tests, closed after them. Its tests read `h` and `database`.
 */
export function harnessFor(
  target: { open(): Promise<Database> },
  options: () => Omit<HarnessOptions, 'database'> = () => ({}),
): HarnessRun {
  let database: Database | undefined;
  let h: Harness | undefined;
  beforeAll(async () => {
    database = await target.open();
    h = await startHarness({ ...options(), database });
  });
  afterAll(async () => {
    await h?.close();
    await database?.close();
  });
  return {
    get h() {
      if (!h) throw new Error('the harness starts in beforeAll');
      return h;
    },
    get database() {
      if (!database) throw new Error('the database opens in beforeAll');
      return database;
    },
  };
}

/** harnessFor with these shops installed (OAuth done, settings saved and enabled) before the block's tests. */
export function harnessForShop(target: { open(): Promise<Database> }, ...shops: [string, ...string[]]): HarnessRun {
  const run = harnessFor(target);
  beforeAll(async () => {
    for (const shop of shops) await run.h.installShop(shop);
  });
  return run;
}
