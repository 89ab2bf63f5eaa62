// Writes the order fixtures of test/fixtures/orders/ (bodies built the way Shopify computes them, and the
// GraphQL transactions of the orders paid through several gateways). The fixtures are committed; run
// `node test/support/write-order-fixtures.ts` only to change them, then review the fixture tests.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type LineSpec, type OrderSpec, buildOrder } from './shopify-order-builder.ts';

const dir = path.join(import.meta.dirname, '..', 'fixtures', 'orders');
const write = (name: string, value: unknown) => writeFileSync(`${dir}/${name}`, JSON.stringify(value, null, 2) + '\n');
/** The buyer of most fixtures, and her e-mail. */
const ana = { customer: { firstName: 'Ana', lastName: 'Pérez' }, email: 'ana.perez@example.com' };

const specs: Record<string, OrderSpec> = {
  'tax-exclusive': {
    id: 5900000010001,
    orderNumber: 1101,
    taxesIncluded: false,
    ...ana,
    billingAddress: {
      firstName: 'Ana',
      lastName: 'Pérez',
      address1: 'Avenida Central, Casa 12',
      city: 'David',
      province: 'Chiriquí',
      phone: '+507 6123-4567',
    },
    lines: [
      { title: 'Camisa de lino', variantTitle: 'M / Blanco', sku: 'CAM-LIN-M-BL', price: 2450, quantity: 2, taxRates: ['0.07'] },
      { title: 'Sombrero pintao', sku: 'SOM-PIN-01', price: 4500, quantity: 1, taxRates: ['0.07'] },
    ],
    shipping: [{ title: 'Envío estándar', price: 500, taxRates: ['0.07'] }],
    gateways: ['shopify_payments'],
  },
  'tax-inclusive': {
    id: 5900000010002,
    orderNumber: 1102,
    taxesIncluded: true,
    customer: { firstName: 'Luis', lastName: 'Castillo' },
    email: 'luis.castillo@example.com',
    lines: [
      { title: 'Café Geisha de Boquete 250 g', sku: 'CAF-GEI-250', price: 1899, quantity: 3, taxRates: ['0.07'] },
      { title: 'Taza de cerámica', sku: 'TAZ-CER-01', price: 1200, quantity: 1, taxRates: ['0.07'] },
    ],
    orderDiscount: { kind: 'percent', percent: '10.0', code: 'CAFE10' },
    shipping: [{ title: 'Entrega en Ciudad de Panamá', price: 428, taxRates: ['0.07'] }],
    gateways: ['shopify_payments'],
  },
  'mixed-rates-exempt': {
    id: 5900000010003,
    orderNumber: 1103,
    taxesIncluded: false,
    customer: { firstName: 'Carlos', lastName: 'Rodríguez' },
    email: 'carlos.rodriguez@example.com',
    lines: [
      { title: 'Ron añejo 12 años 750 ml', sku: 'RON-12-750', price: 3500, quantity: 1, taxRates: ['0.1'] },
      { title: 'Cigarros (cajetilla)', sku: 'CIG-CAJ-20', price: 650, quantity: 2, taxRates: ['0.15'] },
      { title: 'Arroz 5 lb', sku: 'ARR-5LB', price: 425, quantity: 2, taxRates: [] },
      { title: 'Jabón artesanal', sku: 'JAB-ART-01', price: 375, quantity: 4, taxRates: ['0.07'] },
    ],
    shipping: [{ title: 'Envío estándar', price: 350, taxRates: ['0.07'] }],
    gateways: ['Cash on Delivery (COD)'],
  },
  'uneven-discounts': {
    id: 5900000010004,
    orderNumber: 1104,
    taxesIncluded: false,
    customer: { firstName: 'María', lastName: 'González' },
    email: 'maria.gonzalez@example.com',
    lines: [
      { title: 'Mola tradicional', sku: 'MOL-TRA-01', price: 2999, quantity: 3, taxRates: ['0.07'] },
      {
        title: 'Chaquira emberá',
        sku: 'CHA-EMB-01',
        price: 1250,
        quantity: 2,
        taxRates: ['0.07'],
        discount: { kind: 'percent', percent: '15.0', title: 'Artesanía 15 %' },
      },
      { title: 'Postal de Panamá', sku: 'POS-PAN-01', price: 125, quantity: 7, taxRates: [] },
      {
        title: 'Bolsa de tela (regalo)',
        sku: 'BOL-TEL-01',
        price: 300,
        quantity: 1,
        taxRates: ['0.07'],
        discount: { kind: 'percent', percent: '100.0', title: 'Regalo con tu compra' },
      },
    ],
    orderDiscount: { kind: 'fixed', amount: 1000, code: 'FERIA10' },
    gateways: ['shopify_payments'],
  },
  'discounted-shipping': {
    id: 5900000010005,
    orderNumber: 1105,
    taxesIncluded: false,
    test: true,
    customer: { firstName: 'Sofía', lastName: 'Herrera' },
    email: 'sofia.herrera@example.com',
    lines: [{ title: 'Hamaca de algodón', sku: 'HAM-ALG-01', price: 3990, quantity: 1, taxRates: ['0.07'] }],
    shipping: [
      { title: 'Envío express', price: 799, taxRates: ['0.07'], discount: { kind: 'percent', percent: '50.0', code: 'ENVIOMITAD' } },
    ],
    gateways: ['bogus'],
  },
  'gift-card-line': {
    id: 5900000010006,
    orderNumber: 1106,
    taxesIncluded: false,
    customer: { firstName: 'Jorge', lastName: 'Vásquez' },
    email: 'jorge.vasquez@example.com',
    lines: [
      { title: 'Pintura en tela', variantTitle: 'Mediana', sku: 'PIN-TEL-M', price: 6000, quantity: 1, taxRates: ['0.07'] },
      { title: 'Tarjeta de regalo', variantTitle: '$25.00', sku: null, price: 2500, quantity: 1, taxRates: [], giftCard: true },
    ],
    shipping: [{ title: 'Envío gratis', price: 0, taxRates: [] }],
    gateways: ['shopify_payments'],
  },
  'gift-card-payment': {
    id: 5900000010007,
    orderNumber: 1107,
    taxesIncluded: false,
    customer: { firstName: 'Elena', lastName: 'Morales' },
    email: 'elena.morales@example.com',
    lines: [{ title: 'Pollera (réplica decorativa)', sku: 'POL-REP-01', price: 12000, quantity: 1, taxRates: ['0.07'] }],
    shipping: [{ title: 'Envío estándar', price: 600, taxRates: ['0.07'] }],
    gateways: ['gift_card', 'shopify_payments'],
  },
  'several-gateways': {
    id: 5900000010008,
    orderNumber: 1108,
    taxesIncluded: false,
    customer: { firstName: 'Ricardo', lastName: 'Díaz' },
    email: 'ricardo.diaz@example.com',
    lines: [{ title: 'Silla de madera de cocobolo', sku: 'SIL-COC-01', price: 8500, quantity: 4, taxRates: ['0.07'] }],
    gateways: ['Bank Deposit', 'Cash on Delivery (COD)'],
  },
  'taxpayer-client': {
    id: 5900000010009,
    orderNumber: 1109,
    taxesIncluded: false,
    customer: { firstName: 'Pedro', lastName: 'Sánchez' },
    email: 'compras@distribuidora-ejemplo.com.pa',
    noteAttributes: [
      { name: 'ruc', value: '155596713-2-2015' },
      { name: 'dv', value: '59' },
      { name: 'razon_social', value: 'Distribuidora Ejemplo, S.A.' },
      { name: 'direccion', value: 'Vía España, Edificio Ejemplo, Local 2' },
      { name: 'codigo_ubicacion', value: '8-8-9' },
    ],
    lines: [{ title: 'Resma de papel carta', sku: 'PAP-CAR-500', price: 525, quantity: 10, taxRates: ['0.07'] }],
    shipping: [{ title: 'Envío a oficina', price: 1000, taxRates: ['0.07'] }],
    gateways: ['shopify_payments'],
  },
  'bad-check-digit': {
    id: 5900000010010,
    orderNumber: 1110,
    taxesIncluded: false,
    customer: { firstName: 'Pedro', lastName: 'Sánchez' },
    email: 'compras@distribuidora-ejemplo.com.pa',
    noteAttributes: [
      { name: 'ruc', value: '155596713-2-2016' },
      { name: 'dv', value: '59' },
      { name: 'razon_social', value: 'Distribuidora Ejemplo, S.A.' },
    ],
    lines: [{ title: 'Resma de papel carta', sku: 'PAP-CAR-500', price: 525, quantity: 4, taxRates: ['0.07'] }],
    gateways: ['shopify_payments'],
  },
  'unknown-rate': {
    id: 5900000010011,
    orderNumber: 1111,
    taxesIncluded: false,
    ...ana,
    lines: [
      { title: 'Audífonos inalámbricos', sku: 'AUD-INA-01', price: 4999, quantity: 1, taxRates: ['0.08'], taxTitles: ['IVA'] },
      { title: 'Funda protectora', sku: 'FUN-PRO-01', price: 899, quantity: 2, taxRates: ['0.07'] },
    ],
    gateways: ['shopify_payments'],
  },
  tip: {
    id: 5900000010013,
    orderNumber: 1113,
    taxesIncluded: false,
    customer: { firstName: 'Gabriela', lastName: 'Ríos' },
    email: 'gabriela.rios@example.com',
    lines: [{ title: 'Almuerzo ejecutivo', sku: 'ALM-EJE-01', price: 850, quantity: 2, taxRates: ['0.07'] }],
    tip: 300,
    gateways: ['shopify_payments'],
  },
  'edited-removed-line': {
    id: 5900000010014,
    orderNumber: 1114,
    taxesIncluded: false,
    ...ana,
    lines: [
      { title: 'Vela aromática', sku: 'VEL-ARO-01', price: 1100, quantity: 2, taxRates: ['0.07'] },
      { title: 'Portavelas de vidrio', sku: 'POR-VID-01', price: 750, quantity: 1, currentQuantity: 0, taxRates: ['0.07'] },
    ],
    shipping: [{ title: 'Envío estándar', price: 500, taxRates: ['0.07'] }],
    gateways: ['paypal'],
  },
  'b2b-company-enriched': {
    id: 5900000010015,
    orderNumber: 1115,
    taxesIncluded: false,
    customer: { firstName: 'Rosa', lastName: 'Jiménez' },
    email: 'rosa.jimenez@importadora-ejemplo.com.pa',
    billingAddress: {
      firstName: 'Rosa',
      lastName: 'Jiménez',
      company: 'Importadora Ejemplo, S.A.',
      address1: 'Calle 16, Zona Libre, Galera 5',
      city: 'Barrio Norte',
      province: 'Colón',
      phone: '441-2345',
    },
    company: {
      id: 6800000000001,
      location_id: 6900000000001,
      name: 'Importadora Ejemplo, S.A.',
      tax_registration_id: '155646463-2-2017 DV 86',
    },
    lines: [
      { title: 'Aceite de coco 500 ml', sku: 'ACE-COC-500', barcode: '7501234567893', price: 475, quantity: 24, taxRates: ['0.07'] },
      { title: 'Harina de maíz 1 kg', sku: 'HAR-MAI-1K', barcode: '7412345000127', price: 189, quantity: 36, taxRates: [] },
    ],
    shipping: [{ title: 'Flete a Colón', price: 2500, taxRates: ['0.07'] }],
    gateways: ['manual'],
  },
  'eur-currency': {
    id: 5900000010016,
    orderNumber: 1116,
    taxesIncluded: true,
    currency: 'EUR',
    ...ana,
    lines: [{ title: 'Camisa de lino', sku: 'CAM-LIN-M-BL', price: 2450, quantity: 1, taxRates: ['0.07'] }],
    gateways: ['shopify_payments'],
  },
};

// 250 lines: a department-store order, Shopify rounding tax per rate on the whole order.
const rateCycle = [['0.07'], ['0.07'], ['0.07'], ['0.1'], [], ['0.07'], ['0.15'], ['0.07']];
const lines250: LineSpec[] = Array.from({ length: 250 }, (_, i) => ({
  title: `Artículo de catálogo ${String(i + 1).padStart(3, '0')}`,
  sku: `CAT-${String(i + 1).padStart(4, '0')}`,
  price: 99 + ((i * 7919) % 24_900),
  quantity: 1 + ((i * 31) % 12),
  taxRates: rateCycle[i % rateCycle.length]!,
}));
specs['250-lines'] = {
  id: 5900000010012,
  orderNumber: 1112,
  taxesIncluded: false,
  taxRounding: 'order',
  customer: { firstName: 'Hotel', lastName: 'Ejemplo' },
  email: 'compras@hotel-ejemplo.com.pa',
  lines: lines250,
  orderDiscount: { kind: 'percent', percent: '7.5', code: 'ANIVERSARIO' },
  shipping: [{ title: 'Flete consolidado', price: 1500, taxRates: ['0.07'] }],
  gateways: ['shopify_payments'],
};
// 10 lines, for the benchmark.
specs['ten-lines'] = {
  id: 5900000010017,
  orderNumber: 1117,
  taxesIncluded: false,
  ...ana,
  lines: lines250.slice(0, 10),
  orderDiscount: { kind: 'percent', percent: '5.0', code: 'BIENVENIDA5' },
  shipping: [{ title: 'Envío estándar', price: 500, taxRates: ['0.07'] }],
  gateways: ['shopify_payments'],
};

export function writeOrderFixtures(): void {
  for (const [name, spec] of Object.entries(specs)) write(`${name}.json`, buildOrder(spec));

  const money = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } });
  write('gift-card-payment.transactions.json', [
    { gateway: 'gift_card', kind: 'SALE', status: 'SUCCESS', amountSet: money('50.0') },
    { gateway: 'shopify_payments', kind: 'AUTHORIZATION', status: 'SUCCESS', amountSet: money('84.82') },
    { gateway: 'shopify_payments', kind: 'CAPTURE', status: 'SUCCESS', amountSet: money('84.82') },
  ]);
  write('several-gateways.transactions.json', [
    { gateway: 'Bank Deposit', kind: 'SALE', status: 'SUCCESS', amountSet: money('200.0') },
    { gateway: 'Cash on Delivery (COD)', kind: 'SALE', status: 'FAILURE', amountSet: money('163.8') },
    { gateway: 'Cash on Delivery (COD)', kind: 'SALE', status: 'SUCCESS', amountSet: money('163.8') },
  ]);
}

if (import.meta.main) writeOrderFixtures();
