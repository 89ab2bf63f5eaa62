// The gateway's document (`document` of SendDocument): what the mappers produce, as zod schemas the gateway
// client, the sandbox and the tests share. Field names are the gateway's own; every value is a string.
import { z } from 'zod';

export const clientSchema = z.object({
  typeClientEB: z.string(),
  typeTaxpayer: z.string().optional(),
  numberRUC: z.string().optional(),
  digitCheckRUC: z.string().optional(),
  businessName: z.string().optional(),
  address: z.string().optional(),
  codeLocation: z.string().optional(),
  province: z.string().optional(),
  district: z.string().optional(),
  correction: z.string().optional(),
  telephone1: z.string().optional(),
  email1: z.string().optional(),
  country: z.string(),
});
/** The buyer (`client` of dataTransaction). */
export type ClientBlock = z.infer<typeof clientSchema>;

/**
 * A credit note's reference to the invoice it corrects (DESIGN §9). Not in the gateway's published spec: these
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
  [REFERENCE_FIELDS.date]: z.string(),
  [REFERENCE_FIELDS.cufe]: z.string(),
  [REFERENCE_FIELDS.paperNumber]: z.string(),
  [REFERENCE_FIELDS.fiscalPrinterNumber]: z.string(),
});
export type ReferencedDocument = z.infer<typeof referencedDocumentSchema>;

export const dataTransactionSchema = z.object({
  typeEmission: z.string(),
  typeDocument: z.string(),
  numberDocumentFiscal: z.string(),
  pointBillingFiscal: z.string(),
  dateBroadcast: z.string(),
  natureOperation: z.string(),
  typeOperation: z.string(),
  destinationOperation: z.string(),
  formatCAFE: z.string(),
  deliveryCAFE: z.string(),
  shippingContainer: z.string(),
  processGeneration: z.string(),
  typeSale: z.string(),
  client: clientSchema,
  /** Credit notes (type 04) only: the invoice(s) they correct. */
  [REFERENCE_FIELDS.list]: z.array(referencedDocumentSchema).optional(),
});
export type DataTransaction = z.infer<typeof dataTransactionSchema>;

export const itemSchema = z.object({
  description: z.string(),
  code: z.string(),
  amount: z.string(),
  priceUnit: z.string(),
  priceUnitDiscount: z.string(),
  priceItem: z.string(),
  rateITBMS: z.string(),
  valueITBMS: z.string(),
  totalValue: z.string(),
  codeGTIN: z.string().optional(),
  cantGTINCom: z.string().optional(),
  codeGTINInv: z.string().optional(),
  cantGTINComInv: z.string().optional(),
});
export type GatewayItem = z.infer<typeof itemSchema>;

export const paymentSchema = z.object({
  formPaymentInvoice: z.string(),
  valueFeePaid: z.string(),
});
export type GatewayPayment = z.infer<typeof paymentSchema>;

export const totalsSchema = z.object({
  totalPriceNet: z.string(),
  totalITBMS: z.string(),
  totalISC: z.string(),
  totalAmountTaxed: z.string(),
  totalInvoice: z.string(),
  totalValueReceived: z.string(),
  timePayment: z.string(),
  nroItems: z.string(),
  totalAllItems: z.string(),
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
