// The admin list's parameters as text: the search box, the page cursor, ids. Pure; the statements are the store's.
import type { DocumentCursor, DocumentSearch } from '../documents/store/index.ts';

/** Search text → what to match. Exact matches only, so every branch is an index lookup. */
export function parseSearch(text: string): DocumentSearch | undefined {
  const q = text.trim();
  if (q === '') return undefined;
  const full = /^([0-9A-Za-z]{4})-(\d{3})-(\d{1,10})$/.exec(q);
  if (full)
    return {
      orderNames: [q],
      fiscalNumber: undefined,
      fiscalKey: { branchCode: full[1]!, billingPoint: full[2]!, fiscalNumber: Number(full[3]) },
    };
  const names = q.startsWith('#') ? [q] : [q, `#${q}`];
  const digits = /^\d{1,10}$/.test(q) ? Number(q) : undefined;
  return { orderNames: names, fiscalNumber: digits, fiscalKey: undefined };
}

export function encodeCursor(c: DocumentCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeCursor(text: string): DocumentCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'string' || !CURSOR_TIME.test(createdAt) || typeof id !== 'string' || !UUID.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}
