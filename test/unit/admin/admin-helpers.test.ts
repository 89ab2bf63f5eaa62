// The admin API's pure helpers: the search box, cursors, credential merging, the order link.
import { describe, expect, it } from 'vitest';
import { mergeCredentials } from '../../../src/admin/admin-api.ts';
import { decodeCursor, encodeCursor, parseSearch } from '../../../src/admin/list-params.ts';
import { orderAdminUrl } from '../../../src/admin/document-view.ts';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../../sim/sandbox/sandbox-gateway.ts';

/** Fixed ids so rows with the same created_at have a known order (id desc). */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('admin helpers', () => {
  it('reads the search box as order names or fiscal numbers', () => {
    expect(parseSearch('  ')).toBeUndefined();
    expect(parseSearch('1001')).toEqual({ orderNames: ['1001', '#1001'], fiscalNumber: 1001, fiscalKey: undefined });
    expect(parseSearch('#1001')).toEqual({ orderNames: ['#1001'], fiscalNumber: undefined, fiscalKey: undefined });
    expect(parseSearch('0000-001-0000000042')).toEqual({
      orderNames: ['0000-001-0000000042'],
      fiscalNumber: undefined,
      fiscalKey: { branchCode: '0000', billingPoint: '001', fiscalNumber: 42 },
    });
    expect(parseSearch('PA-77')).toEqual({ orderNames: ['PA-77', '#PA-77'], fiscalNumber: undefined, fiscalKey: undefined });
    expect(parseSearch('12345678901')).toEqual({
      orderNames: ['12345678901', '#12345678901'],
      fiscalNumber: undefined,
      fiscalKey: undefined,
    });
  });

  it('round-trips cursors and refuses anything else', () => {
    const c = { createdAt: '2026-03-01T10:00:00.000002Z', id: id(3) };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor('garbage')).toBeUndefined();
    expect(decodeCursor(Buffer.from(JSON.stringify(['2026-03-01', id(3)])).toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from(JSON.stringify([c.createdAt, "x' or 1=1"])).toString('base64url'))).toBeUndefined();
  });

  it('merges typed credentials over stored ones', () => {
    const stored = DEFAULT_SANDBOX_CREDENTIALS;
    expect(mergeCredentials(stored, undefined)).toBeUndefined();
    expect(mergeCredentials(stored, { Token: '', GW_Token: ' ' })).toBeUndefined();
    expect(mergeCredentials(stored, { Token: 'n' })).toEqual({ ...stored, Token: 'n' });
    expect(mergeCredentials(undefined, { Token: 'n' })).toEqual({ Token: 'n' });
    expect(mergeCredentials(stored, 'text')).toBe('text');
  });

  it('links the order in the Shopify admin', () => {
    expect(orderAdminUrl('mi-tienda.myshopify.com', 'gid://shopify/Order/123')).toBe(
      'https://admin.shopify.com/store/mi-tienda/orders/123',
    );
    expect(orderAdminUrl('mi-tienda.myshopify.com', 'not-a-gid')).toBeNull();
  });
});
