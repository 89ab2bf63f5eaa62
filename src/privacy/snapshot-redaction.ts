// Pure redaction of a customer's personal data (customers/redact). The order snapshot keeps what the
// invoice needs to be made again (amounts, lines, taxes, payment gateways, ids) and loses who bought:
// names, e-mail addresses, phone numbers, postal addresses, notes, browser details.
// An authorized invoice's own document is not touched here: it is the fiscal record the law makes us keep.
import type { ClientBlock, GatewayDocument } from '../../mappers/gateway/gateway-document.ts';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Order keys that hold personal data or link to the buyer's session, set to null. */
const ORDER_PERSONAL_KEYS = [
  'email',
  'contact_email',
  'phone',
  'note',
  'browser_ip',
  'client_details',
  'billing_address',
  'shipping_address',
  'customer_locale',
  'landing_site',
  'landing_site_ref',
  'referring_site',
  'order_status_url',
  'token',
  'cart_token',
  'checkout_token',
] as const;

/** Keys that are personal wherever they appear (fulfillment destinations, refund notes, shipping phones…). */
const PERSONAL_ANYWHERE = new Set([
  'email',
  'contact_email',
  'phone',
  'first_name',
  'last_name',
  'address1',
  'address2',
  'zip',
  'latitude',
  'longitude',
  'destination',
  'destination_location',
]);

/** The order snapshot without the buyer's personal data. Returns a new object; the input is not changed. */
export function redactOrderSnapshot(order: Json): Json {
  const copy = scrub(structuredClone(order)) as Json;
  for (const key of ORDER_PERSONAL_KEYS) if (key in copy) copy[key] = null;
  // Checkout attributes carry whatever the shop asked at checkout (tax id, gift messages): all go.
  if ('note_attributes' in copy) copy['note_attributes'] = [];
  if (isRecord(copy['customer'])) copy['customer'] = keepIds(copy['customer']);
  if (Array.isArray(copy['line_items'])) {
    // Line properties hold personalisation (engraved names, messages): the invoice never uses them.
    copy['line_items'] = copy['line_items'].map((line) => (isRecord(line) && 'properties' in line ? { ...line, properties: [] } : line));
  }
  return copy;
}

function keepIds(customer: Json): Json {
  const kept: Json = {};
  for (const key of ['id', 'admin_graphql_api_id']) if (key in customer) kept[key] = customer[key];
  return kept;
}

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (!isRecord(value)) return value;
  for (const [key, v] of Object.entries(value)) value[key] = PERSONAL_ANYWHERE.has(key) && v !== null ? null : scrub(v);
  return value;
}

/** The invoice client block fields that identify a person (the rest is tax classification and place codes). */
const CLIENT_PERSONAL_FIELDS = [
  'numberRUC',
  'digitCheckRUC',
  'businessName',
  'address',
  'telephone1',
  'email1',
] as const satisfies readonly (keyof ClientBlock)[];

/**
 * A document that was never authorized is no fiscal record: its client block loses the person's data.
 * (The worker maps the order again before any new attempt, so nothing it needs is lost.)
 */
export function redactDocumentClient(document: GatewayDocument): GatewayDocument {
  const client: Json = { ...document.dataTransaction.client };
  for (const field of CLIENT_PERSONAL_FIELDS) delete client[field];
  return { ...document, dataTransaction: { ...document.dataTransaction, client: client as ClientBlock } };
}

/** The same for a stored gateway request body (SendDocument), whatever its exact shape. */
export function redactRequestClient(request: unknown): unknown {
  if (!isRecord(request) || !isRecord(request['document'])) return request;
  const document = request['document'];
  const data = document['dataTransaction'];
  if (!isRecord(data) || !isRecord(data['client'])) return request;
  const client: Json = { ...data['client'] };
  for (const field of CLIENT_PERSONAL_FIELDS) delete client[field];
  return { ...request, document: { ...document, dataTransaction: { ...data, client } } };
}
