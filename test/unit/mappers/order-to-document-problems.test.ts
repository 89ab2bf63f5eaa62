// Fixture orders (test/fixtures/orders/) that cannot be invoiced → the exact problems, and the mapper's inputs.
import { describe, expect, it } from 'vitest';
import { type MappingSettingsInput, mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { cents } from '../../../mappers/fiscal/money.ts';
import { panamaDateTime } from '../../../mappers/invoice/document-numbering.ts';
import { type OrderTransaction, needsTransactions } from '../../../mappers/invoice/order-to-document.ts';
import type { ShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { type DocumentResult, FIXTURE_NOW, loadOrder, loadTransactions, mapFixture, documentFor } from '../../support/order-fixtures.ts';
import { withTexts } from '../../support/documents.ts';

// ---------------------------------------------------------------------------------------------
// Expected-document builders: they only arrange literal values.

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

// ---------------------------------------------------------------------------------------------

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
