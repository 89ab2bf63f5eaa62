// Two buyers with their data everywhere Shopify puts it in an order, for the privacy topics' tests.
import { makePaidOrder } from './order-factory.ts';

export interface Buyer {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  street: string;
}
export const ANA: Buyer = {
  id: 501,
  email: 'ana.perez@example.com',
  firstName: 'Ana',
  lastName: 'Pérez',
  phone: '+507 6000-1111',
  street: 'Calle 50 #12',
};
export const LUIS: Buyer = {
  id: 601,
  email: 'luis.gomez@example.com',
  firstName: 'Luis',
  lastName: 'Gómez',
  phone: '+507 6000-2222',
  street: 'Vía España 8',
};

/** A paid order with the buyer's data everywhere Shopify puts it. */
export function orderOf(id: number, buyer: Buyer): Record<string, unknown> {
  const order = makePaidOrder({ id, email: buyer.email });
  const address = {
    first_name: buyer.firstName,
    last_name: buyer.lastName,
    name: `${buyer.firstName} ${buyer.lastName}`,
    address1: buyer.street,
    address2: 'Apto 3',
    city: 'Panamá',
    province: 'Panamá',
    country: 'Panama',
    country_code: 'PA',
    zip: '0801',
    phone: buyer.phone,
    latitude: 8.98,
    longitude: -79.52,
  };
  const lines = order['line_items'] as Record<string, unknown>[];
  lines[0]!['properties'] = [{ name: 'Grabado', value: `Para ${buyer.firstName}` }];
  return {
    ...order,
    phone: buyer.phone,
    note: `Llamar a ${buyer.firstName} antes de entregar`,
    note_attributes: [{ name: 'mensaje', value: `Feliz cumpleaños ${buyer.firstName}` }],
    browser_ip: '190.140.1.23',
    client_details: { browser_ip: '190.140.1.23', user_agent: 'Mozilla/5.0' },
    customer: {
      id: buyer.id,
      admin_graphql_api_id: `gid://shopify/Customer/${buyer.id}`,
      email: buyer.email,
      first_name: buyer.firstName,
      last_name: buyer.lastName,
      phone: buyer.phone,
      default_address: address,
    },
    billing_address: address,
    shipping_address: address,
  };
}

export const gidOf = (id: number) => `gid://shopify/Order/${id}`;
