// A bound on the bytes of request bodies in flight (being read or handled) across the whole app. Each
// delivery of a flash sale holds its body several times over while it is handled (the bytes, the text,
// the parsed order, the statement's parameter): 300 concurrent 2 MB deliveries took the app from 213 to
// 1,434 MiB. A request whose body does not fit is answered 503 with Retry-After before its body is read;
// Shopify retries a 503 like any failed delivery.
import type { RequestHandler } from 'express';

export interface BodyBudget {
  /** Bytes of bodies in flight at once. */
  maxBytes: number;
  /** The largest body any route accepts: what a body without a declared length may grow to. */
  largestBody: number;
  /** What a body without a declared length holds of the budget; default `largestBody` (few routes take larger ones). */
  undeclaredBody?: number;
}

/** Seconds a refused sender is asked to wait. */
const RETRY_AFTER_SECONDS = 1;

export function bodyBudget(o: BodyBudget): RequestHandler {
  let inFlight = 0;
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    if (declared === undefined && req.headers['transfer-encoding'] === undefined) return next();
    const size = declared === undefined ? (o.undeclaredBody ?? o.largestBody) : Number(declared);
    // No body, or one its route refuses (413) before reading it: nothing to hold.
    if (!(size > 0) || size > o.largestBody) return next();
    if (inFlight + size > o.maxBytes) {
      res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      // Close rather than read the unwanted body to its end (Node would, to reuse the connection).
      res.setHeader('connection', 'close');
      res.status(503).json({ error: 'too many request bodies in flight: retry shortly' });
      return;
    }
    inFlight += size;
    res.once('close', () => (inFlight -= size));
    next();
  };
}
