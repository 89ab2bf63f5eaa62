// The invoice's client (`dataTransaction.client`): a registered taxpayer (01) when the order carries a
// RUC with a valid check digit, otherwise a final consumer (02). docs/reference/panama-fe.md §3.6–§3.8.
import type { ClientCorrection } from './client-correction.ts';
import type { ClientBlock } from '../gateway/gateway-document.ts';
import type { MappingSettings } from './mapping-settings.ts';
import { type MappingProblem, problems } from '../mapping-problems.ts';
import { type PanamaLocation, findLocation, findLocationByCode } from '../fiscal/panama-locations.ts';
import { isValidRucCheckDigit, normalizeRuc, parseRuc } from '../fiscal/ruc-check-digit.ts';
import type { ShopifyAddress, ShopifyOrder } from '../shopify/shopify-order.ts';

const MAX_NAME = 100;
const MAX_ADDRESS = 100;
const MAX_EMAIL = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where a taxpayer client's RUC came from (docs/design.md §10), first found wins. */
export const TAX_ID_SOURCES = ['correction', 'b2b_company', 'customer_metafield', 'cart_attributes'] as const;
export type TaxIdSource = (typeof TAX_ID_SOURCES)[number];

/** What the pipeline learnt about the buyer beyond the order body. */
export interface BuyerFacts {
  /** The merchant's correction of the client block: it wins over everything the order says. */
  correction?: ClientCorrection;
  /** B2B: the company location's tax registration id and the company's name (Admin API). */
  company?: { taxId?: string; name?: string };
  /** The customer metafield the shop's settings name, as read through the Admin API. */
  customerTaxId?: { value: string; path: string };
}

export type ClientResult =
  { ok: true; client: ClientBlock; taxIdSource: TaxIdSource | undefined } | { ok: false; problems: MappingProblem[] };

export function buildClient(order: ShopifyOrder, settings: MappingSettings, buyer: BuyerFacts = {}): ClientResult {
  if (buyer.correction) return correctedClient(order, buyer.correction);
  const names = settings.checkoutAttributes;
  const location = clientLocation(order, settings);
  const contact = contactFields(order);

  const found = taxIdOf(order, settings, buyer);
  if (found === undefined) {
    const businessName = clip(buyerName(order), MAX_NAME);
    return {
      ok: true,
      client: {
        typeClientEB: '02',
        ...(businessName === undefined ? {} : { businessName }),
        ...locationFields(location),
        ...contact,
        country: 'PA',
      },
      taxIdSource: undefined,
    };
  }

  const { text: rucText, path: rucPath, source } = found;
  const split = splitRucAndDv(rucText);
  const ruc = normalizeRuc(split.ruc);
  if (ruc === undefined) return fail(problems.rucUnreadable(rucText, rucPath));
  // A separate DV attribute goes with the RUC attribute; the other sources carry the DV in the same text.
  const dvAttribute = source === 'cart_attributes' ? attribute(order, names.dv) : undefined;
  const dvText = dvAttribute ?? split.dv;
  const dvPath = dvAttribute === undefined ? rucPath : `note_attributes.${names.dv}`;
  if (dvText === undefined) return fail(problems.rucCheckDigitMissing(ruc, rucPath));
  const dv = normalizeDv(dvText);
  if (!isValidRucCheckDigit(ruc, dv)) return fail(problems.rucCheckDigitInvalid(ruc, dvText, dvPath));

  const missing: MappingProblem[] = [];
  const businessName = clip(
    (source === 'b2b_company' ? (buyer.company?.name ?? order.company?.name) : undefined) ??
      attribute(order, names.businessName) ??
      order.company?.name ??
      order.billingAddress?.company ??
      (taxpayerType(ruc) === '1' ? buyerName(order) : undefined),
    MAX_NAME,
  );
  if (businessName === undefined) missing.push(problems.taxpayerNameMissing(ruc));
  const address = clip(
    attribute(order, names.address) ?? formatAddress(order.billingAddress) ?? formatAddress(order.shippingAddress),
    MAX_ADDRESS,
  );
  if (address === undefined || [...address].length < 5) missing.push(problems.taxpayerAddressMissing(ruc));
  if (missing.length > 0) return { ok: false, problems: missing };

  return {
    ok: true,
    client: {
      typeClientEB: '01',
      typeTaxpayer: taxpayerType(ruc),
      numberRUC: ruc,
      digitCheckRUC: dv,
      businessName: businessName!,
      address: address!,
      ...locationFields(location),
      ...contact,
      country: 'PA',
    },
    taxIdSource: source,
  };
}

/** The buyer's tax id in docs/design.md §10's order: the B2B company location, a customer metafield, the cart attributes. */
export function taxIdOf(
  order: ShopifyOrder,
  settings: MappingSettings,
  buyer: BuyerFacts,
): { text: string; path: string; source: TaxIdSource } | undefined {
  const company = buyer.company?.taxId ?? order.company?.taxRegistrationId;
  if (company !== undefined && company.trim() !== '') return { text: company, path: 'company.tax_registration_id', source: 'b2b_company' };
  const metafield = buyer.customerTaxId;
  if (metafield !== undefined && metafield.value.trim() !== '')
    return { text: metafield.value, path: metafield.path, source: 'customer_metafield' };
  const fromCart = attribute(order, settings.checkoutAttributes.ruc);
  if (fromCart !== undefined)
    return { text: fromCart, path: `note_attributes.${settings.checkoutAttributes.ruc}`, source: 'cart_attributes' };
  return undefined;
}

/** The merchant's correction, over the order's contact details. It was validated when saved. */
function correctedClient(order: ShopifyOrder, c: ClientCorrection): ClientResult {
  const contact = contactFields(order);
  const email = c.email === undefined ? contact : { ...contact, email1: c.email };
  const location = c.locationCode === undefined ? undefined : findLocationByCode(c.locationCode);
  if (c.type === 'final_consumer') {
    const businessName = clip(c.name ?? buyerName(order), MAX_NAME);
    return {
      ok: true,
      client: {
        typeClientEB: '02',
        ...(businessName === undefined ? {} : { businessName }),
        ...(c.address === undefined ? {} : { address: c.address }),
        ...locationFields(location),
        ...email,
        country: 'PA',
      },
      taxIdSource: undefined,
    };
  }
  return {
    ok: true,
    client: {
      typeClientEB: '01',
      typeTaxpayer: taxpayerType(c.ruc),
      numberRUC: c.ruc,
      digitCheckRUC: c.dv,
      businessName: c.name,
      address: c.address,
      ...locationFields(location),
      ...email,
      country: 'PA',
    },
    taxIdSource: 'correction',
  };
}

function fail(problem: MappingProblem): ClientResult {
  return { ok: false, problems: [problem] };
}

/** A checkout attribute's value by name, compared without regard to case or surrounding spaces. */
export function attribute(order: ShopifyOrder, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  const found = order.noteAttributes.find((a) => a.name.trim().toLowerCase() === wanted);
  const value = found?.value.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * A RUC typed with its check digit in one field: "155596713-2-2015 DV 59", "155596713-2-2015 DV:59",
 * "8-442-445-08" or "8-442-445 08". The trailing two digits count as the DV only when what precedes
 * them is a RUC by itself.
 */
export function splitRucAndDv(text: string): { ruc: string; dv?: string } {
  const trimmed = text.trim();
  const marked = /^(.*?)[\s,;-]*\bD\.?\s*V\.?\s*[:#-]?\s*(\d{1,2})$/i.exec(trimmed);
  if (marked) return { ruc: marked[1]!.trim(), dv: marked[2]! };
  const trailing = /^(.*?)[\s-]+(\d{2})$/.exec(trimmed);
  if (trailing && parseRuc(trailing[1]!) !== undefined) return { ruc: trailing[1]!.trim(), dv: trailing[2]! };
  return { ruc: trimmed };
}

/** "8" → "08": buyers drop the leading zero of a DV. */
function normalizeDv(text: string): string {
  const digits = text.replace(/\s+/g, '');
  return /^\d$/.test(digits) ? `0${digits}` : digits;
}

/** 1 natural person (cédula forms), 2 juridical person; an NT number with a 7-digit asiento is juridical. */
export function taxpayerType(ruc: string): '1' | '2' {
  const form = parseRuc(ruc);
  if (form?.kind === 'juridica') return '2';
  if (form?.kind === 'nt' && form.asiento.length === 7) return '2';
  return '1';
}

export function buyerName(order: ShopifyOrder): string | undefined {
  const candidates = [
    addressName(order.billingAddress),
    joinName(order.customer?.firstName, order.customer?.lastName),
    addressName(order.shippingAddress),
  ];
  return candidates.find((n) => n !== undefined && [...n].length >= 2);
}

function addressName(a: ShopifyAddress | undefined): string | undefined {
  return a?.name ?? joinName(a?.firstName, a?.lastName);
}

function joinName(first: string | undefined, last: string | undefined): string | undefined {
  const name = [first, last]
    .filter((p) => p !== undefined)
    .join(' ')
    .trim();
  return name === '' ? undefined : name;
}

export function formatAddress(a: ShopifyAddress | undefined): string | undefined {
  if (a === undefined) return undefined;
  const text = [a.address1, a.address2, a.city]
    .filter((p) => p !== undefined)
    .join(', ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

function clip(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return undefined;
  const chars = [...clean];
  return chars.length <= max ? clean : chars.slice(0, max).join('').trim();
}

function contactFields(order: ShopifyOrder): Pick<ClientBlock, 'telephone1' | 'email1'> {
  const out: Pick<ClientBlock, 'telephone1' | 'email1'> = {};
  const phone = panamaPhone(order.billingAddress?.phone ?? order.phone ?? order.customer?.phone);
  if (phone !== undefined) out.telephone1 = phone;
  const email = order.email;
  if (email !== undefined && email.length <= MAX_EMAIL && EMAIL.test(email)) out.email1 = email;
  return out;
}

/** A Panamanian number as the DGI writes it (NNN-NNNN or NNNN-NNNN); anything else is not sent. */
export function panamaPhone(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  let digits = trimmed.replace(/\D/g, '');
  const international = trimmed.startsWith('+') || trimmed.startsWith('00');
  if (trimmed.startsWith('00')) digits = digits.slice(2);
  if (international) {
    if (!digits.startsWith('507')) return undefined;
    digits = digits.slice(3);
  }
  if (digits.length === 7) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  if (digits.length === 8) return `${digits.slice(0, 4)}-${digits.slice(4)}`;
  return undefined;
}

/**
 * The client's location: the code the buyer chose (checkout attribute), else the one catalogue entry
 * matching the billing (then shipping) address, else the shop's default.
 */
export function clientLocation(order: ShopifyOrder, settings: MappingSettings): PanamaLocation | undefined {
  const chosen = attribute(order, settings.checkoutAttributes.locationCode);
  const byCode = chosen === undefined ? undefined : findLocationByCode(chosen);
  if (byCode !== undefined) return byCode;
  for (const address of [order.billingAddress, order.shippingAddress]) {
    const match = locationOfAddress(address);
    if (match !== undefined) return match;
  }
  return findLocationByCode(settings.defaultLocationCode);
}

function locationOfAddress(a: ShopifyAddress | undefined): PanamaLocation | undefined {
  if (a === undefined || (a.countryCode !== undefined && a.countryCode !== 'PA')) return undefined;
  for (const place of [a.address2, a.city]) {
    if (place === undefined) continue;
    const found = corregimientoNamed(a.province, place);
    if (found !== undefined) return found;
  }
  return undefined;
}

// The catalogue search scans every entry; the same few addresses come back order after order.
const PLACE_CACHE_LIMIT = 2000;
const placeCache = new Map<string, PanamaLocation | null>();

/** The one corregimiento of that name (in that province, when given), cached. */
function corregimientoNamed(province: string | undefined, place: string): PanamaLocation | undefined {
  const key = `${province ?? ''}\u0000${place}`;
  const cached = placeCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const found = findLocation({ province, corregimiento: place });
  if (placeCache.size >= PLACE_CACHE_LIMIT) placeCache.clear();
  placeCache.set(key, found ?? null);
  return found;
}

function locationFields(l: PanamaLocation | undefined): Pick<ClientBlock, 'codeLocation' | 'province' | 'district' | 'correction'> {
  if (l === undefined) return {};
  return { codeLocation: l.code, province: l.province, district: l.district, correction: l.corregimiento };
}
