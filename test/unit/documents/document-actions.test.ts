// What a person may do with a document, decided in one place (issue 26 item 1): each action allowed or withheld with
// its reason, for every status and kind, and a re-issue refused for a replaced invoice or one with credit notes.
import { describe, expect, it } from 'vitest';
import { type ActionFacts, documentActions } from '../../../src/documents/document-actions.ts';
import { render } from '../../../src/messages/catalogue.ts';

const row = (over: Partial<ActionFacts['row']> = {}): ActionFacts['row'] => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'invoice',
  status: 'completed',
  step: 'done',
  cufe: 'FE01…',
  lastErrorKind: null,
  ...over,
});

/** Each action as "yes" or its reason in Spanish. */
function verdicts(facts: Partial<ActionFacts> & { row: ActionFacts['row'] }) {
  const actions = documentActions({ replacedBy: null, creditNotes: [], ...facts });
  return Object.fromEntries(Object.entries(actions).map(([a, v]) => [a, v.allowed ? 'yes' : render(v.reason, 'es')]));
}

describe('document actions', () => {
  it('an authorized invoice: re-issue and resend, not retry nor correct', () => {
    expect(verdicts({ row: row() })).toEqual({
      retry: 'Está autorizado: no hay nada que reintentar.',
      correct_client: 'La factura está autorizada y ya no puede cambiar: reemítala a otro cliente.',
      reissue: 'yes',
      resend_email: 'yes',
    });
  });

  it('an invoice that needs attention: retry and correct; re-issue says to correct instead', () => {
    expect(verdicts({ row: row({ status: 'needs_attention', step: 'send', cufe: null, lastErrorKind: 'mapping' }) })).toEqual({
      retry: 'yes',
      correct_client: 'yes',
      reissue: 'La factura aún no está autorizada: corrija su cliente en lugar de reemitirla.',
      resend_email: 'Solo un documento autorizado, con su PDF, se puede enviar por correo.',
    });
  });

  it('a replaced invoice names its replacement; one with credit notes says why a replacement would be wrong', () => {
    const replacedBy = { id: 'r', status: 'completed', fiscalNumber: '0000-001-0000000003' };
    expect(verdicts({ row: row(), replacedBy }).reissue).toBe('Ya fue reemplazada por la factura 0000-001-0000000003.');
    expect(verdicts({ row: row(), replacedBy: { ...replacedBy, fiscalNumber: null } }).reissue).toBe(
      'Ya fue reemplazada por otra factura.',
    );
    const note = { id: 'n', status: 'completed', fiscalNumber: '0000-001-0000000001' };
    expect(verdicts({ row: row(), creditNotes: [note] }).reissue).toMatch(/^La factura tiene una nota de crédito \(reembolsos\)/);
    // A skipped note credits nothing: the invoice can still be replaced.
    expect(verdicts({ row: row(), creditNotes: [{ ...note, status: 'skipped' }] }).reissue).toBe('yes');
  });

  it('a credit note is neither corrected nor re-issued', () => {
    const v = verdicts({ row: row({ kind: 'credit_note' }) });
    expect(v.correct_client).toBe('El cliente de una nota de crédito es el de su factura: corrija o reemita la factura.');
    expect(v.reissue).toBe('Solo una factura se reemite a otro cliente, no una nota de crédito.');
  });

  it('queued and skipped documents, and a server without e-mail', () => {
    expect(verdicts({ row: row({ status: 'pending', step: 'send', cufe: null }) }).retry).toBe('Ya está en la cola: la app lo envía sola.');
    expect(verdicts({ row: row({ status: 'pending', step: 'send', cufe: null, lastErrorKind: 'unavailable' }) }).retry).toBe('yes');
    expect(verdicts({ row: row({ status: 'waiting', step: 'send', cufe: null }) }).retry).toBe('yes');
    expect(verdicts({ row: row({ status: 'skipped', step: 'send', cufe: null }) })).toMatchObject({
      retry: 'No se emite (omitido a propósito): no hay nada que reintentar.',
      correct_client: 'La factura no se emite (omitida): no hay cliente que corregir.',
    });
    expect(verdicts({ row: row(), mailConfigured: false }).resend_email).toBe(
      'Este servidor no tiene correo configurado (SMTP_URL y MAIL_FROM).',
    );
  });
});
