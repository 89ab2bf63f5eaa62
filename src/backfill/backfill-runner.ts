// The backfill's runner in every app process with the worker (docs/backfill.md): on a timer (and when a backfill
// starts here), take the lease of a running backfill nobody reads, read it to its end, and end the backfills whose
// documents have all settled. Like the sweep, any process may hold the lease; one killed loses it when it runs out.
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { PollLoop } from '../poll-loop.ts';
import { type ReaderDeps, readBackfill } from './backfill-reader.ts';
import { backfillProgress, settled } from './backfill-service.ts';
import { claimBackfillReader, finishBackfill, readBackfills } from './backfill-store.ts';

export interface BackfillRunnerDeps extends Omit<ReaderDeps, 'owner'> {
  db: Db;
  logger: Logger;
  pollMs: number;
}

export class BackfillRunner extends PollLoop {
  private readonly deps: BackfillRunnerDeps;

  constructor(deps: BackfillRunnerDeps) {
    super(deps.pollMs, (error) => deps.logger.error({ err: error }, 'backfill runner: tick failed'));
    this.deps = deps;
  }

  protected async tick(): Promise<void> {
    await readOne({ ...this.deps, owner: this.owner }, () => this.stopped);
    await endSettled(this.deps.db, this.deps.logger);
  }
}

/** Read the backfills this owner can take, one after another, until none is left or `halted`. `id`: that one only. */
export async function readOne(deps: ReaderDeps, halted: () => boolean, id?: string): Promise<void> {
  while (!halted()) {
    const row = await claimBackfillReader(deps.db, deps.owner, deps.leaseMs, id);
    if (!row) return;
    const outcome = await readBackfill(deps, row);
    deps.logger.info({ shop: row.shop, backfill: row.id, outcome }, 'backfill: reader stopped');
    if (outcome === 'later') return;
  }
}

/** Running backfills that are read and whose documents have all settled end as done. */
export async function endSettled(db: Db, logger: Logger): Promise<void> {
  for (const row of await readBackfills(db)) {
    const progress = await backfillProgress(db, row, new Date());
    if (settled(progress) && (await finishBackfill(db, row.id, 'done')))
      logger.info({ shop: row.shop, backfill: row.id, documents: progress.total }, 'backfill: done');
  }
}
