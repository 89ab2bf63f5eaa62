// The loop a queue runner lives in: a tick on a timer and on demand, never two at once. A wake during a tick asks
// for one more tick after it (wakes in between coalesce), so work that arrives mid-tick is never left waiting
// for the timer.
export class PollLoop {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private halted = true;
  private readonly tick: () => Promise<void>;
  private readonly pollMs: number;
  private readonly onError: (error: unknown) => void;

  /** `tick` claims and handles due work until there is none (or `stopped`); `onError` hears what it throws. */
  constructor(tick: () => Promise<void>, pollMs: number, onError: (error: unknown) => void) {
    this.tick = tick;
    this.pollMs = pollMs;
    this.onError = onError;
  }

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

  wake(): void {
    if (this.halted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch(this.onError)
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          setImmediate(() => this.wake());
        }
      });
  }
}
