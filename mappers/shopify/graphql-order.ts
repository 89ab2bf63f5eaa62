// An order as Admin GraphQL answers it (src/shopify/order-queries.ts ORDER_FOR_INVOICE_QUERY) turned into the body of
// an `orders/paid` webhook, Shopify's REST order: the shape every reader of an order takes (parseShopifyOrder,
// orderIdentity, the buyer's e-mail, privacy), so an order read again through the Admin API becomes the same typed
// order the webhook gives. Only what those readers use is carried over. Pure; never throws.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The numeric id of a GID ("gid://shopify/Order/123" → 123) as REST writes it; as text when a number would round. */
export function gidDigits(gid: unknown): number | string | undefined {
  const digits = typeof gid === 'string' ? /^gid:\/\/shopify\/[A-Za-z]+\/(\d+)$/.exec(gid)?.[1] : undefined;
  if (digits === undefined) return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits;
}

/** A MoneyBag `{shopMoney: {amount, currencyCode}, presentmentMoney}` as REST's `{shop_money, presentment_money}`. */
function moneySet(bag: unknown): Json | undefined {
  if (!isObject(bag) || !isObject(bag.shopMoney)) return undefined;
  const money = (m: Json) => ({ amount: text(m.amount), currency_code: text(m.currencyCode) });
  const shop = money(bag.shopMoney);
  return { shop_money: shop, presentment_money: isObject(bag.presentmentMoney) ? money(bag.presentmentMoney) : shop };
}

const shopAmount = (bag: unknown): string | undefined =>
  isObject(bag) && isObject(bag.shopMoney) ? text(bag.shopMoney.amount) : undefined;

/** `nodes` of a connection (or a plain list). */
function nodes(connection: unknown): Json[] {
  return Array.isArray(connection) ? asList(connection) : isObject(connection) ? asList(connection.nodes) : [];
}

function taxLines(value: unknown): Json[] {
  return asList(value).map((t) => ({ title: text(t.title), rate: t.rate, price_set: moneySet(t.priceSet) }));
}

function discountAllocations(value: unknown): Json[] {
  return asList(value).map((d) => ({
    amount_set: moneySet(d.allocatedAmountSet),
    ...(isObject(d.discountApplication) && typeof d.discountApplication.index === 'number'
      ? { discount_application_index: d.discountApplication.index }
      : {}),
  }));
}

function lineItem(l: Json): Json {
  const variant = isObject(l.variant) ? l.variant : undefined;
  const product = isObject(l.product) ? l.product : undefined;
  return {
    admin_graphql_api_id: text(l.id),
    id: gidDigits(l.id),
    name: text(l.name),
    title: text(l.title),
    variant_title: text(l.variantTitle),
    sku: text(l.sku),
    barcode: text(variant?.barcode),
    variant_id: gidDigits(variant?.id),
    product_id: gidDigits(product?.id),
    price_set: moneySet(l.originalUnitPriceSet),
    quantity: l.quantity,
    current_quantity: l.currentQuantity,
    taxable: l.taxable,
    gift_card: l.isGiftCard,
    tax_lines: taxLines(l.taxLines),
    discount_allocations: discountAllocations(l.discountAllocations),
  };
}

function shippingLine(s: Json): Json {
  return {
    title: text(s.title),
    code: text(s.code),
    price_set: moneySet(s.originalPriceSet),
    is_removed: s.isRemoved === true,
    tax_lines: taxLines(s.taxLines),
    discount_allocations: discountAllocations(s.discountAllocations),
  };
}

function address(a: unknown): Json | null {
  if (!isObject(a)) return null;
  return {
    name: text(a.name),
    first_name: text(a.firstName),
    last_name: text(a.lastName),
    company: text(a.company),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    province: text(a.province),
    province_code: text(a.provinceCode),
    country_code: text(a.countryCodeV2),
    zip: text(a.zip),
    phone: text(a.phone),
  };
}

function customer(c: unknown): Json | null {
  if (!isObject(c)) return null;
  return {
    admin_graphql_api_id: text(c.id),
    id: gidDigits(c.id),
    first_name: text(c.firstName),
    last_name: text(c.lastName),
    email: text(c.email),
    phone: text(c.phone),
    locale: text(c.locale),
  };
}

/** A B2B order's purchasing company as the webhook's `company: {id, location_id}` (with the name GraphQL adds). */
function company(entity: unknown): Json | null {
  if (!isObject(entity) || entity.__typename !== 'PurchasingCompany') return null;
  const c = isObject(entity.company) ? entity.company : {};
  const location = isObject(entity.location) ? entity.location : {};
  return { id: gidDigits(c.id), location_id: gidDigits(location.id), name: text(c.name) };
}

/** Without the keys whose value is undefined, so the body reads like Shopify's (absent, not undefined). */
function compact(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * The webhook-shaped body of an Admin GraphQL order (with all its line items, gathered from every page). The readers
 * check it as they check a webhook's, so a field GraphQL left out reads as missing, never as a wrong value.
 */
export function orderBodyFromGraphql(order: Json, lineItems: readonly Json[] = nodes(order.lineItems)): Json {
  return compact({
    admin_graphql_api_id: text(order.id),
    id: gidDigits(order.id),
    name: text(order.name),
    test: order.test === true,
    currency: text(order.currencyCode),
    presentment_currency: text(order.presentmentCurrencyCode),
    taxes_included: order.taxesIncluded,
    tax_exempt: order.taxExempt,
    financial_status: text(order.displayFinancialStatus)?.toLowerCase(),
    created_at: text(order.createdAt),
    processed_at: text(order.processedAt),
    email: text(order.email),
    phone: text(order.phone),
    customer_locale: text(order.customerLocale),
    total_price_set: moneySet(order.totalPriceSet),
    current_total_price_set: moneySet(order.currentTotalPriceSet),
    current_total_tax_set: moneySet(order.currentTotalTaxSet),
    total_tax_set: moneySet(order.totalTaxSet),
    total_tip_received: shopAmount(order.totalTipReceivedSet),
    current_total_duties_set: moneySet(order.currentTotalDutiesSet),
    current_total_additional_fees_set: moneySet(order.currentTotalAdditionalFeesSet),
    total_cash_rounding_payment_adjustment_set: isObject(order.totalCashRoundingAdjustment)
      ? moneySet(order.totalCashRoundingAdjustment.paymentSet)
      : undefined,
    line_items: lineItems.map(lineItem),
    shipping_lines: nodes(order.shippingLines).map(shippingLine),
    note_attributes: asList(order.customAttributes).map((a) => ({ name: text(a.key) ?? '', value: a.value ?? null })),
    customer: customer(order.customer),
    billing_address: address(order.billingAddress),
    shipping_address: address(order.shippingAddress),
    company: company(order.purchasingEntity),
    payment_gateway_names: Array.isArray(order.paymentGatewayNames) ? order.paymentGatewayNames : [],
    // A POS order's till: its branch and billing point may be the location's own (docs/series.md).
    location_id: isObject(order.retailLocation) ? gidDigits(order.retailLocation.id) : undefined,
  });
}
