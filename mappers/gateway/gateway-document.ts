// The gateway's document (`document` of SendDocument): what the mappers produce, as zod schemas the gateway
// client, the sandbox and the tests share. Field names are the gateway's own; every value is a string.
import { z } from 'zod';

/** Fields whose values are text, by name: every value of the gateway's JSON is a string. */
export function textFields<K extends string>(...names: K[]): Record<K, z.ZodString> {
  return Object.fromEntries(names.map((n) => [n, z.string()])) as Record<K, z.ZodString>;
}

/** Text fields a message may leave out. */
export function optionalTextFields<K extends string>(...names: K[]): Record<K, z.ZodOptional<z.ZodString>> {
  return Object.fromEntries(names.map((n) => [n, z.string().optional()])) as Record<K, z.ZodOptional<z.ZodString>>;
}

/** The client block's fields that may be left out: who a taxpayer is, then where and how to reach the buyer. */
const TAXPAYER_FIELDS = ['typeTaxpayer', 'numberRUC', 'digitCheckRUC', 'businessName'] as const;
const CONTACT_FIELDS = ['address', 'codeLocation', 'province', 'district', 'correction', 'telephone1', 'email1'] as const;
export const CLIENT_OPTIONAL_FIELDS = [...TAXPAYER_FIELDS, ...CONTACT_FIELDS] as const;

export const clientSchema = z.object({
  ...textFields('typeClientEB'),
  ...optionalTextFields(...CLIENT_OPTIONAL_FIELDS),
  ...textFields('country'),
});
/** The buyer (`client` of dataTransaction). */
export type ClientBlock = z.infer<typeof clientSchema>;

/**
 * A credit note's reference to the invoice it corrects (docs/design.md §9). Not in the gateway's published spec: these
 * names are assumed from its naming, which translates HKA's JSON word by word. They live here only; when the
 * gateway operator confirms its own, change them here (the mapper, the sandbox and the tests follow).
 */
export const REFERENCE_FIELDS = {
  list: 'listDocsFiscalReferenced',
  date: 'dateEmissionDocFiscalReferenced',
  cufe: 'cufeFEReferenced',
  paperNumber: 'nroInvoicePaper',
  fiscalPrinterNumber: 'nroInvoiceImpFiscal',
} as const;

export const referencedDocumentSchema = z.object({
  ...textFields(REFERENCE_FIELDS.date, REFERENCE_FIELDS.cufe, REFERENCE_FIELDS.paperNumber, REFERENCE_FIELDS.fiscalPrinterNumber),
});
export type ReferencedDocument = z.infer<typeof referencedDocumentSchema>;

export const dataTransactionSchema = z.object({
  // Which document: its kind, number and date; then the coded values a shop sets (mapping settings).
  ...textFields('typeEmission', 'typeDocument', 'numberDocumentFiscal', 'pointBillingFiscal', 'dateBroadcast'),
  ...textFields('natureOperation', 'typeOperation', 'destinationOperation', 'formatCAFE', 'deliveryCAFE'),
  ...textFields('shippingContainer', 'processGeneration', 'typeSale'),
  client: clientSchema,
  /** Credit notes (type 04) only: the invoice(s) they correct. */
  [REFERENCE_FIELDS.list]: z.array(referencedDocumentSchema).optional(),
});
export type DataTransaction = z.infer<typeof dataTransactionSchema>;

export const itemSchema = z.object({
  ...textFields('description', 'code', 'amount', 'priceUnit', 'priceUnitDiscount', 'priceItem', 'rateITBMS', 'valueITBMS', 'totalValue'),
  ...optionalTextFields('codeGTIN', 'cantGTINCom', 'codeGTINInv', 'cantGTINComInv'),
});
export type GatewayItem = z.infer<typeof itemSchema>;

export const paymentSchema = z.object(textFields('formPaymentInvoice', 'valueFeePaid'));
export type GatewayPayment = z.infer<typeof paymentSchema>;

export const totalsSchema = z.object({
  ...textFields('totalPriceNet', 'totalITBMS', 'totalISC', 'totalAmountTaxed', 'totalInvoice', 'totalValueReceived'),
  ...textFields('timePayment', 'nroItems', 'totalAllItems'),
  listFormPayment: z.array(paymentSchema),
});
export type GatewayTotals = z.infer<typeof totalsSchema>;

export const documentSchema = z.object({
  codeBranchIssuer: z.string(),
  dataTransaction: dataTransactionSchema,
  listItems: z.array(itemSchema),
  totalsSubTotals: totalsSchema,
});
/** The invoice as the gateway receives it (`document` of SendDocument). */
export type GatewayDocument = z.infer<typeof documentSchema>;
