// The webhook load generator, run as a child process (fork) so it does not share the measured event loop.
// Every delivery is signed like Shopify's, with a fresh order id in the body template and its own webhook id.
// Two jobs: a LoadPlan (autocannon for a fixed time: throughput and latency percentiles) and a DeliveryPlan
// (a fixed list sent with node:http, each answer timed: for latency against Shopify's 5 s).
import { createHmac, createSecretKey, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';

export interface LoadPlan {
  url: string;
  /** The app's Shopify secret: the generator signs like Shopify. */
  secret: string;
  shop: string;
  /** Order JSON with `__ID__` where the numeric order id goes. */
  template: string;
  /** First order id; each request takes the next. */
  idBase: number;
  connections: number;
  durationSeconds: number;
  apiVersion: string;
}

export interface LoadResult {
  requests: number;
  /** Mean requests per second over the run. */
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Deliveries sent (= distinct order ids used). */
  sent: number;
  /** CPU the generator itself used, in % of one core (it shares the machine with what it measures). */
  cpuPercent: number;
}

/** A fixed list of deliveries, `concurrency` at a time, each one timed (for latency, not throughput). */
export interface DeliveryPlan {
  url: string;
  secret: string;
  shop: string;
  template: string;
  /** One delivery per id, in this order. */
  ids: number[];
  /** Sent first and not counted: connections open and code warm, as with a running app. */
  warmUpIds: number[];
  /** Closed loop: this many in flight, each sending its next when answered. */
  concurrency: number;
  /**
   * Open loop instead: delivery i leaves at i ÷ rate seconds whatever the earlier answers, as Shopify sends
   * events as they happen (then `concurrency` only bounds the warm-up).
   */
  ratePerSecond?: number;
  /** Give up on an answer after this long (status 0). */
  timeoutMs: number;
  apiVersion: string;
}

export interface DeliveryTimes {
  /** Per delivery, in the order sent: ms from the first byte written to the last byte read. */
  durations: number[];
  statuses: number[];
}

/** Run a load plan (autocannon, fixed time) in a child process and wait for its result. */
export function generateLoad(plan: LoadPlan): Promise<LoadResult> {
  return inChild<LoadResult>({ kind: 'load', plan });
}

/** Send a fixed list of deliveries from a child process and wait for every answer. */
export function sendDeliveries(plan: DeliveryPlan): Promise<DeliveryTimes> {
  return inChild<DeliveryTimes>({ kind: 'deliveries', plan });
}

type Job = { kind: 'load'; plan: LoadPlan } | { kind: 'deliveries'; plan: DeliveryPlan };

function inChild<T>(job: Job): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    child.once('message', (message) => {
      settled = true;
      const m = message as { result?: T; error?: string };
      if (m.result) resolve(m.result);
      else reject(new Error(`load generator failed: ${m.error}`));
      child.disconnect();
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(job);
  });
}

/** The headers Shopify sends with a delivery, signed with a key made once. */
function signedHeaders(
  key: ReturnType<typeof createSecretKey>,
  body: string,
  shop: string,
  apiVersion: string,
  triggeredAt: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-shopify-topic': 'orders/paid',
    'x-shopify-hmac-sha256': createHmac('sha256', key).update(body, 'utf8').digest('base64'),
    'x-shopify-shop-domain': shop,
    'x-shopify-api-version': apiVersion,
    'x-shopify-webhook-id': randomUUID(),
    'x-shopify-event-id': randomUUID(),
    'x-shopify-triggered-at': triggeredAt,
  };
}

async function runDeliveries(plan: DeliveryPlan): Promise<DeliveryTimes> {
  const key = createSecretKey(Buffer.from(plan.secret, 'utf8'));
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.ratePerSecond ? 1024 : plan.concurrency });
  const url = new URL(plan.url);
  const triggeredAt = new Date().toISOString();
  const post = (id: number) =>
    new Promise<{ ms: number; status: number }>((resolve) => {
      const body = plan.template.replaceAll('__ID__', String(id));
      const headers = {
        ...signedHeaders(key, body, plan.shop, plan.apiVersion, triggeredAt),
        'content-length': String(Buffer.byteLength(body)),
      };
      const started = performance.now();
      const request = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers, timeout: plan.timeoutMs },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 }));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
      request.end(body);
    });
  const sendAll = async (ids: number[]) => {
    const out: { ms: number; status: number }[] = new Array(ids.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: plan.concurrency }, async () => {
        while (next < ids.length) {
          const i = next++;
          out[i] = await post(ids[i]!);
        }
      }),
    );
    return out;
  };
  const sendPaced = async (ids: number[], rate: number) => {
    const started = performance.now();
    return Promise.all(
      ids.map(async (id, i) => {
        const wait = started + (i * 1000) / rate - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        return post(id);
      }),
    );
  };
  await sendAll(plan.warmUpIds);
  const answers = plan.ratePerSecond ? await sendPaced(plan.ids, plan.ratePerSecond) : await sendAll(plan.ids);
  agent.destroy();
  return { durations: answers.map((a) => a.ms), statuses: answers.map((a) => a.status) };
}

async function runPlan(plan: LoadPlan): Promise<LoadResult> {
  // A key made once: HMAC with a raw Buffer key is several times slower on Node 24.
  const key = createSecretKey(Buffer.from(plan.secret, 'utf8'));
  let next = 0;
  const triggeredAt = new Date().toISOString();
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await autocannon({
    url: plan.url,
    connections: plan.connections,
    duration: plan.durationSeconds,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const id = plan.idBase + next++;
          const body = plan.template.replaceAll('__ID__', String(id));
          return { ...request, method: 'POST', body, headers: signedHeaders(key, body, plan.shop, plan.apiVersion, triggeredAt) };
        },
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - startedAt)) * 100;
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    requests: result.requests.total,
    perSecond: result.requests.total / (result.duration || plan.durationSeconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    sent: next,
    cpuPercent,
  };
}

if (import.meta.main && process.send) {
  process.once('message', (job: Job) => {
    (job.kind === 'load' ? runPlan(job.plan) : runDeliveries(job.plan)).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
