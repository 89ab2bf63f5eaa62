// Metafields as Shopify keeps them: per owner (order or customer), keyed by namespace and key, typed and
// validated. `planMetafieldsSet` judges a metafieldsSet call with Shopify's userErrors and writes nothing;
// `writeMetafield` stores one value.

import { createHash } from 'node:crypto';
import type { StoredMetafield } from './types.ts';

export interface MetafieldRecord extends StoredMetafield {
  id: string;
  createdAt: string;
  updatedAt: string;
}

/** ownerGid → "namespace\0key" → metafield. */
export type MetafieldStore = Map<string, Map<string, MetafieldRecord>>;

export interface MetafieldsSetInput {
  ownerId: string;
  namespace?: string | null;
  key: string;
  value: string;
  type?: string | null;
  compareDigest?: string | null;
}

export interface MetafieldsSetUserError {
  field: string[];
  message: string;
  code: string;
}

export interface PlannedWrite {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

const METAFIELD_KEY = /^[A-Za-z0-9_-]+$/;
const MAX_METAFIELDS_PER_CALL = 25;

const LISTABLE = new Set([
  'color',
  'date',
  'date_time',
  'dimension',
  'id',
  'link',
  'number_decimal',
  'number_integer',
  'rating',
  'single_line_text_field',
  'url',
  'volume',
  'weight',
  'collection_reference',
  'customer_reference',
  'file_reference',
  'metaobject_reference',
  'mixed_reference',
  'page_reference',
  'product_reference',
  'variant_reference',
  'company_reference',
]);
const KNOWN_METAFIELD_TYPES = new Set([...LISTABLE, 'boolean', 'json', 'money', 'multi_line_text_field', 'rich_text_field']);

export function isKnownMetafieldType(type: string): boolean {
  if (type.startsWith('list.')) return LISTABLE.has(type.slice(5));
  return KNOWN_METAFIELD_TYPES.has(type);
}

/** Why `value` is not a valid value of metafield `type`, or undefined when it is. */
export function valueProblem(type: string, value: string): string | undefined {
  if (type.startsWith('list.')) return parsesAs(value, Array.isArray) ? undefined : 'Value must be a JSON array.';
  switch (type) {
    case 'single_line_text_field':
      if (/[\r\n]/.test(value)) return 'Value must be a single line text string.';
      return Buffer.byteLength(value) > 65_535 ? 'Value is too long (maximum is 65535 bytes).' : undefined;
    case 'url': {
      if (value.length > 2048) return 'Value is too long (maximum is 2048 characters).';
      if (!URL.canParse(value)) return 'Value must be a valid URL.';
      // The app only ever writes web links.
      const { protocol } = new URL(value);
      return protocol === 'http:' || protocol === 'https:' ? undefined : 'Value must use one of the allowed schemes: http, https.';
    }
    case 'json':
      return parsesAs(value, () => true) ? undefined : 'Value must be valid JSON.';
    case 'number_integer':
      return /^-?\d+$/.test(value) ? undefined : 'Value must be an integer.';
    case 'number_decimal':
      return /^-?\d+(\.\d+)?$/.test(value) ? undefined : 'Value must be a decimal number.';
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'Value must be true or false.';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? undefined : 'Value must be a date (YYYY-MM-DD).';
    case 'date_time':
      return Number.isNaN(Date.parse(value)) ? 'Value must be an ISO 8601 date and time.' : undefined;
    default:
      return undefined;
  }
}

function parsesAs(value: string, accept: (parsed: unknown) => boolean): boolean {
  try {
    return accept(JSON.parse(value));
  } catch {
    return false;
  }
}

export function metafieldDigest(mf: StoredMetafield): string {
  return createHash('sha256').update(`${mf.type}\0${mf.value}`).digest('base64url');
}

export interface MetafieldRules {
  /** `$app`/`$app:sub`/undefined → the stored namespace. */
  resolveNamespace(namespace: string | undefined): string;
  /** The declared type of a stored namespace and key, if any. */
  definedType(namespace: string, key: string): string | undefined;
  ownerExists(ownerId: string): boolean;
}

/** Shopify's checks of a metafieldsSet call, in its order; nothing is written when any input fails. */
export function planMetafieldsSet(
  inputs: readonly MetafieldsSetInput[],
  store: MetafieldStore,
  rules: MetafieldRules,
): { ok: true; writes: PlannedWrite[] } | { ok: false; userErrors: MetafieldsSetUserError[] } {
  const userErrors: MetafieldsSetUserError[] = [];
  if (inputs.length > MAX_METAFIELDS_PER_CALL) {
    userErrors.push({
      field: ['metafields'],
      message: `Exceeded the maximum metafields input limit of ${MAX_METAFIELDS_PER_CALL}.`,
      code: 'LESS_THAN_OR_EQUAL_TO',
    });
  }
  const writes: PlannedWrite[] = [];
  inputs.forEach((input, i) => {
    const err = (field: string, message: string, code: string): void => {
      userErrors.push({ field: ['metafields', String(i), field], message, code });
    };
    const before = userErrors.length;
    const { ownerId, key, value } = input;
    if (!rules.ownerExists(ownerId)) err('ownerId', 'Owner does not exist.', 'INVALID');
    if (key.length < 2) err('key', 'Key is too short (minimum is 2 characters)', 'TOO_SHORT');
    else if (key.length > 64) err('key', 'Key is too long (maximum is 64 characters)', 'TOO_LONG');
    else if (!METAFIELD_KEY.test(key)) {
      err(
        'key',
        'Key contains one or more invalid characters. Only alphanumeric characters, underscores, and dashes are allowed.',
        'INVALID',
      );
    }
    const raw = input.namespace ?? undefined;
    if (raw !== undefined && !raw.startsWith('$app')) {
      if (raw.length < 3) err('namespace', 'Namespace is too short (minimum is 3 characters)', 'TOO_SHORT');
      else if (raw.length > 255) err('namespace', 'Namespace is too long (maximum is 255 characters)', 'TOO_LONG');
    }
    const namespace = rules.resolveNamespace(raw);
    const defined = rules.definedType(namespace, key);
    const type = input.type ?? defined;
    if (value === '') err('value', "Value can't be blank.", 'BLANK');
    else if (type === undefined) err('type', "Type can't be blank.", 'BLANK');
    else if (!isKnownMetafieldType(type)) err('type', `Type '${type}' is not a valid metafield type.`, 'INVALID_TYPE');
    else if (defined !== undefined && defined !== type) {
      err('type', `Type '${type}' does not match the definition's type '${defined}'.`, 'INVALID_TYPE');
    } else {
      const problem = valueProblem(type, value);
      if (problem) err('value', problem, 'INVALID_VALUE');
    }
    if (input.compareDigest !== undefined && userErrors.length === before && type !== undefined) {
      const existing = store.get(ownerId)?.get(`${namespace}\0${key}`);
      if (input.compareDigest !== (existing ? metafieldDigest(existing) : null)) {
        err(
          'compareDigest',
          'The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.',
          'INVALID_COMPARE_DIGEST',
        );
      }
    }
    if (userErrors.length === before && type !== undefined) writes.push({ ownerId, namespace, key, type, value });
  });
  return userErrors.length > 0 ? { ok: false, userErrors } : { ok: true, writes };
}

/** Store one metafield (upsert on owner, namespace and key); the id and createdAt of an update are kept. */
export function writeMetafield(store: MetafieldStore, write: PlannedWrite, id: () => string, stamp: string): MetafieldRecord {
  let byKey = store.get(write.ownerId);
  if (!byKey) store.set(write.ownerId, (byKey = new Map()));
  const existing = byKey.get(`${write.namespace}\0${write.key}`);
  const record: MetafieldRecord = existing
    ? { ...existing, type: write.type, value: write.value, updatedAt: stamp }
    : { id: id(), namespace: write.namespace, key: write.key, type: write.type, value: write.value, createdAt: stamp, updatedAt: stamp };
  byKey.set(`${write.namespace}\0${write.key}`, record);
  return record;
}
