// Fixture orders (test/fixtures/orders/) → whole gateway documents. Amounts are worked out in the comments.
import { describe, expect, it } from 'vitest';
import { consumer, item, document } from '../../support/expected-documents.ts';
import { mapped } from '../../support/order-fixtures.ts';

// ---------------------------------------------------------------------------------------------
// Expected-document builders: they only arrange literal values.

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
});
