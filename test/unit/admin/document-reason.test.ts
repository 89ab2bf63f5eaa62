// Why a document is not authorized, as the page and the CLI say it: headlines name the document's kind.
import { describe, expect, it } from 'vitest';
import { reasonFor } from '../../../src/admin/document-view.ts';
import type { ErrorKind } from '../../../src/db/document-state.ts';

const shop = { enabled: true, pausedReason: null };
const stopped = (kind: 'invoice' | 'credit_note', status: 'needs_attention' | 'failed' | 'skipped', lastErrorKind: ErrorKind | null) => ({
  kind,
  status,
  lastErrorKind,
  lastErrorCode: lastErrorKind === 'rejected' ? '201' : null,
  lastError: null,
  problems: null,
});

describe('reasonFor', () => {
  it('names the invoice or the credit note in the headline and the action', () => {
    const invoice = reasonFor(stopped('invoice', 'needs_attention', 'writeback'), shop)!;
    const note = reasonFor(stopped('credit_note', 'needs_attention', 'writeback'), shop)!;
    expect(invoice.title).toEqual({
      es: 'Shopify no aceptó los datos de la factura en el pedido',
      en: "Shopify refused the invoice's data on the order",
    });
    expect(note.title).toEqual({
      es: 'Shopify no aceptó los datos de la nota de crédito en el pedido',
      en: "Shopify refused the credit note's data on the order",
    });
    expect(note.action.es).toBe('La nota de crédito está autorizada. Revise el detalle y pulse Reintentar.');
    expect(reasonFor(stopped('credit_note', 'needs_attention', 'rejected'), shop)!).toMatchObject({
      kind: 'rejected',
      code: '201',
      title: { es: 'El proveedor rechazó la nota de crédito', en: 'The provider rejected the credit note' },
    });
  });

  it('keeps the words both kinds share, and the used-up retries win over the kind', () => {
    const failed = reasonFor(stopped('credit_note', 'failed', 'unavailable'), shop)!;
    expect(failed.title.en).toBe('The provider did not answer');
    expect(failed.action.en).toBe('Automatic retries are used up. Press Retry once the cause is fixed.');
    expect(reasonFor(stopped('credit_note', 'skipped', null), shop)!.title.es).toBe('No se emite nota de crédito');
    expect(reasonFor(stopped('invoice', 'skipped', null), shop)!.title.es).toBe('No se factura');
  });

  it('a queued document of a paused shop says so; an authorized one has no reason', () => {
    const queued = { ...stopped('credit_note', 'needs_attention', null), status: 'pending' as const };
    const paused = reasonFor(queued, { enabled: true, pausedReason: { key: 'credentials', params: { gatewayMessage: 'x' } } })!;
    expect(paused.kind).toBe('paused');
    expect(paused.action.en).toBe('Correct the credentials in Settings; once saved, documents continue on their own.');
    expect(reasonFor({ ...queued, status: 'completed' }, shop)).toBeNull();
    expect(reasonFor(queued, shop)).toBeNull();
  });
});
