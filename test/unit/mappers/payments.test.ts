import { describe, expect, it } from 'vitest';
import { mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { cents } from '../../../mappers/fiscal/money.ts';
import { withTexts } from '../../support/documents.ts';
import { ORDER_TRANSACTIONS_QUERY } from '../../../src/shopify/order-queries.ts';
import {
  type OrderTransaction,
  buildPayments,
  needsTransactions,
  parseOrderTransactions,
  paymentFormOf,
  receivedByGateway,
} from '../../../mappers/invoice/payments.ts';
import type { ShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { loadOrder } from '../../support/order-fixtures.ts';

const settings = mappingSettingsSchema.parse({});

function tx(gateway: string, kind: string, amount: number, status = 'SUCCESS'): OrderTransaction {
  return { gateway, kind, status, amount: cents(amount) };
}

function order(gateways: string[], total: number): ShopifyOrder {
  return { ...loadOrder('tax-exclusive'), paymentGatewayNames: gateways, totalPrice: cents(total) };
}

describe('payment forms', () => {
  it.each([
    ['shopify_payments', '03'],
    ['Stripe', '03'],
    ['paypal', '03'],
    ['bogus', '03'],
    ['gift_card', '07'],
    ['Cash on Delivery (COD)', '02'],
    ['Bank Deposit', '08'],
    ['manual', '08'],
    ['Yappy', '08'],
    ['Tilopay', '03'],
  ])('%s → %s', (gateway, form) => {
    expect(paymentFormOf(gateway, settings)).toBe(form);
  });

  it('one gateway carries the whole invoice; no gateway (a free order) gets the default form', () => {
    expect(buildPayments(order(['Cash on Delivery (COD)'], 10_593), settings, undefined, cents(10_593), cents(0))).toEqual({
      ok: true,
      payments: [{ formPaymentInvoice: '02', valueFeePaid: '105.93' }],
    });
    expect(buildPayments(order([], 0), settings, undefined, cents(0), cents(0))).toEqual({
      ok: true,
      payments: [{ formPaymentInvoice: '03', valueFeePaid: '0.00' }],
    });
    // The same gateway twice is still one gateway.
    expect(needsTransactions(order(['manual', 'Manual'], 100))).toBe(false);
  });

  // Issue 14 item 8: a gateway's name is outside data; Object.prototype's names are names like any other.
  const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

  it.each(PROTOTYPE_NAMES)('a gateway named %s takes the default form, never an Object.prototype property', (name) => {
    expect(paymentFormOf(name, settings)).toBe('03');
    expect(buildPayments(order([name], 10_593), settings, undefined, cents(10_593), cents(0))).toEqual({
      ok: true,
      payments: [{ formPaymentInvoice: '03', valueFeePaid: '105.93' }],
    });
  });

  it('a shop may map gateways named like Object.prototype properties', () => {
    const own = mappingSettingsSchema.parse({
      paymentForms: JSON.parse('{"constructor": "08", "__proto__": "02", "toString": "09"}'),
      taxRateCodes: JSON.parse('{"0.085": "01"}'),
    });
    // zod's record leaves a "__proto__" key out of what it returns: that name keeps the default form.
    expect(['constructor', '__proto__', 'toString', 'valueOf', 'yappy'].map((n) => paymentFormOf(n, own))).toEqual([
      '08',
      '03',
      '09',
      '03',
      '08',
    ]);
  });
});

describe('buildPayments with several gateways', () => {
  it('amounts from successful sales and captures, less refunds and change; authorizations and failures ignored', () => {
    const transactions = [
      tx('gift_card', 'SALE', 5000),
      tx('shopify_payments', 'AUTHORIZATION', 8482),
      tx('shopify_payments', 'CAPTURE', 8482),
      tx('shopify_payments', 'SALE', 999, 'FAILURE'),
      tx('cash', 'SALE', 2000),
      tx('cash', 'CHANGE', 500),
      tx('cash', 'REFUND', 500),
    ];
    expect(Object.fromEntries(receivedByGateway(transactions))).toEqual({ gift_card: 5000, shopify_payments: 8482, cash: 1000 });
    expect(
      buildPayments(order(['gift_card', 'shopify_payments', 'cash'], 14_482), settings, transactions, cents(14_482), cents(0)),
    ).toEqual({
      ok: true,
      payments: [
        { formPaymentInvoice: '07', valueFeePaid: '50.00' },
        { formPaymentInvoice: '03', valueFeePaid: '84.82' },
        { formPaymentInvoice: '02', valueFeePaid: '10.00' },
      ],
    });
  });

  it('what was left out (gift cards bought, tips) comes off the largest non-gift-card payment first', () => {
    const transactions = [tx('gift_card', 'SALE', 3000), tx('shopify_payments', 'SALE', 7000), tx('manual', 'SALE', 1000)];
    expect(
      buildPayments(order(['gift_card', 'shopify_payments', 'manual'], 11_000), settings, transactions, cents(8500), cents(2500)),
    ).toEqual({
      ok: true,
      payments: [
        { formPaymentInvoice: '07', valueFeePaid: '30.00' },
        { formPaymentInvoice: '03', valueFeePaid: '45.00' },
        { formPaymentInvoice: '08', valueFeePaid: '10.00' },
      ],
    });
    // More left out than the other payments: the rest comes off the gift card.
    expect(
      buildPayments(
        order(['gift_card', 'shopify_payments'], 10_000),
        settings,
        [tx('gift_card', 'SALE', 6000), tx('shopify_payments', 'SALE', 4000)],
        cents(5000),
        cents(5000),
      ),
    ).toEqual({ ok: true, payments: [{ formPaymentInvoice: '07', valueFeePaid: '50.00' }] });
  });

  it('gateways with the same form are one payment', () => {
    const transactions = [tx('stripe', 'SALE', 1000), tx('paypal', 'SALE', 2000)];
    expect(buildPayments(order(['stripe', 'paypal'], 3000), settings, transactions, cents(3000), cents(0))).toEqual({
      ok: true,
      payments: [{ formPaymentInvoice: '03', valueFeePaid: '30.00' }],
    });
  });

  it('no transactions, or transactions that do not add up, are problems', () => {
    const o = order(['gift_card', 'shopify_payments'], 3000);
    expect(needsTransactions(o)).toBe(true);
    expect(buildPayments(o, settings, undefined, cents(3000), cents(0))).toMatchObject({
      ok: false,
      problems: [{ code: 'transactions_missing' }],
    });
    expect(withTexts(buildPayments(o, settings, [tx('gift_card', 'SALE', 1000)], cents(3000), cents(0)))).toMatchObject({
      ok: false,
      problems: [
        {
          code: 'payments_mismatch',
          message:
            "Shopify's payment records add up to 10.00 but the order total is 30.00. Check the order's payments in Shopify, then retry.",
        },
      ],
    });
  });
});

describe('order transactions from the Admin GraphQL API', () => {
  it('the query asks for what the parser reads', () => {
    expect(ORDER_TRANSACTIONS_QUERY).toMatch(/order\(id: \$id\)/);
    for (const field of ['gateway', 'kind', 'status', 'amountSet', 'shopMoney', 'amount', 'currencyCode'])
      expect(ORDER_TRANSACTIONS_QUERY).toContain(field);
  });

  it('parses nodes into cents', () => {
    expect(
      parseOrderTransactions([
        { gateway: 'gift_card', kind: 'SALE', status: 'SUCCESS', amountSet: { shopMoney: { amount: '50.0', currencyCode: 'USD' } } },
        { gateway: null, kind: 'capture', status: 'success', amountSet: { shopMoney: { amount: '84.82', currencyCode: 'USD' } } },
      ]),
    ).toEqual({
      ok: true,
      transactions: [
        { gateway: 'gift_card', kind: 'SALE', status: 'SUCCESS', amount: 5000 },
        { gateway: '', kind: 'CAPTURE', status: 'SUCCESS', amount: 8482 },
      ],
    });
  });

  it('anything else is a problem, not an exception', () => {
    expect(parseOrderTransactions({ transactions: [] })).toMatchObject({
      ok: false,
      problems: [{ code: 'order_unreadable', path: 'transactions' }],
    });
    expect(
      parseOrderTransactions([{ gateway: 'x', kind: 'SALE', status: 'SUCCESS', amountSet: { shopMoney: { amount: '1.234' } } }]),
    ).toMatchObject({ ok: false, problems: [{ code: 'order_unreadable', path: 'transactions[0].amountSet.shopMoney.amount' }] });
    expect(parseOrderTransactions([{ kind: 'SALE' }])).toMatchObject({
      ok: false,
      problems: [{ path: 'transactions[0].status' }, { path: 'transactions[0].amountSet' }],
    });
  });
});
