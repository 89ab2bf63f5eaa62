// What a buyer's request does by the invoice's state (src/buyer-page/request-rules.ts), and the client's problems told
// in the buyer's language by the correction's own rules (src/buyer-page/buyer-problems.ts). Pure.
import { describe, expect, it } from 'vitest';
import { checkClient } from '../../../src/buyer-page/buyer-problems.ts';
import { type RequestFacts, planRequest, windowEnds } from '../../../src/buyer-page/request-rules.ts';
import { TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';

const AUTHORIZED_AT = new Date('2026-11-01T15:00:00Z');
const consumer = { dataTransaction: { client: { typeClientEB: '02' } } };
const taxpayer = { dataTransaction: { client: { typeClientEB: '01', numberRUC: '155596713-2-2015' } } };

function facts(o: Partial<Omit<RequestFacts, 'doc'>> & { doc?: Partial<RequestFacts['doc']> } = {}): RequestFacts {
  return {
    hasCreditNotes: false,
    replaced: false,
    settings: { enabled: true, days: 30 },
    now: new Date('2026-11-20T12:00:00Z'),
    ...o,
    doc: {
      kind: 'invoice',
      status: 'completed',
      cufe: 'FE01…',
      authorizedAt: AUTHORIZED_AT,
      createdAt: new Date('2026-11-01T14:59:00Z'),
      document: consumer,
      ...o.doc,
    },
  };
}

describe('a buyer request, by the invoice’s state', () => {
  it('authorized to a final consumer: re-issued; stopped before authorization: corrected', () => {
    expect(planRequest(facts())).toEqual({ kind: 'reissue' });
    for (const status of ['needs_attention', 'failed'] as const) {
      expect(planRequest(facts({ doc: { status, cufe: null, authorizedAt: null, document: null } }))).toEqual({ kind: 'correct' });
    }
  });

  it('refused, each with its reason', () => {
    const refused = (f: RequestFacts) => {
      const plan = planRequest(f);
      return plan.kind === 'refuse' ? plan.reason : plan.kind;
    };
    expect(refused(facts({ doc: { kind: 'credit_note' } }))).toBe('not_invoice');
    expect(refused(facts({ replaced: true }))).toBe('replaced');
    expect(refused(facts({ settings: { enabled: false, days: 30 } }))).toBe('disabled');
    expect(refused(facts({ hasCreditNotes: true }))).toBe('credit_notes');
    expect(refused(facts({ doc: { document: taxpayer } }))).toBe('already_taxpayer');
    expect(refused(facts({ doc: { status: 'pending', cufe: null, authorizedAt: null } }))).toBe('in_progress');
    expect(refused(facts({ doc: { status: 'waiting', cufe: null, authorizedAt: null } }))).toBe('in_progress');
    expect(refused(facts({ doc: { status: 'skipped', cufe: null, authorizedAt: null } }))).toBe('not_issued');
  });

  it('the window: `days` after the authorization (or the arrival when not authorized), to the millisecond', () => {
    const end = windowEnds({ authorizedAt: AUTHORIZED_AT, createdAt: new Date(0) }, 30);
    expect(end.toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(planRequest(facts({ now: end }))).toEqual({ kind: 'reissue' });
    expect(planRequest(facts({ now: new Date(end.getTime() + 1) }))).toEqual({ kind: 'refuse', reason: 'window_passed' });
    const stopped = { status: 'needs_attention' as const, cufe: null, authorizedAt: null, createdAt: new Date('2026-11-19T00:00:00Z') };
    const oneDay = { enabled: true, days: 1 };
    expect(planRequest(facts({ doc: stopped, settings: oneDay, now: new Date('2026-11-20T00:00:00Z') }))).toEqual({ kind: 'correct' });
    expect(planRequest(facts({ doc: stopped, settings: oneDay, now: new Date('2026-11-20T00:00:01Z') }))).toEqual({
      kind: 'refuse',
      reason: 'window_passed',
    });
  });
});

describe('the buyer’s client, checked by the correction’s rules', () => {
  it('passes as the merchant’s correction would', () => {
    expect(checkClient(TAXPAYER_CORRECTION, 'es')).toEqual({ ok: true, client: { ...TAXPAYER_CORRECTION } });
  });

  it('names each field’s problem in the buyer’s language, in the form’s order', () => {
    expect(checkClient({ ...TAXPAYER_CORRECTION, dv: '58' }, 'es')).toEqual({
      ok: false,
      problems: [{ path: 'dv', message: 'El DV 58 no corresponde al RUC 155596713-2-2015: revise el dígito verificador.' }],
    });
    expect(
      checkClient({ type: 'taxpayer', ruc: 'x', dv: 'ab', name: '', address: 'abc', locationCode: '99-9', email: 'no', extra: 1 }, 'en'),
    ).toEqual({
      ok: false,
      problems: [
        { path: 'ruc', message: 'The RUC or cédula cannot be read (for example 155596713-2-2015 or 8-442-445).' },
        { path: 'dv', message: 'The DV is one or two digits.' },
        { path: 'name', message: 'Enter the business name (up to 100 characters).' },
        { path: 'address', message: 'Enter the address (5 to 100 characters).' },
        { path: 'locationCode', message: 'Choose the province, district and corregimiento.' },
        { path: 'email', message: 'The e-mail address is not valid (up to 100 characters).' },
        { path: 'extra', message: 'This field is not accepted.' },
      ],
    });
    expect(checkClient({ type: 'company' }, 'es')).toMatchObject({ ok: false, problems: [{ path: 'type' }] });
    expect(checkClient([1], 'en')).toEqual({ ok: false, problems: [{ path: '(body)', message: 'Send the client as a JSON object.' }] });
  });
});
