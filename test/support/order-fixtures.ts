// The order fixtures under test/fixtures/orders/: read, parsed and mapped the way the pipeline does.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import {
  type MappingSettings,
  type MappingSettingsInput,
  defaultMappingSettings,
  mappingSettingsSchema,
} from '../../mappers/invoice/mapping-settings.ts';
import { brokenInvariants } from './document-invariants.ts';
import { type Numbering, numberDocument } from '../../mappers/invoice/document-numbering.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import type { MappingProblem } from '../../mappers/mapping-problems.ts';
import {
  type OrderToDraftInput,
  type OrderTransaction,
  orderToDraft,
  parseOrderTransactions,
} from '../../mappers/invoice/order-to-document.ts';
import { type ShopifyOrder, parseShopifyOrder } from '../../mappers/shopify/shopify-order.ts';

export const ORDER_FIXTURES_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'orders');

/** Fixture names (file name without `.json`), transactions files excluded. */
export function orderFixtureNames(): string[] {
  return readdirSync(ORDER_FIXTURES_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.transactions.json') && !f.endsWith('.document.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

export function orderFixturePath(name: string): string {
  return path.join(ORDER_FIXTURES_DIR, `${name}.json`);
}

export function readOrderFixture(name: string): unknown {
  return JSON.parse(readFileSync(orderFixturePath(name), 'utf8'));
}

export function loadOrder(name: string): ShopifyOrder {
  const parsed = parseShopifyOrder(readOrderFixture(name));
  if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.problems)}`);
  return parsed.order;
}

/** The fixture's `<name>.transactions.json` (GraphQL nodes), when there is one. */
export function loadTransactions(name: string): OrderTransaction[] | undefined {
  const file = path.join(ORDER_FIXTURES_DIR, `${name}.transactions.json`);
  if (!existsSync(file)) return undefined;
  const parsed = parseOrderTransactions(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.problems)}`);
  return parsed.transactions;
}

export const FIXTURE_NOW = new Date('2026-11-20T15:30:00Z');

export function mapFixture(name: string, options: { settings?: MappingSettings; fiscalNumber?: number; now?: Date } = {}): DocumentResult {
  const transactions = loadTransactions(name);
  return documentFor({
    order: loadOrder(name),
    settings: options.settings ?? defaultMappingSettings,
    ...(transactions === undefined ? {} : { transactions }),
    numbering: { branchCode: '0000', billingPoint: '001', fiscalNumber: options.fiscalNumber ?? 1 },
    now: options.now ?? FIXTURE_NOW,
  });
}

export type DocumentResult = { ok: true; document: GatewayDocument } | { ok: false; problems: MappingProblem[] };

/** The mapper's draft with its number applied, as the pipeline sends it. */
export function documentFor(input: OrderToDraftInput & { numbering: Numbering; now: Date }): DocumentResult {
  const mapped = orderToDraft(input);
  return mapped.ok ? { ok: true, document: numberDocument(mapped.draft, input.numbering, input.now) } : mapped;
}
export function mapped(name: string, settings: MappingSettingsInput = {}): GatewayDocument {
  const result = mapFixture(name, { settings: mappingSettingsSchema.parse(settings) });
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.problems, null, 2)}`);
  expect(brokenInvariants(result.document)).toEqual([]);
  return result.document;
}
