import { describe, expect, it } from 'vitest';
import { invoicePointFor, orderLocationId } from '../../../mappers/invoice/issuing-point.ts';

const SHOP = { branchCode: '0000', billingPoint: '001' };
const LOCATIONS = {
  '71234567890': { branchCode: '0002', billingPoint: '001' },
  '71234567891': { branchCode: '0003', billingPoint: '002' },
};

describe('where an invoice is issued from', () => {
  it("reads the order's location_id as text: a number, digits, a Location GID; nothing else", () => {
    expect(orderLocationId({ location_id: 71234567890 })).toBe('71234567890');
    expect(orderLocationId({ location_id: '71234567890' })).toBe('71234567890');
    expect(orderLocationId({ location_id: 'gid://shopify/Location/71234567890' })).toBe('71234567890');
    expect([null, undefined, 0, -3, 1.5, 'abc', {}].map((location_id) => orderLocationId({ location_id }))).toEqual(
      Array(7).fill(undefined),
    );
    expect(orderLocationId(null)).toBeUndefined();
    expect(orderLocationId('x')).toBeUndefined();
  });

  it("a mapped location's branch and point; any other order the shop's", () => {
    expect(invoicePointFor('71234567891', LOCATIONS, SHOP)).toEqual({ branchCode: '0003', billingPoint: '002' });
    expect(invoicePointFor('999', LOCATIONS, SHOP)).toEqual(SHOP);
    expect(invoicePointFor(undefined, LOCATIONS, SHOP)).toEqual(SHOP);
    expect(invoicePointFor('constructor', LOCATIONS, SHOP)).toEqual(SHOP);
    // Only the two fields, whatever else the shop's settings hold.
    expect(invoicePointFor(undefined, {}, { ...SHOP, environment: 'pruebas' } as typeof SHOP)).toEqual(SHOP);
  });
});
