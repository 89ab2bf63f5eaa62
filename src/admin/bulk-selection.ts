// What a bulk action acts on (docs/merchants.md, "Acciones en lote"): `{ "ids": [...] }`, the documents ticked on the
// page, or `{ "filters": {...} }`, all that match the list's filters (the names GET /api/invoices takes: status, kind,
// from, to, q). At most MAX_BULK_DOCUMENTS either way, so one answer names every document it acted on.
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { type BulkRow, type DocumentFilter, bulkRowsByFilter, bulkRowsByIds, formatFiscalNumber } from '../documents/store/index.ts';
import type { Language } from '../db/languages.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, message } from '../messages/message.ts';
import { dayStart, listQuerySchema, nextDayStart } from './admin-api.ts';
import { isUuid, parseSearch } from './list-params.ts';

export const MAX_BULK_DOCUMENTS = 500;

export const bulkFiltersSchema = listQuerySchema.pick({ status: true, kind: true, from: true, to: true, q: true }).strict();
export type BulkFilters = z.infer<typeof bulkFiltersSchema>;

const idsSchema = z
  .array(z.string({ error: 'each id must be a document id (a UUID)' }).refine(isUuid, 'each id must be a document id (a UUID)'), {
    error: 'must be a list of document ids',
  })
  .min(1, 'name at least one document')
  .max(MAX_BULK_DOCUMENTS, `at most ${MAX_BULK_DOCUMENTS} documents per request; send the rest in another request`);

export const bulkBodySchema = z
  .object({ ids: idsSchema.optional(), filters: bulkFiltersSchema.optional() }, { error: 'must be a JSON object' })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filters === undefined), { message: 'give either ids or filters (one of them)' })
  .refine((b) => !(b.filters?.from && b.filters.to && b.filters.from > b.filters.to), {
    message: 'must not be before from',
    path: ['filters', 'to'],
  });

export type BulkBody = z.infer<typeof bulkBodySchema>;

/** The filters as the store reads them, for one shop (or every shop: the CLI without --shop). */
export function documentFilter(shop: string | undefined, f: BulkFilters): DocumentFilter {
  return {
    shop,
    status: f.status,
    kind: f.kind,
    from: f.from ? dayStart(f.from) : undefined,
    before: f.to ? nextDayStart(f.to) : undefined,
    search: f.q === undefined ? undefined : parseSearch(f.q),
  };
}

export interface Selection {
  rows: BulkRow[];
  /** Ids asked for that are not this shop's documents. */
  missing: string[];
}

export type Selected = ({ ok: true } & Selection) | { ok: false; tooMany: true };

/** The documents a body selects, in its order (ids) or the list's (filters); ids not of this shop are `missing`. */
export async function selectDocuments(db: Db, shop: string, body: BulkBody): Promise<Selected> {
  if (body.ids) {
    const ids = [...new Set(body.ids.map((i) => i.toLowerCase()))];
    const rows = await bulkRowsByIds(db, ids, shop);
    const found = new Set(rows.map((r) => r.id));
    return { ok: true, rows, missing: ids.filter((i) => !found.has(i)) };
  }
  const rows = await bulkRowsByFilter(db, documentFilter(shop, body.filters ?? {}), MAX_BULK_DOCUMENTS + 1);
  if (rows.length > MAX_BULK_DOCUMENTS) return { ok: false, tooMany: true };
  return { ok: true, rows, missing: [] };
}

/** A document a bulk action did not act on, and why, in the reader's language. */
export interface Refusal {
  id: string;
  kind: string | null;
  order: string | null;
  fiscalNumber: string | null;
  /** The catalogue key of the reason (stable, for programs). */
  code: string;
  reason: string;
}

export function refusalOf(row: BulkRow | { id: string }, reason: Message, language: Language): Refusal {
  const doc = 'shop' in row ? row : undefined;
  return {
    id: row.id,
    kind: doc?.kind ?? null,
    order: doc ? doc.orderName || doc.orderGid : null,
    fiscalNumber: doc && doc.fiscalNumber !== null ? formatFiscalNumber(doc) : null,
    code: reason.key,
    reason: render(reason, language),
  };
}

/** Refusals in the order the documents were selected (ids as asked; filters as the list orders them). */
export function inSelectionOrder(body: Pick<BulkBody, 'ids'>, sel: Selection, refused: Refusal[]): Refusal[] {
  const order = body.ids ? body.ids.map((i) => i.toLowerCase()) : sel.rows.map((r) => r.id);
  const position = new Map(order.map((id, i) => [id, i] as const));
  return [...refused].sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}

export const notFound = (id: string, language: Language): Refusal => refusalOf({ id }, message('bulk_not_found'), language);
