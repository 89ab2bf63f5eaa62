// How a shop's orders become invoices: the coded values an order cannot supply, the payment-form
// table, checkout attribute names and what is left out. `mappingSettingsSchema.parse({})` gives the
// defaults; every message is written for the merchant who typed the value.
import { z } from 'zod';
import { formatFraction, parseFraction } from '../fiscal/money.ts';
import { findLocationByCode } from '../fiscal/panama-locations.ts';
import CODES from '../fiscal/data/dgi-codes.json' with { type: 'json' };

/** A code table: code → what it means (docs/reference/panama-fe.md §3), used for values and messages. */
type CodeTable = Readonly<Record<string, string>>;

/**
 * `table[key]` for a key that comes from outside (a payment gateway's name, a tax rate): only the table's
 * own entries, so "constructor" or "__proto__" is a name like any other, never Object.prototype's.
 */
export function ownEntry(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

// The DGI's code tables (docs/reference/panama-fe.md §3.2–§3.10; 09 and 99 of the payment forms are listed by the PAC, 99 needs a description
// the gateway cannot carry) and the default payment-form table are data (data/dgi-codes.json), read by field name.
type CodedField = Exclude<keyof typeof CODES, '$comment' | 'defaultPaymentForms'>;

/** A value of one of the DGI's code tables; `field` names the table (and the field, in messages). */
function codeEnum(field: CodedField, what: string = field) {
  const table: CodeTable = CODES[field];
  // Sorted: integer-like keys ("99") would otherwise come first in object order.
  const codes = Object.keys(table).sort() as [string, ...string[]];
  const list = codes.map((c) => `${c} (${table[c]})`).join(', ');
  return z.enum(codes, { error: `${what} must be one of: ${list}` });
}

/**
 * Payment gateway names (lower case, as Shopify writes them in `payment_gateway_names`) → payment form.
 * Card processors and wallets funded by cards → 03; Shopify's gift cards → 07; cash on delivery and
 * POS cash → 02; bank deposits, transfers and "manual" (marked as paid by the merchant) → 08. Spanish
 * names are the manual payment methods Panamanian shops commonly create. A shop's own table is
 * merged over this one, so a merchant can add names or change any of these.
 */
export const DEFAULT_PAYMENT_FORMS: CodeTable = CODES.defaultPaymentForms;

/** Every code table by the field it codes, for the settings form's choices. */
export const CODE_TABLES: Readonly<Record<string, CodeTable>> = (({ $comment: _, defaultPaymentForms: _d, ...tables }) => tables)(CODES);

/**
 * Document types that are not a sale's invoice, each with why (docs/reference/panama-fe.md §3.2): notes correct an
 * invoice and the app issues its credit notes itself from refunds; a reimbursement is not a sale.
 */
export const NOT_SALE_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  '04': 'a credit note referring to invoices: the app issues credit notes itself, from refunds',
  '05': 'a debit note referring to invoices, not a sale',
  '06': 'a generic credit note: the app issues credit notes itself, from refunds',
  '07': 'a generic debit note, not a sale',
  '09': 'a reimbursement, not a sale',
};

const saleDocumentType = codeEnum('typeDocument').superRefine((code, ctx) => {
  const why = ownEntry(NOT_SALE_DOCUMENT_TYPES, code);
  if (why !== undefined)
    ctx.addIssue({ code: 'custom', message: `typeDocument ${code} is ${why}; an order is invoiced with 01 (internal sale invoice)` });
});

/** The typeDocument codes a shop may choose for its orders' invoices. */
export const SALE_DOCUMENT_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CODES.typeDocument).filter(([code]) => !Object.hasOwn(NOT_SALE_DOCUMENT_TYPES, code)),
);

// Strict at every depth: a misspelt key is refused by name, never dropped for its default.
const transactionDefaultsSchema = z.strictObject({
  typeEmission: codeEnum('typeEmission').default('01'),
  typeDocument: saleDocumentType.default('01'),
  natureOperation: codeEnum('natureOperation').default('01'),
  typeOperation: codeEnum('typeOperation').default('1'),
  destinationOperation: codeEnum('destinationOperation').default('1'),
  formatCAFE: codeEnum('formatCAFE').default('3'),
  /** Left out: what `cafeDelivery` says (deliveryCafeCode). Set: this code, whatever the delivery. */
  deliveryCAFE: codeEnum('deliveryCAFE').optional(),
  shippingContainer: codeEnum('shippingContainer').default('1'),
  processGeneration: codeEnum('processGeneration').default('1'),
  typeSale: codeEnum('typeSale').default('1'),
});
/** The document's coded values a shop sets, in the form's order. */
export const TRANSACTION_DEFAULT_FIELDS = Object.keys(transactionDefaultsSchema.shape);

/**
 * Who gives the buyer the CAFE (the PDF): the app e-mails it, the certification provider e-mails it itself, or the
 * shop hands it over on paper. The first two are "sent electronically" (deliveryCAFE 3), the third "delivered on
 * paper" (2).
 */
export const CAFE_DELIVERY = ['app_email', 'provider_email', 'paper'] as const;
export type CafeDelivery = (typeof CAFE_DELIVERY)[number];
const CAFE_DELIVERY_CODE = { app_email: '3', provider_email: '3', paper: '2' } as const satisfies Record<CafeDelivery, string>;

/** The document's `deliveryCAFE`: the merchant's code when set, else what the shop's delivery really is. */
export function deliveryCafeCode(settings: Pick<MappingSettings, 'transactionDefaults' | 'cafeDelivery'>): string {
  return settings.transactionDefaults.deliveryCAFE ?? CAFE_DELIVERY_CODE[settings.cafeDelivery];
}

const attributeName = (what: string, fallback: string) =>
  z
    .string({ error: `the checkout attribute name for ${what} must be text` })
    .trim()
    .min(1, `the checkout attribute name for ${what} cannot be empty`)
    .max(100, `the checkout attribute name for ${what} is too long (100 characters at most)`)
    .default(fallback);

/** Names of the checkout (cart) attributes a buyer fills in; compared without regard to case. */
const checkoutAttributesSchema = z.strictObject({
  ruc: attributeName('the RUC', 'ruc'),
  dv: attributeName('the RUC check digit', 'dv'),
  businessName: attributeName('the business name', 'razon_social'),
  address: attributeName("the taxpayer's address", 'direccion'),
  /** A location code like 8-8-7 (province-district-corregimiento) chosen by the buyer. */
  locationCode: attributeName('the location code', 'codigo_ubicacion'),
});

const paymentFormCode = codeEnum('paymentForm', 'the payment form');

const paymentFormsSchema = z
  .record(z.string().trim().min(1, 'a payment gateway name cannot be empty'), paymentFormCode, {
    error: 'paymentForms must map payment gateway names to payment-form codes, e.g. {"yappy": "08"}',
  })
  .optional()
  .transform((own) => {
    const table: Record<string, string> = { ...DEFAULT_PAYMENT_FORMS };
    for (const [name, code] of Object.entries(own ?? {})) table[name.trim().toLowerCase()] = code;
    return table;
  });

const taxRateCodesSchema = z
  .record(z.string(), codeEnum('itbmsRate', 'the ITBMS rate code'), {
    error: 'taxRateCodes must map Shopify tax rates to ITBMS rate codes, e.g. {"0.085": "01"}',
  })
  .default({})
  .transform((table, ctx) => {
    const out: Record<string, string> = {};
    for (const [rate, code] of Object.entries(table)) {
      const key = normalizeRateKey(rate);
      if (key === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [rate],
          message: `"${rate}" is not a tax rate: write it as a decimal between 0 and 1, e.g. 0.085 for 8.5 %`,
        });
        continue;
      }
      out[key] = code;
    }
    return out;
  });

/** "0.0850" → "0.085"; undefined unless a decimal in [0, 1). */
export function normalizeRateKey(text: string): string | undefined {
  const f = /^\s*\d+(\.\d+)?\s*$/.test(text) ? parseFraction(text) : undefined;
  if (f === undefined || f.num >= f.den) return undefined;
  return formatFraction(f);
}

const locationCodeSchema = z
  .string({ error: 'defaultLocationCode must be text like 8-8-7' })
  .trim()
  .refine((code) => findLocationByCode(code) !== undefined, {
    message: 'defaultLocationCode must be a province-district-corregimiento code of the Panama catalogue, e.g. 8-8-7 (Bella Vista, Panamá)',
  });

const itemText = (what: string, min: number, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(min, min === 1 ? `${what} cannot be empty` : `${what} must have at least ${min} characters`)
    .max(max, `${what} must have at most ${max} characters`);

export const mappingSettingsSchema = z.strictObject({
  /** Coded `dataTransaction` values (docs/reference/panama-fe.md §3.5 defaults: a normal e-commerce sale in Panama). */
  transactionDefaults: transactionDefaultsSchema.prefault({}),
  /** Gateway name → payment-form code, merged over DEFAULT_PAYMENT_FORMS. */
  paymentForms: paymentFormsSchema,
  /**
   * Payment form for a gateway found in neither table. 03 (card) because the payment providers a
   * Shopify shop installs are almost all card processors; manual methods the merchant names are
   * added to `paymentForms`. 99 ("other") is avoided: it needs a description the gateway cannot carry.
   */
  defaultPaymentForm: paymentFormCode.default('03'),
  checkoutAttributes: checkoutAttributesSchema.prefault({}),
  /** Who gives the buyer the CAFE; only with `app_email` does the app e-mail it (when SMTP is configured). */
  cafeDelivery: z.enum(CAFE_DELIVERY, { error: `cafeDelivery must be one of: ${CAFE_DELIVERY.join(', ')}` }).default('app_email'),
  /**
   * Where the shop keeps its customers' RUC as a customer metafield (docs/design.md §10): read through the Admin API (scope
   * read_customers) when the order has no B2B company tax id; the text holds the RUC and its DV ("155596713-2-2015 DV 59").
   */
  customerTaxIdMetafield: z
    .strictObject({
      namespace: z.string({ error: 'namespace must be text' }).trim().min(1, 'namespace cannot be empty').max(255),
      key: z.string({ error: 'key must be text' }).trim().min(1, 'key cannot be empty').max(64),
    })
    .nullable()
    .default(null),
  /** Client location when the order gives none: Bella Vista, Panamá, Panamá. */
  defaultLocationCode: locationCodeSchema.default('8-8-7'),
  /**
   * `natureOperation` of credit notes (type 04): 11, devolución, by default. Which value PACs expect on a note is not
   * confirmed (docs/reference/panama-fe.md §7.3), so a shop can change it; the other codes of a note are its invoice's.
   */
  creditNoteNatureOperation: codeEnum('natureOperation', 'creditNoteNatureOperation').default('11'),
  /** Gift-card purchases are not a sale of goods; invoiced only when the shop says so. */
  includeGiftCards: z.boolean({ error: 'includeGiftCards must be true or false' }).default(false),
  /** Tips are not a sale of goods; invoiced (as an exempt line) only when the shop says so. */
  includeTips: z.boolean({ error: 'includeTips must be true or false' }).default(false),
  /**
   * Shopify rate (decimal text, e.g. "0.085") → ITBMS code for rates other than 0, 7, 10 and 15 %.
   * A mapped line is invoiced at the ITBMS rate of its code, with what the buyer paid for it (net plus
   * Shopify's tax) taken as the tax-inclusive price: the total stays what was paid, the ITBMS is
   * recomputed at the DGI rate.
   */
  taxRateCodes: taxRateCodesSchema,
  shippingDescription: itemText('shippingDescription', 2, 100).default('Envío'),
  shippingCode: itemText('shippingCode', 1, 20).default('ENVIO'),
  tipDescription: itemText('tipDescription', 2, 100).default('Propina'),
  tipCode: itemText('tipCode', 1, 20).default('PROPINA'),
});

export type MappingSettings = z.infer<typeof mappingSettingsSchema>;
export type MappingSettingsInput = z.input<typeof mappingSettingsSchema>;

export const defaultMappingSettings: MappingSettings = mappingSettingsSchema.parse({});
