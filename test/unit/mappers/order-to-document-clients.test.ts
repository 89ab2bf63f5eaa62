// Fixture orders (test/fixtures/orders/) → whole gateway documents: clients (taxpayers, B2B companies) and the
// payment forms. Amounts are worked out in the comments.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GatewayDocument } from '../../../mappers/gateway/gateway-document.ts';
import { ORDER_FIXTURES_DIR, loadOrder, orderFixtureNames } from '../../support/order-fixtures.ts';
import { consumer, item, document } from '../../support/expected-documents.ts';
import { mapped } from '../../support/order-fixtures.ts';

// ---------------------------------------------------------------------------------------------
// Expected-document builders: they only arrange literal values.

// ---------------------------------------------------------------------------------------------

describe('orderToDocument on fixture orders', () => {
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
