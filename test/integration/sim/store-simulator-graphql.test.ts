// The store simulator's Admin GraphQL as the next issues will use it: confirming an order through the shop's
// own API (null when it is not the shop's), the buyer (customer metafields, locale, B2B company location tax
// id through purchasingEntity), order edits, scopes, and Shopify's errors for selections outside the schema.
import { GraphqlQueryError } from '@shopify/shopify-api';
import { parse, validate } from 'graphql';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORDER_TRANSACTIONS_QUERY } from '../../../src/shopify/order-queries.ts';
import { SHOP_NAME_QUERY } from '../../../src/shopify/shop-name.ts';
import { RECONCILE_ORDERS_QUERY } from '../../../src/documents/reconcile-sweep.ts';
import { METAFIELDS_SET_MUTATION } from '../../../src/shopify/metafield-writer.ts';
import { adminSchema } from '../../../sim/store-simulator/admin-schema.ts';
import type { StoreSimulator } from '../../../sim/store-simulator/store-simulator.ts';
import { SHOP, graphqlClient, rawGraphql, restOrder, startSim } from '../../support/store-simulator-kit.ts';

const ORDER_1102 = JSON.parse(readFileSync(new URL('../../fixtures/refunds/partial-line.order.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
const ORDER_GID = 'gid://shopify/Order/5900000001102';
const CUSTOMER_GID = 'gid://shopify/Customer/7300000000102';
const LOCATION_GID = 'gid://shopify/CompanyLocation/6900000000001';
const OTHER_SHOP = 'otra-tienda.myshopify.com';
const WITH_CUSTOMERS = 'read_orders,write_orders,read_customers';

const CONFIRM_ORDER = `#graphql
  query ConfirmOrder($id: ID!) {
    order(id: $id) {
      id name test createdAt cancelledAt displayFinancialStatus
      totalPriceSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
      currentTotalPriceSet { shopMoney { amount currencyCode } }
      customer { id email locale ruc: metafield(namespace: "facturacion", key: "ruc") { value type } }
      purchasingEntity {
        __typename
        ... on Customer { id }
        ... on PurchasingCompany { company { id name } location { id name taxSettings { taxRegistrationId taxExempt } } }
      }
      refunds { id createdAt totalRefundedSet { shopMoney { amount } } }
    }
  }`;

let sim: StoreSimulator;
let closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  closers = [];
  sim = await startSim(closers);
});

afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

const usd = (amount: string) => ({ amount, currencyCode: 'USD' });

describe('order(id:) to confirm an order before invoicing it', () => {
  it("answers the shop's order with its buyer; another shop's token gets null", async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: WITH_CUSTOMERS });
    const other = sim.addShop(OTHER_SHOP, { scope: WITH_CUSTOMERS });
    sim.setOrder(SHOP, ORDER_1102);
    sim.setCustomerMetafield(SHOP, CUSTOMER_GID, 'facturacion', 'ruc', '8-888-8888');

    const { data } = await graphqlClient(accessToken).request(CONFIRM_ORDER, { variables: { id: ORDER_GID } });

    expect(data).toEqual({
      order: {
        id: ORDER_GID,
        name: '#1102',
        test: true,
        createdAt: '2026-11-03T19:05:00Z',
        cancelledAt: null,
        displayFinancialStatus: 'PAID',
        totalPriceSet: { shopMoney: usd('87.53'), presentmentMoney: usd('87.53') },
        currentTotalPriceSet: { shopMoney: usd('87.53') },
        customer: {
          id: CUSTOMER_GID,
          email: 'luis.gómez@example.com',
          locale: 'es',
          ruc: { value: '8-888-8888', type: 'single_line_text_field' },
        },
        purchasingEntity: { __typename: 'Customer', id: CUSTOMER_GID },
        refunds: [],
      },
    });
    const foreign = await graphqlClient(other.accessToken, OTHER_SHOP).request(CONFIRM_ORDER, { variables: { id: ORDER_GID } });
    expect(foreign.data).toEqual({ order: null });
    expect(sim.calls().map((c) => [c.operation, c.shop, c.outcome])).toEqual([
      ['order', SHOP, 'ok'],
      ['order', OTHER_SHOP, 'ok'],
    ]);
  });

  it('without read_customers the buyer fields are ACCESS_DENIED and the rest is answered', async () => {
    const { accessToken } = sim.addShop(SHOP);
    sim.setOrder(SHOP, ORDER_1102);

    const answer = await rawGraphql(sim, accessToken, CONFIRM_ORDER, { id: ORDER_GID });

    expect(answer.status).toBe(200);
    expect(answer.body['data']).toMatchObject({
      order: { id: ORDER_GID, name: '#1102', customer: null, purchasingEntity: null, refunds: [] },
    });
    const denied = (field: string, line: number) => ({
      message: `Access denied for ${field} field. Required access: \`read_customers\` access scope.`,
      locations: [{ line, column: 7 }],
      path: ['order', field],
      extensions: {
        code: 'ACCESS_DENIED',
        documentation: 'https://shopify.dev/api/usage/access-scopes',
        requiredAccess: '`read_customers` access scope.',
      },
    });
    expect(answer.body['errors']).toEqual([denied('customer', 7), denied('purchasingEntity', 8)]);
    expect(sim.calls().map((c) => c.outcome)).toEqual(['graphql_errors']);
  });

  it('a B2B order answers its company location and the tax id set for it', async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: WITH_CUSTOMERS });
    const gid = sim.setOrder(SHOP, restOrder(5_900_000_000_050, { company: { id: 6800000000001, location_id: 6900000000001 } }));
    const entity = async () =>
      (await graphqlClient(accessToken).request(CONFIRM_ORDER, { variables: { id: gid } })).data?.order?.purchasingEntity as unknown;

    expect(await entity()).toEqual({
      __typename: 'PurchasingCompany',
      company: { id: 'gid://shopify/Company/6800000000001', name: 'Company 6800000000001' },
      location: {
        id: LOCATION_GID,
        name: 'Company 6800000000001',
        taxSettings: { taxRegistrationId: null, taxExempt: false },
      },
    });
    sim.setCompanyLocationTaxId(SHOP, LOCATION_GID, '155646463-2-2017', {
      companyName: 'Importadora Ejemplo, S.A.',
      locationName: 'Sede Colón',
    });
    expect(await entity()).toEqual({
      __typename: 'PurchasingCompany',
      company: { id: 'gid://shopify/Company/6800000000001', name: 'Importadora Ejemplo, S.A.' },
      location: { id: LOCATION_GID, name: 'Sede Colón', taxSettings: { taxRegistrationId: '155646463-2-2017', taxExempt: false } },
    });
    expect(() => sim.setCompanyLocationTaxId(SHOP, 'gid://shopify/Company/6800000000001', 'x')).toThrow(
      'not a company location GID: gid://shopify/Company/6800000000001',
    );
  });
});

describe('customer(id:)', () => {
  const CUSTOMER = `#graphql
    query Buyer($id: ID!) {
      customer(id: $id) { id email firstName lastName displayName locale
        ruc: metafield(namespace: "facturacion", key: "ruc") { value type }
        dv: metafield(namespace: "facturacion", key: "dv") { value } }
    }`;

  it('answers locale (the order’s customer_locale, then what was set) and metafields; bad values are refused', async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: WITH_CUSTOMERS });
    const client = graphqlClient(accessToken);
    sim.setOrder(SHOP, ORDER_1102);
    const buyer = async () => (await client.request(CUSTOMER, { variables: { id: CUSTOMER_GID } })).data?.customer as unknown;

    expect(await buyer()).toEqual({
      id: CUSTOMER_GID,
      email: 'luis.gómez@example.com',
      firstName: 'Luis',
      lastName: 'Gómez',
      displayName: 'Luis Gómez',
      locale: 'es',
      ruc: null,
      dv: null,
    });
    sim.setCustomerLocale(SHOP, CUSTOMER_GID, 'en');
    sim.setCustomerMetafield(SHOP, CUSTOMER_GID, 'facturacion', 'ruc', '155646463-2-2017');
    sim.setCustomerMetafield(SHOP, CUSTOMER_GID, 'facturacion', 'dv', '86', 'number_integer');
    expect(await buyer()).toMatchObject({
      locale: 'en',
      ruc: { value: '155646463-2-2017', type: 'single_line_text_field' },
      dv: { value: '86' },
    });

    expect(() => sim.setCustomerMetafield(SHOP, CUSTOMER_GID, 'facturacion', 'dv', 'ochenta', 'number_integer')).toThrow(
      'facturacion.dv: Value must be an integer.',
    );
    expect(() => sim.setCustomerLocale(SHOP, CUSTOMER_GID, 'not a locale')).toThrow('not a locale: not a locale');
    expect(sim.metafields(CUSTOMER_GID, SHOP)).toEqual([
      { namespace: 'facturacion', key: 'ruc', type: 'single_line_text_field', value: '155646463-2-2017' },
      { namespace: 'facturacion', key: 'dv', type: 'number_integer', value: '86' },
    ]);
    expect((await client.request(CUSTOMER, { variables: { id: 'gid://shopify/Customer/1' } })).data).toEqual({ customer: null });
  });

  it('metafieldsSet writes on a customer with write_customers only', async () => {
    const readOnly = sim.addShop(SHOP, { scope: WITH_CUSTOMERS }).accessToken;
    const writer = sim.addShop(SHOP, { scope: 'read_orders,write_orders,write_customers' }).accessToken;
    sim.setOrder(SHOP, ORDER_1102);
    const set = `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { key value ownerType } userErrors { field message } } }`;
    const input = { m: [{ ownerId: CUSTOMER_GID, namespace: 'facturacion', key: 'ruc', type: 'single_line_text_field', value: '8-1-1' }] };

    const denied = await rawGraphql(sim, readOnly, set, input);
    expect(denied.body['data']).toEqual({ metafieldsSet: null });
    expect(denied.body['errors']).toMatchObject([
      { extensions: { code: 'ACCESS_DENIED', requiredAccess: '`write_customers` access scope.' } },
    ]);
    expect((await rawGraphql(sim, writer, set, input)).body['data']).toEqual({
      metafieldsSet: { metafields: [{ key: 'ruc', value: '8-1-1', ownerType: 'CUSTOMER' }], userErrors: [] },
    });
    expect(sim.metafields(CUSTOMER_GID, SHOP)).toEqual([
      { namespace: 'facturacion', key: 'ruc', type: 'single_line_text_field', value: '8-1-1' },
    ]);
  });
});

describe('order edits', () => {
  it('updateOrder: the REST read and GraphQL answer the edited order; its identity cannot change', async () => {
    const { accessToken } = sim.addShop(SHOP, { scope: WITH_CUSTOMERS });
    sim.setOrder(SHOP, ORDER_1102);
    sim.advanceClock(60_000);
    const newBuyer = {
      id: 7300000000999,
      admin_graphql_api_id: 'gid://shopify/Customer/7300000000999',
      email: 'ana@example.com',
      first_name: 'Ana',
    };
    const billing = { name: 'Ana Pérez', address1: 'Vía España 1', city: 'Panamá', country_code: 'PA' };

    sim.updateOrder(SHOP, ORDER_GID, {
      note_attributes: [{ name: 'RUC', value: '155646463-2-2017' }],
      customer: newBuyer,
      billing_address: billing,
    });

    const rest = await fetch(`${sim.origin}/admin/api/2026-10/orders/5900000001102.json`, {
      headers: { 'X-Shopify-Access-Token': accessToken, 'x-shopify-shop-domain': SHOP },
    });
    const { order } = (await rest.json()) as { order: Record<string, unknown> };
    expect(order).toMatchObject({
      note_attributes: [{ name: 'RUC', value: '155646463-2-2017' }],
      customer: newBuyer,
      billing_address: billing,
    });
    expect(Date.parse(String(order['updated_at'])) - Date.now()).toBeGreaterThan(55_000);
    expect(String(order['updated_at'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-05:00$/);
    expect(order['line_items']).toEqual(ORDER_1102['line_items']);
    const { data } = await graphqlClient(accessToken).request(
      `query($id: ID!) { order(id: $id) { customAttributes { key value } customer { id email } } }`,
      { variables: { id: ORDER_GID } },
    );
    expect(data).toEqual({
      order: {
        customAttributes: [{ key: 'RUC', value: '155646463-2-2017' }],
        customer: { id: 'gid://shopify/Customer/7300000000999', email: 'ana@example.com' },
      },
    });

    expect(() => sim.updateOrder(SHOP, ORDER_GID, { id: 1 })).toThrow('updateOrder cannot change id (use addRefund for refunds)');
    expect(() => sim.updateOrder(SHOP, 'gid://shopify/Order/1', { note: 'x' })).toThrow(
      'no order gid://shopify/Order/1 in demo.myshopify.com',
    );
  });
});

describe('Shopify errors for what the schema does not hold', () => {
  it('every operation the app sends is within the simulated schema', () => {
    for (const operation of [METAFIELDS_SET_MUTATION, RECONCILE_ORDERS_QUERY, ORDER_TRANSACTIONS_QUERY, CONFIRM_ORDER, SHOP_NAME_QUERY]) {
      expect(validate(adminSchema, parse(operation))).toEqual([]);
    }
  });

  it('an unknown field is refused at validation with Shopify’s wording, and nothing runs', async () => {
    const { accessToken } = sim.addShop(SHOP);
    sim.setOrder(SHOP, ORDER_1102);
    const query = `query { order(id: "${ORDER_GID}") { id fiscalNumber } }`;

    const raw = await rawGraphql(sim, accessToken, query);

    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({
      errors: [
        {
          message: "Field 'fiscalNumber' doesn't exist on type 'Order'",
          locations: [{ line: 1, column: 61 }],
          extensions: { code: 'undefinedField', typeName: 'Order', fieldName: 'fiscalNumber' },
        },
      ],
    });
    const thrown = await graphqlClient(accessToken)
      .request(query)
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(GraphqlQueryError);
    expect(sim.calls().map((c) => [c.operation, c.outcome])).toEqual([
      ['order', 'graphql_errors'],
      ['order', 'graphql_errors'],
    ]);
  });

  it('aliases, fragments and variables work; a wrongly typed variable and a syntax error are GraphQL errors', async () => {
    const { accessToken } = sim.addShop(SHOP);
    sim.setOrder(SHOP, ORDER_1102);
    const two = `query($a: ID!, $b: ID!) { first: order(id: $a) { ...O } second: order(id: $b) { ...O } }
      fragment O on Order { id total: totalPriceSet { shopMoney { amount } } }`;

    const answer = await rawGraphql(sim, accessToken, two, { a: ORDER_GID, b: 'gid://shopify/Order/404' });
    expect(answer.body['data']).toEqual({ first: { id: ORDER_GID, total: { shopMoney: { amount: '87.53' } } }, second: null });

    const badVariable = await rawGraphql(sim, accessToken, two, { a: ORDER_GID });
    expect(badVariable.body['errors']).toMatchObject([{ message: expect.stringContaining('"$b"') }]);
    expect(badVariable.body['data']).toBeUndefined();
    const broken = await rawGraphql(sim, accessToken, 'query { order(id: "x") { id }');
    expect(broken.status).toBe(200);
    expect(broken.body['errors']).toMatchObject([{ message: expect.stringContaining('Syntax Error') }]);
    expect(sim.calls().map((c) => [c.operation, c.outcome])).toEqual([
      ['order', 'ok'],
      ['order', 'graphql_errors'],
      ['unknown', 'graphql_errors'],
    ]);
  });
});
