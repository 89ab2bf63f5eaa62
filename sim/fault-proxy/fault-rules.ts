// What the fault proxy does to a request, written from the outside contract (docs/gateway-api.md): each fault is a
// way a real gateway (or Shopify) can misbehave that the sandbox never does. Rules are matched in order; the first
// that matches and still has uses left applies.

/** How one answer goes wrong. */
export type Fault =
  /** The upstream's answer, its body sent `bytesPerTick` bytes every `tickMs` (default: a byte a second). */
  | { kind: 'trickle'; tickMs?: number; bytesPerTick?: number }
  /** The upstream's headers and the first `afterBytes` bytes of its body, then nothing, the socket left open. */
  | { kind: 'stall'; afterBytes?: number }
  /**
   * A 200 JSON answer of `bytes` bytes, generated as it is sent (never held): a DownloadPDF-shaped body
   * `{"code":"200","document":"JVBERi0…"}` (base64 starting with %PDF-), or `{"code":"200","message":"xxxx…"}`.
   */
  | { kind: 'huge'; bytes: number; shape?: 'pdf' | 'message' }
  /** DownloadPDF answered with the PDF the proxy last saw for another document number. */
  | { kind: 'other_pdf' }
  /** SendDocument's upstream success with its `cufe` replaced: by `cufe` (default 66 × "X"). */
  | { kind: 'fake_cufe'; cufe?: string }
  /** SendDocument's upstream success with a well-formed CUFE naming another fiscal number (`numberOffset`, default 1000). */
  | { kind: 'cufe_other_number'; numberOffset?: number }
  /** SendDocument's upstream success with the first CUFE this proxy passed (another document's). */
  | { kind: 'duplicate_cufe' }
  /** Answered by the proxy with this gateway error code, without asking upstream (e.g. 201 to everything, 102). */
  | { kind: 'code'; code: string; message?: string }
  /** Answered by the proxy with this JSON body (HTTP 200), without asking upstream. */
  | { kind: 'answer'; body: unknown }
  /** A 201 whose message repeats the Authorization header and the request's passwords in several encodings. */
  | { kind: 'echo_secrets' }
  /** Forwarded (the upstream acts on it), then the socket destroyed: the answer is lost. */
  | { kind: 'lose_answer' };

export interface FaultRule {
  /** The last segment of the request's path: SendDocument, DownloadPDF, StatusDocument, graphql.json. Any when absent. */
  operation?: string;
  /** Only requests whose body contains this text (e.g. "metafieldsSet"). */
  bodyContains?: string;
  fault: Fault;
  /** Applies to this many matching requests, then no more. Default: every one. */
  times?: number;
}

/** One request as the proxy saw it, for a test's assertions. */
export interface ProxiedRequest {
  operation: string;
  fault: Fault['kind'] | undefined;
  at: number;
}

/** The rules in force, with their uses left; `take` picks the rule for one request and uses it up once. */
export class RuleBook {
  #rules: { rule: FaultRule; left: number }[] = [];

  set(rules: readonly FaultRule[]): void {
    this.#rules = rules.map((rule) => ({ rule, left: rule.times ?? Number.POSITIVE_INFINITY }));
  }

  take(operation: string, body: string): Fault | undefined {
    for (const entry of this.#rules) {
      const { rule } = entry;
      if (entry.left <= 0) continue;
      if (rule.operation !== undefined && rule.operation !== operation) continue;
      if (rule.bodyContains !== undefined && !body.includes(rule.bodyContains)) continue;
      entry.left--;
      return rule.fault;
    }
    return undefined;
  }
}
