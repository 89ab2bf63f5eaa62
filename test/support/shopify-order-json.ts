// The JSON parts of a Shopify order the builder repeats: discount applications, tax lines, addresses.
import { formatCents } from '../../mappers/fiscal/money.ts';
import type { AddressSpec, Discount } from './shopify-order-builder.ts';

type Json = Record<string, unknown>;

export function application(d: Discount, targetType: string, allocation: string, selection: string): Json {
  const base: Json = {
    target_type: targetType,
    type: d.code !== undefined ? 'discount_code' : 'automatic',
    value: d.kind === 'fixed' ? formatCents(d.amount) : d.percent,
    value_type: d.kind === 'fixed' ? 'fixed_amount' : 'percentage',
    allocation_method: allocation,
    target_selection: selection,
  };
  return d.code !== undefined ? { ...base, code: d.code } : { ...base, title: d.title ?? 'Descuento', description: d.title ?? 'Descuento' };
}

export function taxLine(title: string, rate: string, amount: number, money: (c: number) => unknown): Json {
  return { channel_liable: false, price: formatCents(amount), price_set: money(amount), rate: Number(rate), title };
}

export function defaultAddress(customer: { firstName: string; lastName: string } | null): AddressSpec | null {
  if (customer === null) return null;
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    address1: 'Calle 50, Edificio Ejemplo, Piso 3',
    city: 'Ciudad de Panamá',
    phone: '+507 6000-0000',
  };
}

export function address(a: AddressSpec): Json {
  return {
    first_name: a.firstName,
    address1: a.address1,
    phone: a.phone ?? null,
    city: a.city,
    zip: null,
    province: a.province ?? null,
    country: (a.countryCode ?? 'PA') === 'PA' ? 'Panama' : a.countryCode,
    last_name: a.lastName,
    address2: a.address2 ?? null,
    company: a.company ?? null,
    latitude: null,
    longitude: null,
    name: `${a.firstName} ${a.lastName}`,
    country_code: a.countryCode ?? 'PA',
    province_code: null,
  };
}

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
