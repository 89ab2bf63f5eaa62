// The sandbox's injected faults: latency, dropped sockets, HTTP 5xx, a generic 201, and an authorization answered
// too late, drawn per request from a seeded PRNG so that a run can be replayed.
import { z } from 'zod';
import { mulberry32 } from './seeded-random.ts';
import type { SandboxOperation } from './sandbox-operations.ts';

/**
 * Faults, drawn per request from a seeded PRNG in this order: drop, 5xx, 201, authorize-then-late
 * (so the rates are shares of the same requests and should add up to ≤ 1). Latency, 5xx and drop
 * apply to all three operations; 201 and authorize-then-late only to SendDocument.
 */
export const faultConfigSchema = z.strictObject({
  /** Time to answer each request (the gateway's own work included): fixed, or uniform in [min, max]. */
  latencyMs: z
    .union([
      z.number().int().min(0),
      z.strictObject({ min: z.number().int().min(0), max: z.number().int().min(0) }).refine((r) => r.min <= r.max, 'min must be ≤ max'),
    ])
    .optional(),
  /** Share of SendDocument answered `201` generic error without issuing. */
  rate201: z.number().min(0).max(1).optional(),
  /** Share answered HTTP 500/502/503 with an HTML body. */
  rate5xx: z.number().min(0).max(1).optional(),
  /** Share whose socket is destroyed without an answer. */
  rateDrop: z.number().min(0).max(1).optional(),
  /** Share of SendDocument that is processed (and issued) but answered `lateMs` later. */
  rateAuthorizeThenLate: z.number().min(0).max(1).optional(),
  /** Extra delay of an authorize-then-late answer; default 5000. */
  lateMs: z.number().int().min(0).optional(),
  /**
   * Inject at most this many faults (latency aside) under this configuration, then none: a one-off fault a test can
   * set without racing the app's retry to clear it.
   */
  maxFaults: z.number().int().min(0).optional(),
  /** Reseed the fault PRNG (setFaults) or seed it (construction). */
  seed: z.number().int().optional(),
});
export type FaultConfig = z.infer<typeof faultConfigSchema>;

/** What to do to one request; `delayMs` is its latency (the late answer's extra delay not included). */
export type FaultDraw =
  { fault: undefined | 'drop' | '201' | 'late'; delayMs: number } | { fault: '5xx'; delayMs: number; status: 500 | 502 | 503 };

const DEFAULT_LATE_MS = 5000;

export class FaultInjector {
  #config: FaultConfig;
  #random: () => number;
  /** Faults drawn under the current configuration (for `maxFaults`). */
  #drawn = 0;
  /** The seed the PRNG started from (the configuration's, else the given one). */
  readonly seed: number;

  /** Throws a ZodError on an invalid configuration. */
  constructor(config: unknown, seed: number) {
    this.#config = faultConfigSchema.parse(config);
    this.seed = this.#config.seed ?? seed;
    this.#random = mulberry32(this.seed);
  }

  /** Replace the configuration (validated, the old one kept on error); a `seed` in it restarts the PRNG. */
  set(config: unknown): FaultConfig {
    const parsed = faultConfigSchema.parse(config);
    this.#config = parsed;
    this.#drawn = 0;
    if (parsed.seed !== undefined) this.#random = mulberry32(parsed.seed);
    return this.config();
  }

  config(): FaultConfig {
    return structuredClone(this.#config);
  }

  lateMs(): number {
    return this.#config.lateMs ?? DEFAULT_LATE_MS;
  }

  /** The fault, then the latency, then a 5xx's status: the order of the draws is part of a seed's sequence. */
  draw(operation: SandboxOperation): FaultDraw {
    const fault = this.#drawFault(operation);
    if (fault !== undefined) this.#drawn++;
    const delayMs = this.#drawLatency();
    if (fault === '5xx') return { fault, delayMs, status: ([500, 502, 503] as const)[Math.floor(this.#random() * 3)]! };
    return { fault, delayMs };
  }

  #drawFault(operation: SandboxOperation): 'drop' | '5xx' | '201' | 'late' | undefined {
    const f = this.#config;
    const anyFault = (f.rateDrop ?? 0) + (f.rate5xx ?? 0) + (f.rate201 ?? 0) + (f.rateAuthorizeThenLate ?? 0) > 0;
    if (!anyFault) return undefined; // no draw, so a fault-free run consumes no random numbers
    if (f.maxFaults !== undefined && this.#drawn >= f.maxFaults) return undefined;
    const u = this.#random();
    let edge = f.rateDrop ?? 0;
    if (u < edge) return 'drop';
    edge += f.rate5xx ?? 0;
    if (u < edge) return '5xx';
    if (operation !== 'SendDocument') return undefined;
    edge += f.rate201 ?? 0;
    if (u < edge) return '201';
    edge += f.rateAuthorizeThenLate ?? 0;
    if (u < edge) return 'late';
    return undefined;
  }

  #drawLatency(): number {
    const latency = this.#config.latencyMs;
    if (latency === undefined) return 0;
    if (typeof latency === 'number') return latency;
    return latency.min + Math.floor(this.#random() * (latency.max - latency.min + 1));
  }
}

/** A proxy's error page, as a real outage would answer: HTML, not the gateway's JSON. */
export function errorPage(status: number): string {
  const title = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' }[status] ?? 'Error';
  return `<html><head><title>${status} ${title}</title></head><body><center><h1>${status} ${title}</h1></center><hr><center>nginx</center></body></html>\n`;
}
