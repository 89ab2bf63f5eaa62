// /healthz fails while the worker cannot claim (database errors, a full disk), though its loop keeps ticking, and
// recovers once claims go through again (issue 25, item 9); on both databases.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessFor } from '../../support/harness-blocks.ts';

describe.each(testDatabases)('/healthz and failing claims on $name', (target) => {
  const run = harnessFor(target);
  const health = async () => {
    const res = await fetch(`${run.h.app.url}/healthz`);
    return { status: res.status, body: (await res.json()) as { failing?: string[] } };
  };

  it('every claim failing: 503 naming the worker; claims back: 200', async () => {
    expect((await health()).status).toBe(200);
    // The claim's table is gone: every claim fails, as on a full disk or a broken database.
    await run.database.db.execute(sql`alter table documents rename to documents_away`);
    try {
      const failing = await waitFor(
        async () => {
          const h = await health();
          return h.status === 503 ? h : undefined;
        },
        10_000,
        '/healthz to fail',
      );
      expect(failing.body.failing).toEqual(['worker']);
    } finally {
      await run.database.db.execute(sql`alter table documents_away rename to documents`);
    }
    await waitFor(async () => (await health()).status === 200, 10_000, '/healthz to recover');
  });
});
