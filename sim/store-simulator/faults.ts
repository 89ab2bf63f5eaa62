// Injected Admin API failures (THROTTLED in a 200, 429 with Retry-After, 5xx), rolled with seeded dice so a
// run can be repeated.

import type { Response } from 'express';
import { costExtension } from './admin-graphql.ts';
import { mulberry32 } from './seeded-dice.ts';
import type { Faults } from './types.ts';

export type Fault = 'http_5xx' | 'http_429' | 'throttled';

export class FaultDice {
  #faults: Required<Omit<Faults, 'seed'>> = { graphqlThrottledRate: 0, http429Rate: 0, http5xxRate: 0, http5xxStatus: 503 };
  #dice = mulberry32(1);

  set(f: Faults): void {
    this.#faults = {
      graphqlThrottledRate: f.graphqlThrottledRate ?? 0,
      http429Rate: f.http429Rate ?? 0,
      http5xxRate: f.http5xxRate ?? 0,
      http5xxStatus: f.http5xxStatus ?? 503,
    };
    this.#dice = mulberry32(f.seed ?? 1);
  }

  /** THROTTLED is a GraphQL answer; REST calls only fail by status. */
  roll(graphql: boolean): Fault | undefined {
    const { http5xxRate, http429Rate, graphqlThrottledRate } = this.#faults;
    const roll = this.#dice();
    if (roll < http5xxRate) return 'http_5xx';
    if (roll < http5xxRate + http429Rate) return 'http_429';
    if (graphql && roll < http5xxRate + http429Rate + graphqlThrottledRate) return 'throttled';
    return undefined;
  }

  /** Answer the fault as Shopify does; returns the HTTP status sent. */
  send(res: Response, fault: Fault): number {
    if (fault === 'http_5xx') {
      res.status(this.#faults.http5xxStatus).json({ errors: 'Service Unavailable' });
      return this.#faults.http5xxStatus;
    }
    if (fault === 'http_429') {
      res
        .status(429)
        .set('Retry-After', '1')
        .json({ errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' });
      return 429;
    }
    res.status(200).json({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
      extensions: costExtension(10, 0),
    });
    return 200;
  }
}
