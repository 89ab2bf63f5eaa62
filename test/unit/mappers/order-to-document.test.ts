// Fixture orders (test/fixtures/orders/) → whole gateway documents, and the exact problems of the
// orders that cannot be invoiced. Amounts are worked out in the comments.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MappingSettingsInput, mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { cents } from '../../../mappers/fiscal/money.ts';
import { panamaDateTime } from '../../../mappers/invoice/document-numbering.ts';
import { type OrderTransaction, needsTransactions } from '../../../mappers/invoice/order-to-document.ts';
import type { ShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import type { ClientBlock, GatewayDocument, GatewayItem } from '../../../mappers/gateway/gateway-document.ts';
import { brokenInvariants } from '../../support/document-invariants.ts';
import {
  type DocumentResult,
  FIXTURE_NOW,
  ORDER_FIXTURES_DIR,
  loadOrder,
  loadTransactions,
  mapFixture,
  orderFixtureNames,
  documentFor,
} from '../../support/order-fixtures.ts';
import { withTexts } from '../../support/documents.ts';
import { DEFAULT_CODES, type Totals, totalsOf } from '../../support/expected-documents.ts';

// ---------------------------------------------------------------------------------------------
// Expected-document builders: they only arrange literal values.

const BELLA_VISTA = { codeLocation: '8-8-7', province: 'PANAMA', district: 'PANAMA', correction: 'BELLA VISTA' };

function consumer(businessName: string, email1: string, extra: Partial<ClientBlock> = {}): ClientBlock {
  return { typeClientEB: '02', businessName, ...BELLA_VISTA, telephone1: '6000-0000', email1, country: 'PA', ...extra };
}

function item(
  description: string,
  code: string,
  amount: string,
  priceUnit: string,
  priceUnitDiscount: string,
  priceItem: string,
  rateITBMS: string,
  valueITBMS: string,
  totalValue: string,
): GatewayItem {
  return { description, code, amount, priceUnit, priceUnitDiscount, priceItem, rateITBMS, valueITBMS, totalValue };
}

function document(client: ClientBlock, listItems: GatewayItem[], t: Totals, fiscalNumber = '0000000001'): GatewayDocument {
  return {
    codeBranchIssuer: '0000',
    dataTransaction: {
      typeEmission: '01',
      typeDocument: '01',
      numberDocumentFiscal: fiscalNumber,
      pointBillingFiscal: '001',
      dateBroadcast: '2026-11-20T10:30:00-05:00',
      natureOperation: '01',
      ...DEFAULT_CODES,
      client,
    },
    listItems,
    totalsSubTotals: totalsOf(listItems, t),
  };
}

/** `order` as a shop's first invoice (branch 0000, point 001, number 1) at the fixtures' moment; default settings. */
function firstDocumentOf(
  order: ShopifyOrder,
  o: { settings?: MappingSettingsInput; transactions?: OrderTransaction[] } = {},
): DocumentResult {
  return documentFor({
    order,
    settings: mappingSettingsSchema.parse(o.settings ?? {}),
    ...(o.transactions ? { transactions: o.transactions } : {}),
    numbering: { branchCode: '0000', billingPoint: '001', fiscalNumber: 1 },
    now: FIXTURE_NOW,
  });
}

function mapped(name: string, settings: MappingSettingsInput = {}): GatewayDocument {
  const result = mapFixture(name, { settings: mappingSettingsSchema.parse(settings) });
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.problems, null, 2)}`);
  expect(brokenInvariants(result.document)).toEqual([]);
  return result.document;
}

// ---------------------------------------------------------------------------------------------

describe('orderToDocument on fixture orders', () => {
  it('tax-exclusive: ITBMS added on top; client location from the billing address (David, Chiriquí)', () => {
    // 2 × 24.50 = 49.00 → 3.43; 45.00 → 3.15; shipping 5.00 → 0.35. Paid 105.93.
    expect(mapped('tax-exclusive')).toEqual(
      document(
        consumer('Ana Pérez', 'ana.perez@example.com', {
          codeLocation: '4-6-1',
          province: 'CHIRIQUI',
          district: 'DAVID',
          correction: 'DAVID (CABECERA)',
          telephone1: '6123-4567',
        }),
        [
          item('Camisa de lino - M / Blanco', 'CAM-LIN-M-BL', '2.00', '24.50', '0.00', '49.00', '01', '3.43', '52.43'),
          item('Sombrero pintao', 'SOM-PIN-01', '1.00', '45.00', '0.00', '45.00', '01', '3.15', '48.15'),
          item('Envío estándar', 'ENVIO', '1.00', '5.00', '0.00', '5.00', '01', '0.35', '5.35'),
        ],
        { net: '99.00', itbms: '6.93', total: '105.93', payments: [['03', '105.93']] },
      ),
    );
  });

  it('tax-inclusive: net carved out of the paid price, a 3-unit line split so priceItem stays exact', () => {
    // Coffee: 3 × 18.99 = 56.97 − 5.70 (its share of CAFE10) = 51.27 paid; tax 51.27 × 7/107 = 3.354 → 3.35;
    // net 47.92 = 1 unit at 15.98 + 2 at 15.97. List price 18.99 / 1.07 = 17.75. Items' ITBMS 1.1186 and
    // 2.2358 floor to 3.34; the missing cent goes to the larger fraction → 1.12 + 2.23 = 3.35.
    // Mug: 12.00 − 1.20 = 10.80 paid; tax 0.7065 → 0.71; net 10.09 (list 11.21, discount 1.12).
    // Shipping 4.28 = 4.00 + 0.28. Paid 66.35.
    expect(mapped('tax-inclusive')).toEqual(
      document(
        consumer('Luis Castillo', 'luis.castillo@example.com'),
        [
          item('Café Geisha de Boquete 250 g', 'CAF-GEI-250', '1.00', '17.75', '1.77', '15.98', '01', '1.12', '17.10'),
          item('Café Geisha de Boquete 250 g', 'CAF-GEI-250', '2.00', '17.75', '1.78', '31.94', '01', '2.23', '34.17'),
          item('Taza de cerámica', 'TAZ-CER-01', '1.00', '11.21', '1.12', '10.09', '01', '0.71', '10.80'),
          item('Envío - Entrega en Ciudad de Panamá', 'ENVIO', '1.00', '4.00', '0.00', '4.00', '01', '0.28', '4.28'),
        ],
        { net: '62.01', itbms: '4.34', total: '66.35', payments: [['03', '66.35']] },
      ),
    );
  });

  it('mixed rates: 10 % alcohol, 15 % tobacco, an exempt line, 7 %; cash on delivery → 02', () => {
    // Shipping 3.50 × 7 % = 0.245: Shopify charged 0.25, within ±0.01, kept.
    expect(mapped('mixed-rates-exempt')).toEqual(
      document(
        consumer('Carlos Rodríguez', 'carlos.rodriguez@example.com'),
        [
          item('Ron añejo 12 años 750 ml', 'RON-12-750', '1.00', '35.00', '0.00', '35.00', '02', '3.50', '38.50'),
          item('Cigarros (cajetilla)', 'CIG-CAJ-20', '2.00', '6.50', '0.00', '13.00', '03', '1.95', '14.95'),
          item('Arroz 5 lb', 'ARR-5LB', '2.00', '4.25', '0.00', '8.50', '00', '0.00', '8.50'),
          item('Jabón artesanal', 'JAB-ART-01', '4.00', '3.75', '0.00', '15.00', '01', '1.05', '16.05'),
          item('Envío estándar', 'ENVIO', '1.00', '3.50', '0.00', '3.50', '01', '0.25', '3.75'),
        ],
        { net: '75.00', itbms: '6.75', total: '81.75', payments: [['02', '81.75']] },
      ),
    );
  });

  it('discounts that do not divide by the quantity split the line; a free gift is a non-valued item', () => {
    // FERIA10 (10.00 across) gives 7.50 to the molas (2.50 each), 1.77 to the chaquiras on top of their
    // 15 % (3.75): 5.52 = 2.76 each; 0.73 to the 7 postcards: 8.75 − 0.73 = 8.02 = 4 × 1.15 + 3 × 1.14.
    // The gift bag is 100 % off: no price and no discount may be sent, so 0.00 / 0.00.
    expect(mapped('uneven-discounts')).toEqual(
      document(
        consumer('María González', 'maria.gonzalez@example.com'),
        [
          item('Mola tradicional', 'MOL-TRA-01', '3.00', '29.99', '2.50', '82.47', '01', '5.77', '88.24'),
          item('Chaquira emberá', 'CHA-EMB-01', '2.00', '12.50', '2.76', '19.48', '01', '1.36', '20.84'),
          item('Postal de Panamá', 'POS-PAN-01', '4.00', '1.25', '0.10', '4.60', '00', '0.00', '4.60'),
          item('Postal de Panamá', 'POS-PAN-01', '3.00', '1.25', '0.11', '3.42', '00', '0.00', '3.42'),
          item('Bolsa de tela (regalo)', 'BOL-TEL-01', '1.00', '0.00', '0.00', '0.00', '01', '0.00', '0.00'),
        ],
        { net: '109.97', itbms: '7.13', total: '117.10', payments: [['03', '117.10']] },
      ),
    );
  });

  it('discounted shipping: the shipping line shows its price and its discount (test order, bogus gateway → 03)', () => {
    // 7.99 − 50 % (3.995 → 4.00) = 3.99 → 0.28.
    expect(mapped('discounted-shipping')).toEqual(
      document(
        consumer('Sofía Herrera', 'sofia.herrera@example.com'),
        [
          item('Hamaca de algodón', 'HAM-ALG-01', '1.00', '39.90', '0.00', '39.90', '01', '2.79', '42.69'),
          item('Envío express', 'ENVIO', '1.00', '7.99', '4.00', '3.99', '01', '0.28', '4.27'),
        ],
        { net: '43.89', itbms: '3.07', total: '46.96', payments: [['03', '46.96']] },
      ),
    );
  });

  it('a gift-card purchase is left out: the invoice covers the rest, 89.20 − 25.00; free shipping is no line', () => {
    expect(mapped('gift-card-line')).toEqual(
      document(
        consumer('Jorge Vásquez', 'jorge.vasquez@example.com'),
        [item('Pintura en tela - Mediana', 'PIN-TEL-M', '1.00', '60.00', '0.00', '60.00', '01', '4.20', '64.20')],
        { net: '60.00', itbms: '4.20', total: '64.20', payments: [['03', '64.20']] },
      ),
    );
  });

  it('a gift card purchase is invoiced (exempt, code from the variant) when the shop says so', () => {
    const doc = mapped('gift-card-line', { includeGiftCards: true });
    expect(doc.listItems[1]).toEqual(
      item('Tarjeta de regalo - $25.00', 'V45100000000002', '1.00', '25.00', '0.00', '25.00', '00', '0.00', '25.00'),
    );
    expect(doc.totalsSubTotals.totalInvoice).toBe('89.20');
    expect(doc.totalsSubTotals.listFormPayment).toEqual([{ formPaymentInvoice: '03', valueFeePaid: '89.20' }]);
  });

  it('gift card plus card: amounts from the transactions (authorization not counted twice) → 07 and 03', () => {
    expect(mapped('gift-card-payment')).toEqual(
      document(
        consumer('Elena Morales', 'elena.morales@example.com'),
        [
          item('Pollera (réplica decorativa)', 'POL-REP-01', '1.00', '120.00', '0.00', '120.00', '01', '8.40', '128.40'),
          item('Envío estándar', 'ENVIO', '1.00', '6.00', '0.00', '6.00', '01', '0.42', '6.42'),
        ],
        {
          net: '126.00',
          itbms: '8.82',
          total: '134.82',
          payments: [
            ['07', '50.00'],
            ['03', '84.82'],
          ],
        },
      ),
    );
  });

  it('several gateways: bank deposit → 08 and cash on delivery → 02, a failed attempt ignored', () => {
    expect(mapped('several-gateways')).toEqual(
      document(
        consumer('Ricardo Díaz', 'ricardo.diaz@example.com'),
        [item('Silla de madera de cocobolo', 'SIL-COC-01', '4.00', '85.00', '0.00', '340.00', '01', '23.80', '363.80')],
        {
          net: '340.00',
          itbms: '23.80',
          total: '363.80',
          payments: [
            ['08', '200.00'],
            ['02', '163.80'],
          ],
        },
      ),
    );
  });

  it('a taxpayer client (01) from the checkout attributes: RUC, DV, business name, address, location', () => {
    // 10 × 5.25 = 52.50 × 7 % = 3.675: Shopify charged 3.68, within ±0.01, kept.
    expect(mapped('taxpayer-client')).toEqual(
      document(
        {
          typeClientEB: '01',
          typeTaxpayer: '2',
          numberRUC: '155596713-2-2015',
          digitCheckRUC: '59',
          businessName: 'Distribuidora Ejemplo, S.A.',
          address: 'Vía España, Edificio Ejemplo, Local 2',
          codeLocation: '8-8-9',
          province: 'PANAMA',
          district: 'PANAMA',
          correction: 'SAN FRANCISCO',
          telephone1: '6000-0000',
          email1: 'compras@distribuidora-ejemplo.com.pa',
          country: 'PA',
        },
        [
          item('Resma de papel carta', 'PAP-CAR-500', '10.00', '5.25', '0.00', '52.50', '01', '3.68', '56.18'),
          item('Envío a oficina', 'ENVIO', '1.00', '10.00', '0.00', '10.00', '01', '0.70', '10.70'),
        ],
        { net: '62.50', itbms: '4.38', total: '66.88', payments: [['03', '66.88']] },
      ),
    );
  });

  it('a B2B company (name and tax id added by the pipeline) with barcodes → GTIN fields; manual → 08', () => {
    expect(mapped('b2b-company-enriched')).toEqual(
      document(
        {
          typeClientEB: '01',
          typeTaxpayer: '2',
          numberRUC: '155646463-2-2017',
          digitCheckRUC: '86',
          businessName: 'Importadora Ejemplo, S.A.',
          address: 'Calle 16, Zona Libre, Galera 5, Barrio Norte',
          codeLocation: '3-1-1',
          province: 'COLON',
          district: 'COLON',
          correction: 'BARRIO NORTE',
          telephone1: '441-2345',
          email1: 'rosa.jimenez@importadora-ejemplo.com.pa',
          country: 'PA',
        },
        [
          {
            ...item('Aceite de coco 500 ml', 'ACE-COC-500', '24.00', '4.75', '0.00', '114.00', '01', '7.98', '121.98'),
            codeGTIN: '7501234567893',
            cantGTINCom: '24.00',
            codeGTINInv: '7501234567893',
            cantGTINComInv: '24.00',
          },
          {
            ...item('Harina de maíz 1 kg', 'HAR-MAI-1K', '36.00', '1.89', '0.00', '68.04', '00', '0.00', '68.04'),
            codeGTIN: '7412345000127',
            cantGTINCom: '36.00',
            codeGTINInv: '7412345000127',
            cantGTINComInv: '36.00',
          },
          item('Envío - Flete a Colón', 'ENVIO', '1.00', '25.00', '0.00', '25.00', '01', '1.75', '26.75'),
        ],
        { net: '207.04', itbms: '9.73', total: '216.77', payments: [['08', '216.77']] },
      ),
    );
  });

  it('a tip is left out: the invoice is 21.19 paid − 3.00 tip', () => {
    expect(mapped('tip')).toEqual(
      document(
        consumer('Gabriela Ríos', 'gabriela.rios@example.com'),
        [item('Almuerzo ejecutivo', 'ALM-EJE-01', '2.00', '8.50', '0.00', '17.00', '01', '1.19', '18.19')],
        { net: '17.00', itbms: '1.19', total: '18.19', payments: [['03', '18.19']] },
      ),
    );
  });

  it('a tip is invoiced as an exempt line when the shop says so', () => {
    const doc = mapped('tip', { includeTips: true });
    expect(doc.listItems[1]).toEqual(item('Propina', 'PROPINA', '1.00', '3.00', '0.00', '3.00', '00', '0.00', '3.00'));
    expect(doc.totalsSubTotals.totalInvoice).toBe('21.19');
  });

  it('a line removed by an order edit (current_quantity 0) is not invoiced; paypal → 03', () => {
    expect(mapped('edited-removed-line')).toEqual(
      document(
        consumer('Ana Pérez', 'ana.perez@example.com'),
        [
          item('Vela aromática', 'VEL-ARO-01', '2.00', '11.00', '0.00', '22.00', '01', '1.54', '23.54'),
          item('Envío estándar', 'ENVIO', '1.00', '5.00', '0.00', '5.00', '01', '0.35', '5.35'),
        ],
        { net: '27.00', itbms: '1.89', total: '28.89', payments: [['03', '28.89']] },
      ),
    );
  });

  it('a rate the shop maps (8 % → ITBMS 7 %): what was paid stays the total, the ITBMS is recomputed', () => {
    // Headphones: 49.99 + 4.00 (8 %) = 53.99 paid, taken as 7 %-inclusive: tax 53.99 × 7/107 = 3.532 → 3.53,
    // net 50.46. Case: 2 × 8.99 = 17.98 → 1.26 (Shopify's 1.2586 → 1.26).
    expect(mapped('unknown-rate', { taxRateCodes: { '0.08': '01' } })).toEqual(
      document(
        consumer('Ana Pérez', 'ana.perez@example.com'),
        [
          item('Audífonos inalámbricos', 'AUD-INA-01', '1.00', '50.46', '0.00', '50.46', '01', '3.53', '53.99'),
          item('Funda protectora', 'FUN-PRO-01', '2.00', '8.99', '0.00', '17.98', '01', '1.26', '19.24'),
        ],
        { net: '68.44', itbms: '4.79', total: '73.23', payments: [['03', '73.23']] },
      ),
    );
  });

  it.each(['250-lines', 'ten-lines'])('%s: the whole document as recorded (%s.document.json)', (name) => {
    const expected = JSON.parse(readFileSync(path.join(ORDER_FIXTURES_DIR, `${name}.document.json`), 'utf8')) as GatewayDocument;
    expect(mapped(name)).toEqual(expected);
  });

  it('250 lines: 442 items (lines split where the 7.5 % discount does not divide), totals to the cent', () => {
    const doc = mapped('250-lines');
    const order = loadOrder('250-lines');
    expect(doc.listItems).toHaveLength(442);
    expect(doc.totalsSubTotals.totalInvoice).toBe('204106.31');
    expect(order.totalPrice).toBe(20_410_631);
    expect(doc.totalsSubTotals.totalITBMS).toBe('14717.99');
    expect(order.totalTax).toBe(1_471_799);
    // Line 249: 9 × 218.11 = 1962.99 − 147.22 (7.5 %) = 1815.77 = 2 × 201.76 + 7 × 201.75.
    expect(doc.listItems.filter((i) => i.code === 'CAT-0249')).toEqual([
      item('Artículo de catálogo 249', 'CAT-0249', '2.00', '218.11', '16.35', '403.52', '01', '28.24', '431.76'),
      item('Artículo de catálogo 249', 'CAT-0249', '7.00', '218.11', '16.36', '1412.25', '01', '98.86', '1511.11'),
    ]);
  });

  it('every fixture is covered by a test here', () => {
    expect(orderFixtureNames()).toEqual([
      '250-lines',
      'b2b-company-enriched',
      'bad-check-digit',
      'discounted-shipping',
      'edited-removed-line',
      'eur-currency',
      'gift-card-line',
      'gift-card-payment',
      'mixed-rates-exempt',
      'several-gateways',
      'tax-exclusive',
      'tax-inclusive',
      'taxpayer-client',
      'ten-lines',
      'tip',
      'uneven-discounts',
      'unknown-rate',
    ]);
  });
});

describe('orderToDocument problems on fixture orders', () => {
  it('bad check digit: the merchant is told which RUC and DV do not match', () => {
    expect(withTexts(mapFixture('bad-check-digit'))).toEqual({
      ok: false,
      problems: [
        {
          code: 'ruc_check_digit_invalid',
          message:
            'The check digit (DV) 59 does not belong to the RUC 155596713-2-2016; one of them was mistyped. Confirm the RUC and DV with the customer, correct the order, then retry.',
          messageEs:
            'El dígito verificador (DV) 59 no corresponde al RUC 155596713-2-2016; uno de los dos está mal escrito. Confirme el RUC y el DV con el cliente, corrija el pedido y reintente.',
          path: 'note_attributes.dv',
        },
      ],
    });
  });

  it('unknown rate: 8 % is not an ITBMS rate', () => {
    expect(withTexts(mapFixture('unknown-rate'))).toEqual({
      ok: false,
      problems: [
        {
          code: 'unsupported_tax_rate',
          message:
            '"Audífonos inalámbricos" is charged a tax rate of 8 %, which is not an ITBMS rate (0, 7, 10 or 15 %). Correct the tax settings in Shopify, or tell the app which ITBMS rate to use for 8 % in its settings (tax rate codes).',
          messageEs:
            'A "Audífonos inalámbricos" se le cobró una tasa de impuesto de 8 %, que no es una tasa de ITBMS (0, 7, 10 o 15 %). Corrija la configuración de impuestos en Shopify, o indique en la configuración de la app qué tasa de ITBMS usar para 8 %.',
          path: 'line_items[0].tax_lines',
        },
      ],
    });
  });

  it('a shop in euros', () => {
    expect(withTexts(mapFixture('eur-currency'))).toEqual({
      ok: false,
      problems: [
        {
          code: 'unsupported_currency',
          message:
            "The shop's currency is EUR. Panamanian invoices are issued in US dollars (or balboas): set the store currency to USD in Shopify to invoice its orders.",
          messageEs:
            'La moneda de la tienda es EUR. Las facturas panameñas se emiten en dólares (o balboas): configure la moneda de la tienda en USD en Shopify para facturar sus pedidos.',
          path: 'currency',
        },
      ],
    });
  });

  it('several gateways without their transactions', () => {
    expect(needsTransactions(loadOrder('several-gateways'))).toBe(true);
    expect(needsTransactions(loadOrder('tax-exclusive'))).toBe(false);
    const result = firstDocumentOf(loadOrder('several-gateways'));
    expect(withTexts(result)).toEqual({
      ok: false,
      problems: [
        {
          code: 'transactions_missing',
          message:
            'The order was paid with several methods (bank deposit, cash on delivery (cod)) and the amount of each could not be read from Shopify. Retry later.',
          messageEs:
            'El pedido se pagó con varios métodos (bank deposit, cash on delivery (cod)) y no se pudo leer de Shopify el monto de cada uno. Reintente más tarde.',
          path: 'payment_gateway_names',
        },
      ],
    });
  });

  it('transactions that do not add up to the order total', () => {
    const transactions = loadTransactions('several-gateways')!.slice(0, 1);
    const result = firstDocumentOf(loadOrder('several-gateways'), { transactions });
    expect(result.ok).toBe(false);
    expect(!result.ok && withTexts(result.problems).map((p) => [p.code, p.message])).toEqual([
      [
        'payments_mismatch',
        "Shopify's payment records add up to 200.00 but the order total is 363.80. Check the order's payments in Shopify, then retry.",
      ],
    ]);
  });

  it('an order whose total does not match its lines is not invoiced (never a wrong invoice)', () => {
    const result = firstDocumentOf({ ...loadOrder('tax-exclusive'), totalPrice: cents(10_594) });
    expect(withTexts(!result.ok && result.problems)).toEqual([
      expect.objectContaining({
        code: 'total_mismatch',
        message:
          'The invoice would total 105.93 but the customer paid 105.94 for the invoiced items. The order may have been edited in an unusual way; check it in Shopify, then retry or issue the invoice by hand.',
      }),
    ]);
  });

  it('an order of gift cards only has nothing to invoice', () => {
    const base = loadOrder('gift-card-line');
    const order = { ...base, lineItems: base.lineItems.filter((l) => l.giftCard), totalPrice: cents(2500), totalTax: cents(0) };
    const result = firstDocumentOf(order);
    expect(!result.ok && result.problems.map((p) => p.code)).toEqual(['nothing_to_invoice']);
  });

  it('charges an invoice cannot show, and a shipment abroad, are all reported at once', () => {
    const base = loadOrder('tax-exclusive');
    const order = {
      ...base,
      totalDuties: cents(1250),
      totalAdditionalFees: cents(300),
      cashRoundingAdjustment: cents(-2),
      shippingAddress: { ...base.billingAddress!, countryCode: 'CR' },
    };
    const result = firstDocumentOf(order);
    expect(!result.ok && result.problems.map((p) => [p.code, p.path])).toEqual([
      ['duties_not_supported', 'current_total_duties_set'],
      ['additional_fees_not_supported', 'current_total_additional_fees_set'],
      ['cash_rounding_not_supported', 'total_cash_rounding_payment_adjustment_set'],
      ['foreign_destination', 'shipping_address.country_code'],
    ]);
  });
});

describe('orderToDocument inputs', () => {
  it('transaction defaults, numbering and the payment table come from the inputs', () => {
    const result = documentFor({
      order: loadOrder('tax-exclusive'),
      settings: mappingSettingsSchema.parse({
        transactionDefaults: { formatCAFE: '1', deliveryCAFE: '1', typeSale: '4' },
        paymentForms: { shopify_payments: '04' },
      }),
      numbering: { branchCode: '0002', billingPoint: '017', fiscalNumber: 1_234_567 },
      now: new Date('2026-11-20T15:30:00Z'),
    });
    expect(result.ok).toBe(true);
    const doc = result.ok ? result.document : undefined;
    expect(doc?.codeBranchIssuer).toBe('0002');
    expect(doc?.dataTransaction).toMatchObject({
      numberDocumentFiscal: '0001234567',
      pointBillingFiscal: '017',
      formatCAFE: '1',
      deliveryCAFE: '1',
      typeSale: '4',
    });
    expect(doc?.totalsSubTotals.listFormPayment).toEqual([{ formPaymentInvoice: '04', valueFeePaid: '105.93' }]);
  });

  it('an unknown gateway gets the default payment form', () => {
    const result = firstDocumentOf(
      { ...loadOrder('tax-exclusive'), paymentGatewayNames: ['Tilopay'] },
      { settings: { defaultPaymentForm: '99' } },
    );
    expect(result.ok && result.document.totalsSubTotals.listFormPayment).toEqual([{ formPaymentInvoice: '99', valueFeePaid: '105.93' }]);
  });

  it.each([
    [{ branchCode: '000', billingPoint: '001', fiscalNumber: 1 }, /branch code/],
    [{ branchCode: '0000', billingPoint: '000', fiscalNumber: 1 }, /billing point/],
    [{ branchCode: '0000', billingPoint: '001', fiscalNumber: 0 }, /fiscal number/],
    [{ branchCode: '0000', billingPoint: '001', fiscalNumber: 10_000_000_000 }, /fiscal number/],
  ])('a bad numbering %j is a bug in the caller: it throws', (numbering, message) => {
    expect(() => documentFor({ order: loadOrder('tip'), settings: mappingSettingsSchema.parse({}), numbering, now: new Date() })).toThrow(
      message,
    );
  });

  it.each([
    ['2026-11-20T15:30:00.000Z', '2026-11-20T10:30:00-05:00'],
    ['2026-01-01T03:59:59.999Z', '2025-12-31T22:59:59-05:00'],
    ['2024-02-29T05:00:00Z', '2024-02-29T00:00:00-05:00'],
  ])('dateBroadcast of %s is %s (Panama time, no fractions)', (instant, expected) => {
    expect(panamaDateTime(new Date(instant))).toBe(expected);
  });
});
