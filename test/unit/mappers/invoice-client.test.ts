import { describe, expect, it } from 'vitest';
import { clientCorrectionSchema } from '../../../mappers/invoice/client-correction.ts';
import { buildClient, panamaPhone, splitRucAndDv, taxpayerType } from '../../../mappers/invoice/invoice-client.ts';
import { mappingSettingsSchema, type MappingSettingsInput } from '../../../mappers/invoice/mapping-settings.ts';
import type { ShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { loadOrder } from '../../support/order-fixtures.ts';
import { withTexts } from '../../support/documents.ts';

function orderWith(attributes: Record<string, string>, changes: Partial<ShopifyOrder> = {}): ShopifyOrder {
  return {
    ...loadOrder('tax-exclusive'),
    noteAttributes: Object.entries(attributes).map(([name, value]) => ({ name, value })),
    ...changes,
  };
}

function client(order: ShopifyOrder, settings: MappingSettingsInput = {}) {
  return buildClient(order, mappingSettingsSchema.parse(settings));
}

const DAVID = { codeLocation: '4-6-1', province: 'CHIRIQUI', district: 'DAVID', correction: 'DAVID (CABECERA)' };

describe('buildClient: final consumer (02)', () => {
  it("carries the buyer's name and e-mail, and a location from the billing address", () => {
    expect(client(orderWith({}))).toEqual({
      ok: true,
      client: {
        typeClientEB: '02',
        businessName: 'Ana Pérez',
        ...DAVID,
        telephone1: '6123-4567',
        email1: 'ana.perez@example.com',
        country: 'PA',
      },
    });
  });

  it('without a name, e-mail, phone or address it still is a valid final consumer at the shop default location', () => {
    const order = orderWith({}, { customer: undefined, billingAddress: undefined, shippingAddress: undefined, email: undefined });
    expect(client(order, { defaultLocationCode: '1-1-1' })).toEqual({
      ok: true,
      client: {
        typeClientEB: '02',
        codeLocation: '1-1-1',
        province: 'BOCAS DEL TORO',
        district: 'BOCAS DEL TORO',
        correction: 'BOCAS DEL TORO (CABECERA)',
        country: 'PA',
      },
    });
  });

  it('a location code chosen at checkout wins; an unknown one falls back to the address', () => {
    expect(client(orderWith({ codigo_ubicacion: '8-8-9' }))).toMatchObject({
      client: { codeLocation: '8-8-9', correction: 'SAN FRANCISCO' },
    });
    expect(client(orderWith({ codigo_ubicacion: '99-1-1' }))).toMatchObject({ client: DAVID });
  });

  it('an e-mail that is not one is left out', () => {
    const result = client(orderWith({}, { email: 'ana.perez(at)example' }));
    expect(result.ok && result.client.email1).toBeUndefined();
  });
});

describe('buildClient: registered taxpayer (01)', () => {
  it.each([
    ['155596713-2-2015', '59', '2'],
    ['155646463-2-2017', '86', '2'],
    ['2679372-1-844914', '73', '2'],
    ['45400-2-299934', '09', '2'],
    ['138-289-35920', '04', '2'],
    ['521-136-113133', '02', '2'],
    ['637793-1-457490', '00', '2'],
    ['25046169-3-2021', '40', '2'],
    ['155720753-2-2022', '39', '2'],
    ['8-442-445', '08', '1'],
    ['PE-10-442', '50', '1'],
    ['N-45-832', '58', '1'],
    ['E-12-342', '10', '1'],
  ])('RUC %s with DV %s (docs/reference/panama-fe.md §4.1) → 01, taxpayer type %s', (ruc, dv, type) => {
    const result = client(orderWith({ ruc, dv, razon_social: 'Cliente Ejemplo, S.A.' }));
    expect(result).toMatchObject({
      ok: true,
      client: { typeClientEB: '01', typeTaxpayer: type, numberRUC: ruc, digitCheckRUC: dv, businessName: 'Cliente Ejemplo, S.A.' },
    });
  });

  it('the whole client, address from the billing address when no address attribute is given', () => {
    expect(client(orderWith({ RUC: ' 155596713-2-2015 ', DV: '59', Razon_Social: 'Distribuidora Ejemplo, S.A.' }))).toEqual({
      ok: true,
      client: {
        typeClientEB: '01',
        typeTaxpayer: '2',
        numberRUC: '155596713-2-2015',
        digitCheckRUC: '59',
        businessName: 'Distribuidora Ejemplo, S.A.',
        address: 'Avenida Central, Casa 12, David',
        ...DAVID,
        telephone1: '6123-4567',
        email1: 'ana.perez@example.com',
        country: 'PA',
      },
      taxIdSource: 'cart_attributes',
    });
  });

  it('a RUC typed with its DV in one field, and a DV typed without its leading zero', () => {
    expect(client(orderWith({ ruc: '155596713-2-2015 DV 59', razon_social: 'X Y' }))).toMatchObject({
      client: { numberRUC: '155596713-2-2015', digitCheckRUC: '59' },
    });
    expect(client(orderWith({ ruc: '8-442-445', dv: '8' }))).toMatchObject({
      client: { numberRUC: '8-442-445', digitCheckRUC: '08', businessName: 'Ana Pérez' },
    });
  });

  it('configurable attribute names', () => {
    const result = client(orderWith({ ruc_cliente: '155646463-2-2017', dv_cliente: '86', empresa: 'Importadora Ejemplo, S.A.' }), {
      checkoutAttributes: { ruc: 'ruc_cliente', dv: 'dv_cliente', businessName: 'empresa' },
    });
    expect(result).toMatchObject({
      client: { typeClientEB: '01', numberRUC: '155646463-2-2017', businessName: 'Importadora Ejemplo, S.A.' },
    });
  });

  it('a wrong check digit is a problem the merchant sees', () => {
    expect(withTexts(client(orderWith({ ruc: '155596713-2-2015', dv: '58' })))).toEqual({
      ok: false,
      problems: [
        {
          code: 'ruc_check_digit_invalid',
          message:
            'The check digit (DV) 58 does not belong to the RUC 155596713-2-2015; one of them was mistyped. Confirm the RUC and DV with the customer, correct the order, then retry.',
          messageEs:
            'El dígito verificador (DV) 58 no corresponde al RUC 155596713-2-2015; uno de los dos está mal escrito. Confirme el RUC y el DV con el cliente, corrija el pedido y reintente.',
          path: 'note_attributes.dv',
        },
      ],
    });
  });

  it('a wrong DV inside the B2B tax id points at the company', () => {
    const result = client(
      orderWith({}, { company: { id: '1', name: 'Importadora Ejemplo, S.A.', taxRegistrationId: '155646463-2-2017-85' } }),
    );
    expect(!result.ok && result.problems.map((p) => [p.code, p.path])).toEqual([
      ['ruc_check_digit_invalid', 'company.tax_registration_id'],
    ]);
  });

  it('a RUC without DV, or not a RUC at all', () => {
    expect(!client(orderWith({ ruc: '155596713-2-2015' })).ok && client(orderWith({ ruc: '155596713-2-2015' }))).toMatchObject({
      problems: [{ code: 'ruc_check_digit_missing', path: 'note_attributes.ruc' }],
    });
    expect(withTexts(client(orderWith({ ruc: 'no tengo', dv: '12' })))).toMatchObject({
      ok: false,
      problems: [
        {
          code: 'ruc_unreadable',
          message:
            'The customer entered "no tengo" as RUC, which is not a RUC or cédula number (e.g. 155596713-2-2015 or 8-442-445). Ask the customer for the correct RUC, correct the order\'s attribute, then retry.',
        },
      ],
    });
  });

  it('a juridical RUC without a business name, and a taxpayer without an address, are problems', () => {
    const order = orderWith({ ruc: '155596713-2-2015', dv: '59' }, { billingAddress: undefined, shippingAddress: undefined });
    const result = client(order);
    expect(!result.ok && result.problems.map((p) => p.code)).toEqual(['taxpayer_name_missing', 'taxpayer_address_missing']);
  });

  it('a long business name and address are cut to 100 characters', () => {
    const long = 'Compañía de Importaciones y Exportaciones del Istmo de Panamá y Centroamérica, Sociedad Anónima Limitada Ejemplo';
    const result = client(orderWith({ ruc: '155596713-2-2015', dv: '59', razon_social: long, direccion: long }));
    expect(result.ok && [...result.client.businessName!].length).toBe(100);
    expect(result.ok && result.client.address).toBe(long.slice(0, 100).trim());
  });
});

describe('buildClient: where the tax id comes from (docs/design.md §10)', () => {
  const cart = { ruc: '8-442-445', dv: '08' };

  it('a B2B company location tax id wins over a customer metafield and the cart, with the company as business name', () => {
    const result = buildClient(orderWith(cart), mappingSettingsSchema.parse({}), {
      company: { taxId: '155646463-2-2017 DV 86', name: 'Importadora Ejemplo, S.A.' },
      customerTaxId: { value: '155596713-2-2015 DV 59', path: 'customer.metafields.fiscal.ruc' },
    });
    expect(result).toMatchObject({
      ok: true,
      client: { typeClientEB: '01', numberRUC: '155646463-2-2017', digitCheckRUC: '86', businessName: 'Importadora Ejemplo, S.A.' },
      taxIdSource: 'b2b_company',
    });
  });

  it('a customer metafield wins over the cart; its wrong DV is named at the metafield', () => {
    const settings = mappingSettingsSchema.parse({});
    const withName = { ...cart, razon_social: 'Distribuidora Ejemplo, S.A.' };
    expect(
      buildClient(orderWith(withName), settings, {
        customerTaxId: { value: '155596713-2-2015 DV 59', path: 'customer.metafields.fiscal.ruc' },
      }),
    ).toMatchObject({
      ok: true,
      client: { numberRUC: '155596713-2-2015', digitCheckRUC: '59' },
      taxIdSource: 'customer_metafield',
    });
    const wrong = buildClient(orderWith(withName), settings, {
      customerTaxId: { value: '155596713-2-2015 DV 58', path: 'customer.metafields.fiscal.ruc' },
    });
    expect(!wrong.ok && wrong.problems.map((p) => [p.code, p.path])).toEqual([
      ['ruc_check_digit_invalid', 'customer.metafields.fiscal.ruc'],
    ]);
  });

  it("the merchant's correction wins over everything the order says", () => {
    const settings = mappingSettingsSchema.parse({});
    const taxpayer = clientCorrectionSchema.parse({
      type: 'taxpayer',
      ruc: '155596713-2-2015',
      dv: '59',
      name: 'Distribuidora Ejemplo, S.A.',
      address: 'Calle 50, Edificio Global, Piso 3',
      locationCode: '8-8-7',
      email: 'compras@distribuidora.example',
    });
    expect(buildClient(orderWith({ ruc: 'no tengo' }), settings, { correction: taxpayer, company: { taxId: '8-442-445 DV 08' } })).toEqual({
      ok: true,
      client: {
        typeClientEB: '01',
        typeTaxpayer: '2',
        numberRUC: '155596713-2-2015',
        digitCheckRUC: '59',
        businessName: 'Distribuidora Ejemplo, S.A.',
        address: 'Calle 50, Edificio Global, Piso 3',
        codeLocation: '8-8-7',
        province: 'PANAMA',
        district: 'PANAMA',
        correction: 'BELLA VISTA',
        telephone1: '6123-4567',
        email1: 'compras@distribuidora.example',
        country: 'PA',
      },
      taxIdSource: 'correction',
    });
    const consumer = clientCorrectionSchema.parse({ type: 'final_consumer', name: 'Ana Pérez' });
    expect(buildClient(orderWith(cart), settings, { correction: consumer })).toMatchObject({
      ok: true,
      client: { typeClientEB: '02', businessName: 'Ana Pérez' },
      taxIdSource: undefined,
    });
  });

  it('a correction is validated whole before it is saved: a wrong DV, unknown keys, a location not in the catalogue', () => {
    const wrongDv = clientCorrectionSchema.safeParse({
      type: 'taxpayer',
      ruc: '155596713-2-2015',
      dv: '58',
      name: 'X',
      address: 'Calle 50, 3',
      locationCode: '8-8-7',
    });
    expect(!wrongDv.success && wrongDv.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dv', 'the check digit 58 does not belong to the RUC 155596713-2-2015'],
    ]);
    const extra = clientCorrectionSchema.safeParse({ type: 'final_consumer', nombre: 'Ana' });
    expect(!extra.success && extra.error.issues.map((i) => i.code)).toEqual(['unrecognized_keys']);
    const place = clientCorrectionSchema.safeParse({ type: 'final_consumer', locationCode: '99-1-1' });
    expect(!place.success && place.error.issues.map((i) => i.path.join('.'))).toEqual(['locationCode']);
    expect(clientCorrectionSchema.safeParse({ type: 'cliente' }).success).toBe(false);
  });
});

describe('client helpers', () => {
  it.each([
    ['155596713-2-2015 DV 59', { ruc: '155596713-2-2015', dv: '59' }],
    ['155596713-2-2015 D.V. 59', { ruc: '155596713-2-2015', dv: '59' }],
    ['155596713-2-2015 dv:59', { ruc: '155596713-2-2015', dv: '59' }],
    ['155596713-2-2015-59', { ruc: '155596713-2-2015', dv: '59' }],
    ['8-442-445 08', { ruc: '8-442-445', dv: '08' }],
    ['8-442-45', { ruc: '8-442-45' }],
    ['155596713-2-2015', { ruc: '155596713-2-2015' }],
    ['8-NT-1-12', { ruc: '8-NT-1-12' }],
  ])('splitRucAndDv(%j)', (text, expected) => {
    expect(splitRucAndDv(text)).toEqual(expected);
  });

  it.each([
    ['155596713-2-2015', '2'],
    ['8-442-445', '1'],
    ['PE-10-442', '1'],
    ['8-NT-1-1234567', '2'],
    ['8-NT-1-12345', '1'],
  ])('taxpayerType(%s) = %s', (ruc, type) => {
    expect(taxpayerType(ruc)).toBe(type);
  });

  it.each([
    ['+507 6123-4567', '6123-4567'],
    ['+5076123 4567', '6123-4567'],
    ['00507 441-2345', '441-2345'],
    ['6123 4567', '6123-4567'],
    ['441.2345', '441-2345'],
    ['+1 555 123 4567', undefined],
    ['12345', undefined],
    [undefined, undefined],
  ])('panamaPhone(%j) = %j', (text, expected) => {
    expect(panamaPhone(text)).toBe(expected);
  });
});
