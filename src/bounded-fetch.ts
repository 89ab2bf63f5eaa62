// Outbound HTTP with a deadline on the whole exchange (headers and body) and a bound on what is read: an answer that
// trickles, stalls or never ends costs at most the deadline, and one larger than its bound is dropped while it
// streams, never held (docs/gateway-checks.md). Past either, the connection is aborted, so its socket and slot free.

/** An answer read whole within its bounds. */
export interface BoundedAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
  url: string;
}

export interface AnswerBounds {
  /** The whole exchange, from the request to the answer's last byte. */
  deadlineMs: number;
  /** Bytes of body read at most; one more and the answer is dropped. */
  maxBytes: number;
}

/** The answer went past its size bound (it was dropped while it streamed). */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/** The whole answer (headers and body) did not arrive within the deadline. */
export class AnswerDeadlineError extends Error {
  override readonly name = 'AnswerDeadlineError';
  readonly deadlineMs: number;
  constructor(deadlineMs: number) {
    super(`no whole answer within ${deadlineMs} ms`);
    this.deadlineMs = deadlineMs;
  }
}

/**
 * Send the request and read its answer's body, within `bounds`. Throws AnswerDeadlineError, AnswerTooLargeError, or
 * what fetch throws (network errors; an abort of the caller's own signal).
 */
export async function fetchBounded(
  fetchImpl: typeof fetch,
  input: string | URL | Request,
  init: RequestInit | undefined,
  bounds: AnswerBounds,
): Promise<BoundedAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new AnswerDeadlineError(bounds.deadlineMs)), bounds.deadlineMs);
  const callerSignal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
  try {
    const response = await fetchImpl(input, { ...init, signal });
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > bounds.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(bounds.maxBytes);
    }
    const body = await readAtMost(response, bounds.maxBytes);
    return { status: response.status, statusText: response.statusText, headers: response.headers, body, url: response.url };
  } catch (error) {
    if (deadline.signal.aborted) throw deadline.signal.reason as Error;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The body, chunk by chunk, dropped (the stream cancelled, so the connection closes) once past `maxBytes`. */
async function readAtMost(response: Response, maxBytes: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A fetch whose answers are read whole within `bounds` before they are handed on (as a Response over the bytes
 * read): for clients such as ky whose own time-out then covers the body too.
 */
export function boundedFetch(fetchImpl: typeof fetch, bounds: AnswerBounds): typeof fetch {
  return async (input, init) => {
    const answer = await fetchBounded(fetchImpl, input, init, bounds);
    const nullBody = answer.status === 204 || answer.status === 304 || (answer.status >= 100 && answer.status < 200);
    const headers = new Headers(answer.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(nullBody ? null : new Uint8Array(answer.body), {
      status: answer.status,
      statusText: answer.statusText,
      headers,
    });
  };
}
