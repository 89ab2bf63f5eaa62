import { describe, expect, it } from 'vitest';
import { parseShopifyOrder, type ShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { readOrderFixture } from '../../support/order-fixtures.ts';
import { withTexts } from '../../support/documents.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function body(name = 'tax-exclusive'): Json {
  return readOrderFixture(name) as Json;
}

function parsed(json: unknown): ShopifyOrder {
  const result = parseShopifyOrder(json);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.order;
}

describe('parseShopifyOrder', () => {
  it('reads the fields invoicing uses, typed: GID, cents, exact rates, addresses, gateways', () => {
    const order = parsed(body());
    // The fixture bills and ships to the same address.
    const ana = { name: 'Ana Pérez', firstName: 'Ana', lastName: 'Pérez', phone: '+507 6123-4567' };
    const anaInDavid = { ...ana, address1: 'Avenida Central, Casa 12', city: 'David', province: 'Chiriquí', countryCode: 'PA' };
    expect(order).toEqual({
      orderGid: 'gid://shopify/Order/5900000010001',
      name: '#1101',
      test: false,
      currency: 'USD',
      presentmentCurrency: 'USD',
      taxesIncluded: false,
      taxExempt: false,
      financialStatus: 'paid',
      createdAt: '2026-11-20T10:15:00-05:00',
      processedAt: '2026-11-20T10:15:00-05:00',
      email: 'ana.perez@example.com',
      totalPrice: 10_593,
      totalTax: 693,
      totalTip: 0,
      totalDuties: 0,
      totalAdditionalFees: 0,
      cashRoundingAdjustment: 0,
      lineItems: [
        {
          gid: 'gid://shopify/LineItem/5900000010001001',
          name: 'Camisa de lino - M / Blanco',
          title: 'Camisa de lino',
          variantTitle: 'M / Blanco',
          sku: 'CAM-LIN-M-BL',
          variantId: '45100000000001',
          productId: '8100000000001',
          price: 2450,
          quantity: 2,
          currentQuantity: 2,
          taxable: true,
          giftCard: false,
          taxLines: [{ title: 'ITBMS', rate: { num: 7, den: 100 }, amount: 343 }],
          discountAllocations: [],
        },
        {
          gid: 'gid://shopify/LineItem/5900000010001002',
          name: 'Sombrero pintao',
          title: 'Sombrero pintao',
          sku: 'SOM-PIN-01',
          variantId: '45100000000002',
          productId: '8100000000002',
          price: 4500,
          quantity: 1,
          currentQuantity: 1,
          taxable: true,
          giftCard: false,
          taxLines: [{ title: 'ITBMS', rate: { num: 7, den: 100 }, amount: 315 }],
          discountAllocations: [],
        },
      ],
      shippingLines: [
        {
          title: 'Envío estándar',
          code: 'Envío estándar',
          price: 500,
          isRemoved: false,
          taxLines: [{ title: 'ITBMS', rate: { num: 7, den: 100 }, amount: 35 }],
          discountAllocations: [],
        },
      ],
      noteAttributes: [],
      customer: { gid: 'gid://shopify/Customer/12900000010001', firstName: 'Ana', lastName: 'Pérez', email: 'ana.perez@example.com' },
      billingAddress: anaInDavid,
      shippingAddress: anaInDavid,
      paymentGatewayNames: ['shopify_payments'],
    });
  });

  it('takes shop money, not presentment money, and the current totals over the original ones', () => {
    const json = body();
    json.presentment_currency = 'EUR';
    json.line_items[0].price_set.presentment_money = { amount: '22.10', currency_code: 'EUR' };
    json.line_items[0].price = '22.10';
    json.current_total_price_set.shop_money.amount = '98.00';
    json.total_price_set.shop_money.amount = '150.00';
    const order = parsed(json);
    expect(order.lineItems[0]!.price).toBe(2450);
    expect(order.totalPrice).toBe(9800);
    expect(order.presentmentCurrency).toBe('EUR');
  });

  it('falls back to the plain fields when there is no `_set`, and to the original totals', () => {
    const json = body();
    delete json.line_items[1].price_set;
    json.line_items[1].price = '45.50';
    delete json.current_total_price_set;
    delete json.current_total_price;
    delete json.current_total_tax_set;
    delete json.current_total_tax;
    const order = parsed(json);
    expect(order.lineItems[1]!.price).toBe(4550);
    expect(order.totalPrice).toBe(10_593);
    expect(order.totalTax).toBe(693);
  });

  it('never trusts numeric ids beyond 2^53: builds the GID from an exact id only', () => {
    const json = body();
    delete json.admin_graphql_api_id;
    expect(parsed(json).orderGid).toBe('gid://shopify/Order/5900000010001');
    json.id = JSON.parse('820982911946154508'); // Shopify's sample id, rounded by JSON.parse
    expect(parseShopifyOrder(json)).toEqual({
      ok: false,
      problems: [expect.objectContaining({ code: 'order_unreadable', path: 'admin_graphql_api_id' })],
    });
    json.id = '820982911946154508';
    expect(parsed(json).orderGid).toBe('gid://shopify/Order/820982911946154508');
  });

  it('reads line details: several tax lines, gift cards, current quantity, blank SKU, barcode, numeric attribute values', () => {
    const json = body('gift-card-line');
    json.line_items[0].tax_lines.push({
      title: 'Municipal',
      rate: 0.025,
      price: '1.50',
      price_set: { shop_money: { amount: '1.50', currency_code: 'USD' } },
    });
    json.line_items[0].current_quantity = 0;
    json.line_items[0].sku = '  ';
    json.line_items[0].barcode = '7501234567893';
    json.note_attributes = [
      { name: 'ruc', value: 155596713 },
      { name: 'dv', value: null },
    ];
    const order = parsed(json);
    const [painting, giftCard] = order.lineItems;
    expect(painting!.taxLines.map((t) => [t.rate, t.amount])).toEqual([
      [{ num: 7, den: 100 }, 420],
      [{ num: 1, den: 40 }, 150],
    ]);
    expect(painting!.currentQuantity).toBe(0);
    expect(painting!.sku).toBeUndefined();
    expect(painting!.barcode).toBe('7501234567893');
    expect(giftCard).toMatchObject({ giftCard: true, taxable: false, name: 'Tarjeta de regalo - $25.00' });
    expect(order.noteAttributes).toEqual([
      { name: 'ruc', value: '155596713' },
      { name: 'dv', value: '' },
    ]);
  });

  it('reads discount allocations, tips and the B2B company the pipeline may add', () => {
    const json = body('uneven-discounts');
    json.total_tip_received = '2.50';
    json.company = {
      id: 6800000000001,
      location_id: 6900000000001,
      name: 'Importadora Ejemplo, S.A.',
      tax_registration_id: '155646463-2-2017 DV 86',
    };
    const order = parsed(json);
    expect(order.lineItems[1]!.discountAllocations).toEqual([
      { amount: 375, discountApplicationIndex: 0 },
      { amount: 177, discountApplicationIndex: 2 },
    ]);
    expect(order.totalTip).toBe(250);
    expect(order.company).toEqual({
      id: '6800000000001',
      locationId: '6900000000001',
      name: 'Importadora Ejemplo, S.A.',
      taxRegistrationId: '155646463-2-2017 DV 86',
    });
  });

  it('yields problems, never an exception, for a body it cannot read', () => {
    expect(withTexts(parseShopifyOrder(null))).toEqual({
      ok: false,
      problems: [
        {
          code: 'order_unreadable',
          message:
            "Shopify's order data could not be read (order: Invalid input: expected object, received null). No invoice was made; please contact the app's support with the order number.",
          messageEs:
            'Los datos del pedido enviados por Shopify no se pudieron leer (pedido: Invalid input: expected object, received null). No se emitió factura; contacte al soporte de la app con el número de pedido.',
        },
      ],
    });
    const json = body();
    json.line_items[1].price_set.shop_money.amount = '12.345';
    json.shipping_lines[0].tax_lines[0].rate = 'siete';
    json.line_items[0].quantity = 1.5;
    const result = parseShopifyOrder(json);
    expect(!result.ok && withTexts(result.problems).map((p) => [p.path, p.message.split('(')[1]?.split(')')[0]])).toEqual([
      ['line_items[0].quantity', 'line_items[0].quantity: must be a whole number'],
      [
        'line_items[1].price_set.shop_money.amount',
        'line_items[1].price_set.shop_money.amount: "12.345" is not an amount with at most 2 decimals',
      ],
      ['shipping_lines[0].tax_lines[0].rate', 'shipping_lines[0].tax_lines[0].rate: siete is not a tax rate'],
    ]);
    // Neither an id nor lines: both named, the order's identity first.
    expect(parseShopifyOrder({ currency: 'USD' })).toMatchObject({
      ok: false,
      problems: [{ path: 'admin_graphql_api_id' }, { path: 'line_items' }],
    });
  });

  it('ignores fields it does not use, and blank strings', () => {
    const json = { ...body(), some_future_field: { nested: true }, email: '   ', phone: '' };
    const order = parsed(json);
    expect(order.email).toBe('ana.perez@example.com'); // contact_email
    expect(order.phone).toBeUndefined();
  });
});
