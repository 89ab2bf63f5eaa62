// What a bulk action's body may select (ids or the list's filters, at most 500), the refusals in the selection's
// order, and the ZIP's entry names (unique when a test and a production document share a number).
import { describe, expect, it } from 'vitest';
import { MAX_BULK_DOCUMENTS, bulkBodySchema, documentFilter, inSelectionOrder } from '../../../src/admin/bulk-selection.ts';
import { zipNames } from '../../../src/reports/pdfs-zip.ts';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('bulk selection', () => {
  it('takes ids (as many as the cap) or filters, one of them', () => {
    const ids = Array.from({ length: MAX_BULK_DOCUMENTS }, (_, i) => ID(i + 1));
    expect(bulkBodySchema.parse({ ids })).toEqual({ ids });
    expect(bulkBodySchema.parse({ filters: { status: 'failed', q: '#1001' } })).toEqual({ filters: { status: 'failed', q: '#1001' } });
    const problems = (body: unknown) => bulkBodySchema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(problems({ ids: [...ids, ID(999)] })).toEqual([['ids', 'at most 500 documents per request; send the rest in another request']]);
    expect(problems({ ids: [ID(1)], filters: {} })).toEqual([['', 'give either ids or filters (one of them)']]);
    expect(problems({ filters: { limit: '5' } })).toEqual([['filters', 'Unrecognized key: "limit"']]);
    expect(problems({ filters: { from: '2026-03-02', to: '2026-03-01' } })).toEqual([['filters.to', 'must not be before from']]);
  });

  it('reads the filters as the list does: Panama days, the search box', () => {
    const f = documentFilter('tienda.myshopify.com', { from: '2026-03-01', to: '2026-03-01', q: '0000-001-42' });
    expect([f.from?.toISOString(), f.before?.toISOString()]).toEqual(['2026-03-01T05:00:00.000Z', '2026-03-02T05:00:00.000Z']);
    expect(f.search?.fiscalKey).toEqual({ branchCode: '0000', billingPoint: '001', fiscalNumber: 42 });
  });

  it('lists refusals in the order the ids were given', () => {
    const refusal = (id: string) => ({ id, kind: null, order: null, fiscalNumber: null, code: 'x', reason: 'x' });
    const sorted = inSelectionOrder({ ids: [ID(3), ID(1), ID(2)] }, { rows: [], missing: [] }, [
      refusal(ID(1)),
      refusal(ID(2)),
      refusal(ID(3)),
    ]);
    expect(sorted.map((r) => r.id)).toEqual([ID(3), ID(1), ID(2)]);
  });

  it('names ZIP entries by type and number, unique', () => {
    const doc = (kind: string, environment: string, fiscalNumber: number) => ({
      id: ID(fiscalNumber),
      kind,
      environment,
      branchCode: '0000',
      billingPoint: '001',
      fiscalNumber,
    });
    expect(
      zipNames([
        doc('invoice', 'produccion', 7),
        doc('credit_note', 'produccion', 7),
        doc('invoice', 'pruebas', 7),
        doc('invoice', 'pruebas', 7),
      ]),
    ).toEqual([
      'factura-0000-001-0000000007.pdf',
      'nota-de-credito-0000-001-0000000007.pdf',
      'factura-0000-001-0000000007-pruebas.pdf',
      'factura-0000-001-0000000007-3.pdf',
    ]);
  });
});
