// The order block's logic (extensions/order-invoice-block): what it shows for each state of a document,
// the collapsed summary, and how it reads the app's answers. Its texts exist in both locales.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type OrderDocument,
  blockState,
  documentLine,
  documentsPath,
} from '../../../extensions/order-invoice-block/src/order-documents-view.ts';
import { ROOT } from '../../support/paths.ts';

const doc = (o: Partial<OrderDocument> = {}): OrderDocument => ({
  id: 'inv-1',
  kind: 'invoice',
  status: 'completed',
  authorized: true,
  fiscalNumber: '0000-001-0000000001',
  cufe: 'FE01200000155596713-2-2015-5900002026112500000001001012321922922',
  pdfUrl: 'https://app.example/invoices/abc.pdf',
  retryable: false,
  reason: null,
  ...o,
});

describe('the order block, per document state', () => {
  it('an authorized invoice: Autorizada, its number, CUFE and PDF, no retry', () => {
    expect(documentLine(doc())).toEqual({
      id: 'inv-1',
      kindKey: 'kind.invoice',
      statusKey: 'status.completed',
      tone: 'success',
      fiscalNumber: '0000-001-0000000001',
      invoiceNumber: null,
      cufe: 'FE01200000155596713-2-2015-5900002026112500000001001012321922922',
      pdfUrl: 'https://app.example/invoices/abc.pdf',
      reasonKey: null,
      reasonCode: null,
      canRetry: false,
    });
  });

  it('authorized but still saving its PDF reads as authorized', () => {
    expect(documentLine(doc({ status: 'pending', pdfUrl: null }))).toMatchObject({
      statusKey: 'status.completed',
      tone: 'success',
      pdfUrl: null,
    });
  });

  it('needs attention after a rejection: the reason with its code, and Reintentar', () => {
    const line = documentLine(
      doc({
        status: 'needs_attention',
        authorized: false,
        cufe: null,
        pdfUrl: null,
        retryable: true,
        reason: { kind: 'rejected', code: '109' },
      }),
    );
    expect(line).toMatchObject({
      statusKey: 'status.needs_attention',
      tone: 'warning',
      reasonKey: 'reason.rejected',
      reasonCode: '109',
      canRetry: true,
    });
  });

  it('failed, retrying, on hold, queued and skipped each have their word and tone', () => {
    const pending = { status: 'pending' as const, authorized: false, cufe: null, pdfUrl: null };
    expect(
      documentLine(doc({ status: 'failed', authorized: false, retryable: true, reason: { kind: 'unavailable', code: null } })),
    ).toMatchObject({
      statusKey: 'status.failed',
      tone: 'critical',
      reasonKey: 'reason.unavailable',
      canRetry: true,
    });
    expect(documentLine(doc({ ...pending, reason: { kind: 'unavailable', code: null } }))).toMatchObject({
      statusKey: 'status.retrying',
      tone: 'caution',
    });
    expect(documentLine(doc({ ...pending, reason: { kind: 'paused', code: null } }))).toMatchObject({
      statusKey: 'status.onHold',
      tone: 'caution',
      reasonKey: 'reason.paused',
    });
    expect(documentLine(doc({ ...pending, reason: null }))).toMatchObject({ statusKey: 'status.pending', tone: 'info', reasonKey: null });
    expect(documentLine(doc({ status: 'skipped', authorized: false, reason: { kind: 'skipped', code: null } }))).toMatchObject({
      statusKey: 'status.skipped',
      tone: 'neutral',
      reasonKey: null,
    });
    expect(documentLine(doc({ ...pending, reason: { kind: 'something-new', code: null } })).reasonKey).toBe('reason.unknown');
  });

  it('a credit note is named as one, with the invoice it credits and its own reasons', () => {
    const note = (o: Partial<OrderDocument>) => documentLine(doc({ kind: 'credit_note', invoiceNumber: '0000-001-0000000007', ...o }));
    expect(note({})).toMatchObject({ kindKey: 'kind.credit_note', invoiceNumber: '0000-001-0000000007', statusKey: 'status.completed' });
    expect(documentLine(doc({ invoiceNumber: '0000-001-0000000007' })).invoiceNumber).toBeNull();
    const rejected = { status: 'needs_attention' as const, authorized: false, retryable: true };
    expect(note({ ...rejected, reason: { kind: 'rejected', code: '201' } })).toMatchObject({
      reasonKey: 'reasonNote.rejected',
      reasonCode: '201',
      canRetry: true,
    });
    expect(documentLine(doc({ ...rejected, reason: { kind: 'rejected', code: '201' } })).reasonKey).toBe('reason.rejected');
    // Waiting for its invoice: its own word, it goes on by itself (Retry only hurries it).
    expect(note({ status: 'waiting', authorized: false, invoiceNumber: null, reason: { kind: 'waiting', code: null } })).toMatchObject({
      statusKey: 'status.waiting',
      tone: 'info',
      reasonKey: 'reason.waiting',
      invoiceNumber: null,
    });
  });
});

describe('the block from the app’s answer', () => {
  it('summarizes: authorized, attention first when anything can be retried, none yet', () => {
    expect(blockState(200, { documents: [doc()] })).toMatchObject({ kind: 'documents', summaryKey: 'summary.authorized' });
    const note = doc({ id: 'cn-1', kind: 'credit_note', status: 'failed', retryable: true, reason: { kind: 'unavailable', code: null } });
    expect(blockState(200, { documents: [doc(), note] })).toMatchObject({ summaryKey: 'summary.attention' });
    expect(blockState(200, { documents: [doc({ status: 'pending', authorized: false })] })).toMatchObject({
      summaryKey: 'summary.inProgress',
    });
    expect(blockState(200, { documents: [] })).toEqual({ kind: 'empty' });
  });

  it('says the session expired on 401 and could not load on anything else', () => {
    expect(blockState(401, { error: 'invalid session token' })).toEqual({ kind: 'failed', messageKey: 'error.session' });
    expect(blockState(500, { error: 'internal error' })).toEqual({ kind: 'failed', messageKey: 'error.load' });
    expect(blockState(200, 'not json')).toEqual({ kind: 'failed', messageKey: 'error.load' });
  });

  it('asks for the order the admin hands it, by GID', () => {
    expect(documentsPath('gid://shopify/Order/5910000000001')).toBe('/api/orders/gid%3A%2F%2Fshopify%2FOrder%2F5910000000001/documents');
  });

  it('has every text it uses in Spanish (the default) and English', () => {
    const dir = path.join(ROOT, 'extensions/order-invoice-block/locales');
    const keys = (file: string) => {
      const flat = (o: Record<string, unknown>, prefix = ''): string[] =>
        Object.entries(o).flatMap(([k, v]) =>
          typeof v === 'string' ? [prefix + k] : flat(v as Record<string, unknown>, `${prefix}${k}.`),
        );
      return flat(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))).sort();
    };
    const es = keys('es.default.json');
    expect(keys('en.json')).toEqual(es);
    const used = [
      ...['invoice', 'credit_note', 'other'].map((k) => `kind.${k}`),
      ...['pending', 'retrying', 'onHold', 'waiting', 'needs_attention', 'failed', 'completed', 'skipped'].map((k) => `status.${k}`),
      ...['mapping', 'rejected', 'writeback'].map((k) => `reasonNote.${k}`),
      ...['waiting', 'order_unconfirmed'].map((k) => `reason.${k}`),
      'credits',
      ...['none', 'authorized', 'inProgress', 'attention'].map((k) => `summary.${k}`),
      'error.session',
      'error.load',
      'reason.unknown',
    ];
    for (const key of used) expect(es, key).toContain(key);
  });
});
