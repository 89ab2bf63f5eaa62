// Refunds in the store simulator: stored on their order (REST refunds[], financial_status), read back through
// GraphQL `refund(id:)` with the RefundForCreditNote query of docs/reference/shopify-refunds.md §3 and
// `order.refunds`, and delivered as signed `refunds/create` webhooks. Bodies: test/fixtures/refunds/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RestOrder, RestRefund, StoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { SHOP, graphqlClient, rawGraphql, startSim, webhookReceiver } from '../../support/store-simulator-kit.ts';
import { FIXTURES } from '../../support/paths.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(FIXTURES, `refunds/${name}.json`), 'utf8')) as Record<string, unknown>;

const REFUND_FOR_CREDIT_NOTE = `#graphql
  query RefundForCreditNote($id: ID!) {
    refund(id: $id) {
      id legacyResourceId createdAt processedAt note
      return { id name status }
      totalRefundedSet { shopMoney { amount currencyCode } }
      order { id name taxesIncluded currencyCode displayFinancialStatus }
      refundLineItems(first: 100) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id quantity restockType
          priceSet { shopMoney { amount } }
          subtotalSet { shopMoney { amount } }
          totalTaxSet { shopMoney { amount } }
          lineItem { id name sku quantity
            taxLines { rate title priceSet { shopMoney { amount } } }
            discountAllocations { allocatedAmountSet { shopMoney { amount } } } }
        }
      }
      refundShippingLines(first: 10) {
        nodes { id shippingLine { id title }
          subtotalAmountSet { shopMoney { amount } } taxAmountSet { shopMoney { amount } } }
      }
      orderAdjustments(first: 10) {
        nodes { id reason amountSet { shopMoney { amount } } taxAmountSet { shopMoney { amount } } }
      }
      duties { amountSet { shopMoney { amount } } originalDuty { id } }
      transactions(first: 20) {
        nodes { id kind status gateway formattedGateway manualPaymentGateway test processedAt
          amountSet { shopMoney { amount currencyCode } } parentTransaction { id gateway } }
      }
    }
  }`;

const ORDER_REFUNDS = `#graphql
  query OrderRefunds($id: ID!) {
    order(id: $id) {
      displayFinancialStatus
      totalRefundedSet { shopMoney { amount currencyCode } }
      refunds { id createdAt totalRefundedSet { shopMoney { amount } } }
      transactions { id kind gateway }
    }
  }`;

const shop = (amount: string) => ({ shopMoney: { amount } });

let sim: StoreSimulator;
let token: string;
let closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  closers = [];
  sim = await startSim(closers);
  token = sim.addShop(SHOP).accessToken;
});

afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

async function restOrder(id: string): Promise<RestOrder> {
  const res = await fetch(`${sim.origin}/admin/api/2026-10/orders/${id}.json`, {
    headers: { 'X-Shopify-Access-Token': token, 'x-shopify-shop-domain': SHOP },
  });
  return ((await res.json()) as { order: RestOrder }).order;
}

async function query(q: string, variables: Record<string, unknown>) {
  return (await graphqlClient(token).request(q, { variables })).data;
}

describe('refunds stored on their order', () => {
  it('two partial refunds: REST refunds[] and financial_status, GraphQL order.refunds and totalRefundedSet', async () => {
    const orderGid = sim.setOrder(SHOP, fixture('partial-line.order'));
    const first = fixture('partial-line.refund');
    const second = fixture('second-partial.refund');

    expect(sim.addRefund(SHOP, orderGid, first)).toBe('gid://shopify/Refund/9400000011021');
    expect(await restOrder('5900000001102')).toMatchObject({ financial_status: 'partially_refunded', refunds: [first] });
    expect(await query(ORDER_REFUNDS, { id: orderGid })).toEqual({
      order: {
        displayFinancialStatus: 'PARTIALLY_REFUNDED',
        totalRefundedSet: { shopMoney: { amount: '47.35', currencyCode: 'USD' } },
        refunds: [{ id: 'gid://shopify/Refund/9400000011021', createdAt: '2026-11-10T15:00:00Z', totalRefundedSet: shop('47.35') }],
        // The order's own payments stay as at payment; refunded money is read from the refunds.
        transactions: [{ id: expect.stringMatching(/^gid:\/\/shopify\/OrderTransaction\/\d+$/), kind: 'SALE', gateway: 'bogus' }],
      },
    });

    expect(sim.addRefund(SHOP, orderGid, second)).toBe('gid://shopify/Refund/9400000011022');
    const rest = await restOrder('5900000001102');
    expect(rest['financial_status']).toBe('refunded');
    expect(rest['refunds']).toEqual([first, second]);
    expect(sim.order(SHOP, orderGid)).toEqual(rest);
    const both = await query(ORDER_REFUNDS, { id: orderGid });
    expect(both?.order?.displayFinancialStatus).toBe('REFUNDED');
    expect(both?.order?.totalRefundedSet).toEqual({ shopMoney: { amount: '87.53', currencyCode: 'USD' } });
    expect(both?.order?.refunds.map((r: { totalRefundedSet: unknown }) => r.totalRefundedSet)).toEqual([shop('47.35'), shop('40.18')]);

    // A refunded order leaves the paid listing the reconciliation sweep reads.
    const listing = `query($q: String) { orders(first: 10, query: $q) { nodes { id } } }`;
    expect((await query(listing, { q: 'financial_status:paid' }))?.orders.nodes).toEqual([]);
    expect((await query(listing, { q: 'financial_status:refunded' }))?.orders.nodes).toEqual([{ id: orderGid }]);
  });

  it('refund(id:) answers RefundForCreditNote to the cent, with the shipping tax the REST body leaves out', async () => {
    const orderGid = sim.setOrder(SHOP, fixture('partial-line.order'));
    sim.addRefund(SHOP, orderGid, fixture('partial-line.refund'));
    sim.addRefund(SHOP, orderGid, fixture('second-partial.refund'));
    const sale = (await query(ORDER_REFUNDS, { id: orderGid }))?.order?.transactions[0]?.id as string;

    const answer = await query(REFUND_FOR_CREDIT_NOTE, { id: 'gid://shopify/Refund/9400000011022' });

    expect(answer?.refund).toEqual({
      id: 'gid://shopify/Refund/9400000011022',
      legacyResourceId: '9400000011022',
      createdAt: '2026-11-14T20:30:00Z',
      processedAt: '2026-11-14T20:30:00Z',
      note: 'Devolución de la última camisa; cerveza llegó rota; se reembolsa el envío',
      return: null,
      totalRefundedSet: { shopMoney: { amount: '40.18', currencyCode: 'USD' } },
      order: { id: orderGid, name: '#1102', taxesIncluded: false, currencyCode: 'USD', displayFinancialStatus: 'REFUNDED' },
      refundLineItems: {
        pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
        nodes: [
          {
            id: 'gid://shopify/RefundLineItem/9500000011022',
            quantity: 1,
            restockType: 'RETURN',
            priceSet: shop('25.0'),
            subtotalSet: shop('22.13'),
            totalTaxSet: shop('1.55'),
            lineItem: {
              id: 'gid://shopify/LineItem/14900000011021',
              name: 'Camisa Polo - L / Blanca',
              sku: 'POLO-L-BL',
              quantity: 3,
              taxLines: [{ rate: 0.07, title: 'ITBMS', priceSet: shop('4.65') }],
              discountAllocations: [{ allocatedAmountSet: shop('8.62') }],
            },
          },
          {
            id: 'gid://shopify/RefundLineItem/9500000011023',
            quantity: 1,
            restockType: 'NO_RESTOCK',
            priceSet: shop('12.0'),
            subtotalSet: shop('10.62'),
            totalTaxSet: shop('1.06'),
            lineItem: {
              id: 'gid://shopify/LineItem/14900000011022',
              name: 'Cerveza artesanal (6 unidades)',
              sku: 'CERV-6PK',
              quantity: 1,
              taxLines: [{ rate: 0.1, title: 'ITBMS', priceSet: shop('1.06') }],
              discountAllocations: [{ allocatedAmountSet: shop('1.38') }],
            },
          },
        ],
      },
      refundShippingLines: {
        nodes: [
          {
            id: 'gid://shopify/RefundShippingLine/9600000011022',
            shippingLine: { id: 'gid://shopify/ShippingLine/4900000011021', title: 'Envío estándar' },
            subtotalAmountSet: shop('4.5'),
            taxAmountSet: shop('0.32'),
          },
        ],
      },
      orderAdjustments: { nodes: [] },
      duties: [],
      transactions: {
        nodes: [
          {
            id: 'gid://shopify/OrderTransaction/7100000011023',
            kind: 'REFUND',
            status: 'SUCCESS',
            gateway: 'bogus',
            formattedGateway: 'Bogus',
            manualPaymentGateway: false,
            test: true,
            processedAt: '2026-11-14T20:30:00Z',
            amountSet: { shopMoney: { amount: '40.18', currencyCode: 'USD' } },
            parentTransaction: { id: sale, gateway: 'bogus' },
          },
        ],
      },
    });
  });

  it('pages refund lines with first/after like Shopify', async () => {
    const orderGid = sim.setOrder(SHOP, fixture('partial-line.order'));
    sim.addRefund(SHOP, orderGid, fixture('second-partial.refund'));
    const lines = `query($id: ID!, $after: String) {
      refund(id: $id) { refundLineItems(first: 1, after: $after) { pageInfo { hasNextPage endCursor } nodes { id } } } }`;
    const id = 'gid://shopify/Refund/9400000011022';

    const page1 = (await query(lines, { id }))?.refund.refundLineItems;
    expect(page1.nodes).toEqual([{ id: 'gid://shopify/RefundLineItem/9500000011022' }]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await query(lines, { id, after: page1.pageInfo.endCursor }))?.refund.refundLineItems;
    expect(page2).toEqual({
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
      nodes: [{ id: 'gid://shopify/RefundLineItem/9500000011023' }],
    });
    const noFirst = await rawGraphql(sim, token, `query($id: ID!) { refund(id: $id) { refundLineItems { nodes { id } } } }`, { id });
    expect(noFirst.body['errors']).toMatchObject([
      { message: 'you must provide one of first or last', path: ['refund', 'refundLineItems'] },
    ]);
  });

  it('shipping only: all of the line tax for a full refund, a half-up share for part of it', async () => {
    const orderGid = sim.setOrder(SHOP, fixture('shipping-only.order'));
    const full = fixture('shipping-only.refund');
    const partial = structuredClone(full);
    partial['id'] = 9400000011032;
    partial['admin_graphql_api_id'] = 'gid://shopify/Refund/9400000011032';
    const [line] = partial['refund_shipping_lines'] as Record<string, unknown>[];
    line!['subtotal_amount_set'] = {
      shop_money: { amount: '2.50', currency_code: 'USD' },
      presentment_money: { amount: '2.50', currency_code: 'USD' },
    };
    sim.addRefund(SHOP, orderGid, full);
    sim.addRefund(SHOP, orderGid, partial);
    const shipping = `query($id: ID!) { refund(id: $id) { refundLineItems(first: 5) { nodes { id } }
      refundShippingLines(first: 5) { nodes { shippingLine { title } subtotalAmountSet { shopMoney { amount } } taxAmountSet { shopMoney { amount } } } } } }`;

    expect((await query(shipping, { id: 'gid://shopify/Refund/9400000011031' }))?.refund).toEqual({
      refundLineItems: { nodes: [] },
      refundShippingLines: {
        nodes: [{ shippingLine: { title: 'Envío express' }, subtotalAmountSet: shop('6.0'), taxAmountSet: shop('0.42') }],
      },
    });
    // 0.42 × 2.50 / 6.00 = 0.175 → 0.18.
    expect((await query(shipping, { id: 'gid://shopify/Refund/9400000011032' }))?.refund.refundShippingLines.nodes[0]).toEqual({
      shippingLine: { title: 'Envío express' },
      subtotalAmountSet: shop('2.5'),
      taxAmountSet: shop('0.18'),
    });
  });

  it('amount only: the refund discrepancy adjustment with its REST sign, the manual transaction', async () => {
    const orderGid = sim.setOrder(SHOP, fixture('amount-only.order'));
    sim.addRefund(SHOP, orderGid, fixture('amount-only.refund'));

    const answer = await query(REFUND_FOR_CREDIT_NOTE, { id: 'gid://shopify/Refund/9400000011041' });

    expect(answer?.refund?.totalRefundedSet).toEqual({ shopMoney: { amount: '10.0', currencyCode: 'USD' } });
    expect(answer?.refund?.order.displayFinancialStatus).toBe('PARTIALLY_REFUNDED');
    expect(answer?.refund?.refundLineItems.nodes).toEqual([]);
    expect(answer?.refund?.orderAdjustments.nodes).toEqual([
      {
        id: 'gid://shopify/OrderAdjustment/1200000011041',
        reason: 'REFUND_DISCREPANCY',
        amountSet: shop('-10.0'),
        taxAmountSet: shop('0.0'),
      },
    ]);
    expect(answer?.refund?.transactions.nodes).toMatchObject([
      {
        kind: 'REFUND',
        status: 'SUCCESS',
        gateway: 'manual',
        formattedGateway: 'Manual',
        manualPaymentGateway: true,
        amountSet: { shopMoney: { amount: '10.0' } },
      },
    ]);
  });

  it('refuses a refund that names another order, a second copy, an unknown order or a bad transaction, and changes nothing', async () => {
    const orderGid = sim.setOrder(SHOP, fixture('partial-line.order'));
    const refund = fixture('partial-line.refund');
    const badKind = structuredClone(refund);
    (badKind['transactions'] as Record<string, unknown>[])[0]!['kind'] = 'gift';

    expect(() => sim.addRefund(SHOP, 'gid://shopify/Order/5900000001103', refund)).toThrow(
      'no order gid://shopify/Order/5900000001103 in demo.myshopify.com',
    );
    sim.setOrder(SHOP, fixture('shipping-only.order'));
    expect(() => sim.addRefund(SHOP, 'gid://shopify/Order/5900000001103', refund)).toThrow(
      'refund order_id 5900000001102 does not name gid://shopify/Order/5900000001103',
    );
    expect(() => sim.addRefund(SHOP, orderGid, badKind)).toThrow('refund transaction 7100000011022: unknown kind gift');
    expect(() => sim.addRefund(SHOP, orderGid, { ...refund, id: 'x', admin_graphql_api_id: undefined })).toThrow(
      'refund needs admin_graphql_api_id or a numeric id',
    );
    expect(sim.order(SHOP, orderGid)).toMatchObject({ financial_status: 'paid', refunds: [] });

    sim.addRefund(SHOP, orderGid, refund);
    expect(() => sim.addRefund(SHOP, orderGid, refund)).toThrow('refund gid://shopify/Refund/9400000011021 is already stored');
    expect(sim.order(SHOP, orderGid)?.['refunds']).toEqual([refund]);
    // Unknown or another shop's refund: null, as Shopify answers.
    const other = sim.addShop('other.myshopify.com').accessToken;
    const foreign = await rawGraphql(sim, other, `{ refund(id: "gid://shopify/Refund/9400000011021") { id } }`, {}, 'other.myshopify.com');
    expect(foreign.body['data']).toEqual({ refund: null });
    expect(await query(`{ refund(id: "gid://shopify/Refund/1") { id } }`, {})).toEqual({ refund: null });
  });
});

describe('refunds/create webhooks', () => {
  it('refundCreated stores the refund and sends it signed, as orderPaid sends orders/paid; a redelivery keeps one copy', async () => {
    const receiver = await webhookReceiver(closers);
    const order = fixture('partial-line.order');
    const refund: RestRefund = fixture('partial-line.refund');
    await sim.orderPaid(SHOP, order, receiver.address);

    const result = await sim.refundCreated(SHOP, refund, receiver.address, { webhookId: 'wh-refund-1' });

    expect(result).toMatchObject({ status: 200, body: 'ok' });
    const got = receiver.received[1];
    expect(got?.check).toMatchObject({
      valid: true,
      topic: 'REFUNDS_CREATE',
      domain: SHOP,
      apiVersion: '2026-10',
      webhookId: 'wh-refund-1',
    });
    expect(got?.rawBody).toBe(JSON.stringify(refund));
    expect(got?.headers['x-shopify-topic']).toBe('refunds/create');
    expect(sim.order(SHOP, 'gid://shopify/Order/5900000001102')).toMatchObject({
      financial_status: 'partially_refunded',
      refunds: [refund],
    });

    // The same refund delivered again, and orders/paid delivered again: still one stored refund.
    expect((await sim.refundCreated(SHOP, refund, receiver.address)).status).toBe(200);
    await sim.orderPaid(SHOP, order, receiver.address);
    expect(sim.order(SHOP, 'gid://shopify/Order/5900000001102')).toMatchObject({
      financial_status: 'partially_refunded',
      refunds: [refund],
    });
    await expect(sim.refundCreated(SHOP, { ...refund, note: 'otra' }, receiver.address)).rejects.toThrow(
      'refund gid://shopify/Refund/9400000011021 is stored with another body',
    );
    expect(sim.webhookLog().map((a) => [a.topic, a.status])).toEqual([
      ['orders/paid', 200],
      ['refunds/create', 200],
      ['refunds/create', 200],
      ['orders/paid', 200],
    ]);
  });
});
