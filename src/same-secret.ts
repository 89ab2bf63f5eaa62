// Comparing a secret someone sent with the one we hold.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of two secrets of any length: digests compared, so the time says nothing of either. */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
