import { describe, expect, it } from 'vitest';
import { buildInvoiceLines, itemCode, itemDescription, lineItemCharge, validGtin } from '../../../mappers/invoice/invoice-lines.ts';
import { mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { cents } from '../../../mappers/fiscal/money.ts';
import type { ShopifyLineItem, ShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { loadOrder } from '../../support/order-fixtures.ts';
import { withTexts } from '../../support/documents.ts';

const settings = mappingSettingsSchema.parse({});

function lineItem(changes: Partial<ShopifyLineItem> = {}): ShopifyLineItem {
  return {
    name: 'Vela aromática',
    title: 'Vela aromática',
    price: cents(1100),
    quantity: 3,
    currentQuantity: 3,
    taxable: true,
    giftCard: false,
    taxLines: [{ title: 'ITBMS', rate: { num: 7, den: 100 }, amount: cents(231) }],
    discountAllocations: [],
    ...changes,
  };
}

function orderOf(lineItems: ShopifyLineItem[], changes: Partial<ShopifyOrder> = {}): ShopifyOrder {
  return { ...loadOrder('tip'), lineItems, shippingLines: [], totalTip: cents(0), ...changes };
}

describe('descriptions and codes', () => {
  it('the SKU, else a code that stays the same for the variant, product or line', () => {
    expect(itemCode(lineItem({ sku: 'VEL-ARO-01', variantId: '45100000000001' }), 0)).toBe('VEL-ARO-01');
    expect(itemCode(lineItem({ sku: 'SKU-WITH-A-VERY-LONG-NAME-2026' }), 0)).toBe('SKU-WITH-A-VERY-LONG');
    expect(itemCode(lineItem({ variantId: '45100000000001', productId: '8100000000001' }), 0)).toBe('V45100000000001');
    expect(itemCode(lineItem({ productId: '8100000000001' }), 0)).toBe('P8100000000001');
    expect(itemCode(lineItem({ gid: 'gid://shopify/LineItem/5900000010014001' }), 0)).toBe('L5900000010014001');
    expect(itemCode(lineItem(), 4)).toBe('ITEM-5');
  });

  it('the line name; at least 2 and at most 500 characters', () => {
    expect(itemDescription(lineItem({ name: '  Camisa  de lino -\tM ' }))).toBe('Camisa de lino - M');
    expect(itemDescription(lineItem({ name: 'X', title: 'X' }))).toBe('Artículo X');
    expect(itemDescription(lineItem({ name: '', title: '' }))).toBe('Artículo');
    expect([...itemDescription(lineItem({ name: 'ñ'.repeat(600) }))]).toHaveLength(500);
  });

  it.each([
    ['7501234567893', '7501234567893'],
    ['7412345000127', '7412345000127'],
    ['00745110002', undefined], // 11 digits
    ['7501234567890', undefined], // wrong check digit
    ['96385074', '96385074'], // GTIN-8
    ['036000291452', '036000291452'], // UPC-A
    ['ABC-123', undefined],
    [undefined, undefined],
  ])('GTIN from barcode %j → %j', (barcode, gtin) => {
    expect(validGtin(barcode)).toBe(gtin);
  });
});

describe('line charges', () => {
  it('discounts and tax of the units still on the order, prorated when some were removed', () => {
    const item = lineItem({
      discountAllocations: [{ amount: cents(300) }],
      taxLines: [{ title: 'ITBMS', rate: { num: 7, den: 100 }, amount: cents(210) }],
    });
    expect(lineItemCharge(item)).toEqual({ base: 3000, tax: 210, rate: { num: 7, den: 100 } });
    expect(lineItemCharge({ ...item, currentQuantity: 2 })).toEqual({ base: 2000, tax: 140, rate: { num: 7, den: 100 } });
  });

  it('several tax lines make one rate', () => {
    const item = lineItem({
      taxLines: [
        { title: 'Estatal', rate: { num: 3, den: 50 }, amount: cents(198) },
        { title: 'Municipal', rate: { num: 1, den: 40 }, amount: cents(83) },
      ],
    });
    expect(lineItemCharge(item)).toEqual({ base: 3300, tax: 281, rate: { num: 17, den: 200 } });
  });
});

describe('buildInvoiceLines', () => {
  it('skips removed and free shipping lines', () => {
    const order = orderOf([lineItem()], {
      shippingLines: [
        { title: 'Envío', price: cents(500), isRemoved: true, taxLines: [], discountAllocations: [] },
        { title: 'Envío gratis', price: cents(500), isRemoved: false, taxLines: [], discountAllocations: [{ amount: cents(500) }] },
      ],
      totalTax: cents(231),
    });
    const result = buildInvoiceLines(order, settings);
    expect(result.ok && result.items.map((i) => i.code)).toEqual(['ITEM-1']);
  });

  it('a discount larger than the price is a problem, not a negative line', () => {
    const result = buildInvoiceLines(orderOf([lineItem({ discountAllocations: [{ amount: cents(4000) }] })]), settings);
    expect(!result.ok && result.problems.map((p) => [p.code, p.path])).toEqual([['order_unreadable', 'line_items[0]']]);
  });

  it('more than 1000 invoice items is a problem', () => {
    // 501 lines of 3 units at 1.00 with 0.01 off each: every line splits in two.
    const lines = Array.from({ length: 501 }, (_, i) =>
      lineItem({
        sku: `S${i}`,
        price: cents(100),
        quantity: 3,
        currentQuantity: 3,
        taxLines: [],
        discountAllocations: [{ amount: cents(1) }],
      }),
    );
    const result = buildInvoiceLines(orderOf(lines, { totalTax: cents(0) }), settings);
    expect(!result.ok && result.problems).toEqual([expect.objectContaining({ code: 'too_many_items', path: 'line_items' })]);
  });

  it('refuses amounts past the DGI widths (9 integer digits an item, 11 the total) before any number is reserved', () => {
    const untaxed = (price: number, quantity = 1) =>
      lineItem({ price: cents(price), quantity, currentQuantity: quantity, taxable: false, taxLines: [] });
    const lines = (items: ShopifyLineItem[]) => buildInvoiceLines(orderOf(items, { totalTax: cents(0) }), settings);
    const refused = [{ code: 'amount_too_large', params: {}, path: 'line_items' }];
    // 999,999,999.99 an item fits; 1,000,000,000.00 does not, nor 1,000,000,000 units.
    expect(lines([untaxed(99_999_999_999)]).ok).toBe(true);
    expect(!lines([untaxed(100_000_000_000)]).ok && (lines([untaxed(100_000_000_000)]) as { problems: unknown }).problems).toEqual(refused);
    const manyUnits = lines([untaxed(1, 1_000_000_000)]);
    expect(!manyUnits.ok && manyUnits.problems).toEqual(refused);
    // 101 items of 999,999,999.99: each fits, the total (100,999,999,998.99) does not.
    const total = lines(Array.from({ length: 101 }, (_, i) => ({ ...untaxed(99_999_999_999), sku: `S${i}` })));
    expect(!total.ok && total.problems).toEqual(refused);
    expect(withTexts(refused)[0]).toMatchObject({
      message: 'An amount in this order is too large to be invoiced. Issue this invoice by hand.',
      messageEs: 'Un monto de este pedido es demasiado grande para facturarlo. Emita esta factura manualmente.',
    });
  });

  it('a tax the lines cannot carry within ±0.01 each is a problem', () => {
    const result = buildInvoiceLines(orderOf([lineItem()], { totalTax: cents(240) }), settings);
    expect(withTexts(!result.ok && result.problems)).toEqual([
      {
        code: 'tax_not_distributable',
        message:
          "Shopify charged 2.40 of tax, which cannot be spread over the invoice lines within the DGI's rounding tolerance of 0.01 per line. Check the order's taxes in Shopify, then retry or issue the invoice by hand.",
        messageEs:
          'Shopify cobró 2.40 de impuesto, que no se puede repartir entre las líneas de la factura dentro de la tolerancia de redondeo de la DGI (0.01 por línea). Revise los impuestos del pedido en Shopify; luego reintente o emita la factura manualmente.',
      },
    ]);
  });

  it('a mapped rate in a tax-inclusive shop: the paid price is carved at the DGI rate', () => {
    // 2 × 10.85 paid, Shopify's 8.5 % inclusive tax 1.70; mapped to 7 %: 21.70 × 7/107 = 1.4196 → 1.42.
    const item = lineItem({
      price: cents(1085),
      quantity: 2,
      currentQuantity: 2,
      taxLines: [{ title: 'Impuesto', rate: { num: 17, den: 200 }, amount: cents(170) }],
    });
    const order = orderOf([item], { taxesIncluded: true, totalTax: cents(170) });
    const result = buildInvoiceLines(order, mappingSettingsSchema.parse({ taxRateCodes: { '0.085': '01' } }));
    expect(result.ok && result.items).toEqual([
      {
        description: 'Vela aromática',
        code: 'ITEM-1',
        amount: '2.00',
        priceUnit: '10.14',
        priceUnitDiscount: '0.00',
        priceItem: '20.28',
        rateITBMS: '01',
        valueITBMS: '1.42',
        totalValue: '21.70',
      },
    ]);
  });
});
