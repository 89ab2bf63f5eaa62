// The gateway's request fields as the sandbox knows them: docs/gateway-api.md's tables, plus a credit note's
// reference block (docs/design.md §9: not in the published spec; the names the sandbox requires of a type 04), written here
// from those documents and not taken from the app, so that a field the app names wrongly is refused.
// Every value is a JSON string. The objects are strict: a field the gateway does not know is refused by name (a
// misspelt optional field would otherwise vanish without a word).
import { z } from 'zod';

const text = z.string();
const optionalText = z.string().optional();

/** The credentials block at the top of every request (spec "Credentials block"). */
export const CREDENTIAL_FIELDS = ['GW_Company', 'GW_Token', 'Id_Pac', 'Enterprise', 'Company', 'Token'] as const;
export type SandboxCredentials = Record<(typeof CREDENTIAL_FIELDS)[number], string>;
const credentials = Object.fromEntries(CREDENTIAL_FIELDS.map((f) => [f, text])) as Record<(typeof CREDENTIAL_FIELDS)[number], z.ZodString>;

/** The credit note's reference names (docs/design.md §9), for the messages that name them. */
export const REFERENCE = {
  list: 'listDocsFiscalReferenced',
  date: 'dateEmissionDocFiscalReferenced',
  cufe: 'cufeFEReferenced',
  paperNumber: 'nroInvoicePaper',
  fiscalPrinterNumber: 'nroInvoiceImpFiscal',
} as const;

export const referenceSchema = z.strictObject({
  dateEmissionDocFiscalReferenced: text,
  cufeFEReferenced: text,
  nroInvoicePaper: text,
  nroInvoiceImpFiscal: text,
});
export type SandboxReference = z.infer<typeof referenceSchema>;

/** The client fields a document may leave out (which ones a client type needs is the rules' business). */
export const CLIENT_OPTIONAL_FIELDS = [
  'typeTaxpayer',
  'numberRUC',
  'digitCheckRUC',
  'businessName',
  'address',
  'codeLocation',
  'province',
  'district',
  'correction',
  'telephone1',
  'email1',
] as const;

export const clientSchema = z.strictObject({
  typeClientEB: text,
  ...(Object.fromEntries(CLIENT_OPTIONAL_FIELDS.map((f) => [f, optionalText])) as Record<
    (typeof CLIENT_OPTIONAL_FIELDS)[number],
    typeof optionalText
  >),
  country: text,
});
export type SandboxClient = z.infer<typeof clientSchema>;

export const dataTransactionSchema = z.strictObject({
  typeEmission: text,
  typeDocument: text,
  numberDocumentFiscal: text,
  pointBillingFiscal: text,
  dateBroadcast: text,
  natureOperation: text,
  typeOperation: text,
  destinationOperation: text,
  formatCAFE: text,
  deliveryCAFE: text,
  shippingContainer: text,
  processGeneration: text,
  typeSale: text,
  client: clientSchema,
  listDocsFiscalReferenced: z.array(referenceSchema).optional(),
});

export const itemSchema = z.strictObject({
  description: text,
  code: text,
  amount: text,
  priceUnit: text,
  priceUnitDiscount: text,
  priceItem: text,
  rateITBMS: text,
  valueITBMS: text,
  totalValue: text,
  codeGTIN: optionalText,
  cantGTINCom: optionalText,
  codeGTINInv: optionalText,
  cantGTINComInv: optionalText,
});

export const paymentSchema = z.strictObject({ formPaymentInvoice: text, valueFeePaid: text });

export const totalsSchema = z.strictObject({
  totalPriceNet: text,
  totalITBMS: text,
  /** May be empty (spec). */
  totalISC: optionalText,
  totalAmountTaxed: text,
  totalInvoice: text,
  totalValueReceived: text,
  timePayment: text,
  nroItems: text,
  totalAllItems: text,
  listFormPayment: z.array(paymentSchema),
});

export const documentSchema = z.strictObject({
  codeBranchIssuer: text,
  dataTransaction: dataTransactionSchema,
  listItems: z.array(itemSchema),
  totalsSubTotals: totalsSchema,
});
/** The `document` of a SendDocument, as the sandbox accepted it. */
export type SandboxDocument = z.infer<typeof documentSchema>;

export const sendDocumentSchema = z.strictObject({
  ...credentials,
  identifierControlShipping: text,
  environment: text,
  document: documentSchema,
});
export type SendDocumentBody = z.infer<typeof sendDocumentSchema>;
