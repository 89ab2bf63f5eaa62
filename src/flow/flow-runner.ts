// The Flow runner (docs/flow.md): claims due Flow events with a lease, makes each one's trigger payload and fires it
// with the Admin API's flowTriggerReceive. An Admin API failure that may pass is retried with backoff up to the
// attempt limit; Shopify's userErrors (an unknown trigger, a payload it refuses) are recorded and not retried.
//
// Once per event: the outbox holds one row per document and event, and a row is sent only under its lease and marked
// sent right after. Flow takes no idempotency key, so a process that dies between Shopify's answer and that mark (or a
// call that outlives the lease) fires the trigger again when the lease runs out: at least once in that case.
import type { Db } from '../db/database.ts';
import type { FlowEvent } from '../db/flow-state.ts';
import { type ClaimedFlowEvent, claimDueFlowEvents, markFlowEventFailed, markFlowEventSent } from '../documents/store/index.ts';
import type { Logger } from '../logger.ts';
import { PollLoop } from '../poll-loop.ts';
import type { ShopifyAdmin } from '../shopify/admin-client.ts';
import { defaultShopSettings, flowTriggersSchema } from '../shops/shop-settings.ts';
import { flowTrigger } from './flow-triggers.ts';

export const FLOW_TRIGGER_RECEIVE_MUTATION = `mutation FlowTriggerReceive($handle: String, $payload: JSON) {
  flowTriggerReceive(handle: $handle, payload: $payload) {
    userErrors { field message }
  }
}`;

interface FlowTriggerReceiveData {
  flowTriggerReceive: { userErrors: { field: string[] | null; message: string }[] } | null;
}

export interface FlowRunnerDeps {
  db: Db;
  admin: ShopifyAdmin;
  /** Public origin of the app: the PDF links. */
  appUrl: string;
  logger: Logger;
  options: { leaseMs: number; pollMs: number; maxAttempts: number; retryBaseMs: number; retryMaxMs: number };
  random?: () => number;
  /** A trigger Shopify took (metrics, tests). */
  onSent?: (event: FlowEvent) => void;
}

/** Events claimed at once. */
const BATCH = 8;

export class FlowRunner extends PollLoop {
  private readonly d: FlowRunnerDeps;

  constructor(deps: FlowRunnerDeps) {
    super(deps.options.pollMs, (error) => deps.logger.error({ err: error }, 'flow runner: claim failed'));
    this.d = deps;
  }

  protected async tick(): Promise<void> {
    while (!this.stopped) {
      const claimed = await claimDueFlowEvents(this.d.db, { owner: this.owner, limit: BATCH, leaseMs: this.d.options.leaseMs });
      await Promise.all(
        claimed.map((c) =>
          this.fire(c).catch((error: unknown) =>
            // The lease runs out and the event is tried again.
            this.d.logger.error({ err: error, flowEventId: c.event.id, documentId: c.event.documentId }, 'flow runner: unexpected error'),
          ),
        ),
      );
      // A short batch took all that was due: events queued since nudge the runner, so no empty claim to end on.
      if (claimed.length < BATCH) return;
    }
  }

  private async fire({ event: row, content, flowTriggers }: ClaimedFlowEvent): Promise<void> {
    if (!content) return this.attemptFailed(row, 'the document is gone', true);
    // Stored settings were valid when saved; a schema change falls back to the defaults, as for the shop's other settings.
    const settings = flowTriggersSchema.safeParse(flowTriggers ?? {});
    const { enabled, language } = settings.success ? settings.data : defaultShopSettings.flowTriggers;
    if (!enabled) return this.attemptFailed(row, 'Flow triggers were turned off before it was sent', true);
    const trigger = flowTrigger({
      event: row.event,
      doc: content.doc,
      pdfToken: content.pdfToken,
      reason: row.reason,
      language,
      appUrl: this.d.appUrl,
    });
    if (!trigger.ok) return this.attemptFailed(row, trigger.problem, true);
    const answer = await this.d.admin.graphql<FlowTriggerReceiveData>(row.shop, FLOW_TRIGGER_RECEIVE_MUTATION, {
      handle: trigger.handle,
      payload: trigger.payload,
    });
    if (!answer.ok) return this.attemptFailed(row, answer.message, !answer.retryable);
    const userErrors = answer.data.flowTriggerReceive?.userErrors ?? [];
    if (userErrors.length > 0) {
      const said = userErrors.map((e) => `${(e.field ?? []).join('.') || 'payload'}: ${e.message}`).join('; ');
      return this.attemptFailed(row, `Shopify refused the trigger ${trigger.handle}: ${said}`, true);
    }
    await markFlowEventSent(this.d.db, row.id, this.owner, row.attempts + 1);
    this.d.onSent?.(row.event);
    this.d.logger.info({ flowEventId: row.id, documentId: row.documentId, shop: row.shop, trigger: trigger.handle }, 'flow trigger sent');
  }

  private async attemptFailed(row: ClaimedFlowEvent['event'], reason: string, permanent: boolean): Promise<void> {
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.d.options;
    const attempts = row.attempts + 1;
    const failed = permanent || attempts >= maxAttempts;
    // Exponential backoff with jitter between half and all of the step.
    const step = Math.min(retryMaxMs, retryBaseMs * 2 ** (attempts - 1));
    const delay = failed ? 0 : Math.round(step * (0.5 + (this.d.random ?? Math.random)() / 2));
    await markFlowEventFailed(this.d.db, row.id, this.owner, {
      attempts,
      failed,
      nextAttemptAt: new Date(Date.now() + delay),
      lastError: reason,
    });
    this.d.logger.warn(
      { flowEventId: row.id, documentId: row.documentId, shop: row.shop, attempts, failed },
      `flow trigger not sent: ${reason}`,
    );
  }
}
