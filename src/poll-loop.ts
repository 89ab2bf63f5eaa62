// The loop a queue runner lives in: a tick on a timer and on demand, never two at once. A wake during a tick asks
// for one more tick after it (wakes in between coalesce), so work that arrives mid-tick is never left waiting
// for the timer. A runner extends it with its own tick.
import { randomBytes } from 'node:crypto';
import os from 'node:os';

export abstract class PollLoop {
  /** Its name on the leases it takes: host, process and a random tag, so two runners of one process differ. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private halted = true;
  private readonly pollMs: number;
  private readonly onTickError: (error: unknown) => void;

  /** `onTickError` hears what a tick throws (a claim that failed); the next tick tries again. */
  constructor(pollMs: number, onTickError: (error: unknown) => void) {
    this.pollMs = pollMs;
    this.onTickError = onTickError;
  }

  /** Claim and handle due work until there is none (or `stopped`). */
  protected abstract tick(): Promise<void>;

  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    if (!this.halted) return;
    this.halted = false;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref?.();
    this.wake();
  }

  /** No more ticks; resolves when the current one has returned. */
  async stop(): Promise<void> {
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
  }

  /** Look for due work now (on the timer, and when something may have made work due). */
  wake(): void {
    if (this.halted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch(this.onTickError)
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          setImmediate(() => this.wake());
        }
      });
  }
}
