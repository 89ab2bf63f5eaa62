// The gateway's wire contract (spec/gateway-api.md), as zod schemas shared by the client,
// the sandbox and the mapper. Field names are the gateway's own; every value is a string.
import { z } from 'zod';

/** The six credentials sent at the top level of every request. Secrets: never log them. */
export const credentialsSchema = z.object({
  GW_Company: z.string(),
  GW_Token: z.string(),
  Id_Pac: z.string(),
  Enterprise: z.string(),
  Company: z.string(),
  Token: z.string(),
});
export type GatewayCredentials = z.infer<typeof credentialsSchema>;
export const CREDENTIAL_FIELDS = Object.keys(credentialsSchema.shape) as (keyof GatewayCredentials)[];

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
export type GatewayClient = z.infer<typeof clientSchema>;

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

export const sendDocumentRequestSchema = credentialsSchema.extend({
  identifierControlShipping: z.string(),
  environment: z.string(),
  document: documentSchema,
});
export type SendDocumentRequest = z.infer<typeof sendDocumentRequestSchema>;

/** Identifies an issued document for DownloadPDF and StatusDocument. */
export interface DocumentKey {
  codeBranchIssuing: string;
  numberDocumentFiscal: string;
  pointBillingFiscal: string;
  typeDocument: string;
  typeEmission: string;
}

export const downloadPdfRequestSchema = credentialsSchema.extend({
  Branch: z.string(),
  invoiceId: z.string(),
  documentData: z.object({
    codeBranchIssuing: z.string(),
    numberDocumentFiscal: z.string(),
    pointBillingFiscal: z.string(),
    serialDevice: z.string(),
    typeDocument: z.string(),
    typeEmission: z.string(),
  }),
});
export type DownloadPdfRequest = z.infer<typeof downloadPdfRequestSchema>;

export const statusDocumentRequestSchema = credentialsSchema.extend({
  documentData: z.object({
    codeBranchIssuing: z.string(),
    numberDocumentFiscal: z.string(),
    pointBillingFiscal: z.string(),
    typeDocument: z.string(),
    typeEmission: z.string(),
  }),
});
export type StatusDocumentRequest = z.infer<typeof statusDocumentRequestSchema>;

export const warningSchema = z.object({
  code: z.string(),
  message: z.string(),
  fieldName: z.string().nullable(),
});

export const sendDocumentSuccessSchema = z.object({
  code: z.literal('200'),
  result: z.literal('procesado'),
  message: z.string(),
  cufe: z.string().length(66),
  id: z.null().optional(),
  invoice: z.null().optional(),
  qr: z.string().min(1),
  xml: z.null().optional(),
  receptionDateDGI: z.string(),
  nroAuthorizationProtocol: z.string(),
  deadline: z.null().optional(),
  secuence: z.null().optional(),
  warnings: z.array(warningSchema),
});
export type SendDocumentSuccess = z.infer<typeof sendDocumentSuccessSchema>;

export const errorResponseSchema = z.object({
  code: z.string(),
  result: z.literal('error'),
  message: z.string(),
});
export type GatewayErrorResponse = z.infer<typeof errorResponseSchema>;

export const downloadPdfResponseSchema = z.object({
  code: z.string(),
  document: z.string().optional(),
  message: z.string().optional(),
  result: z.string().optional(),
});

export const statusDocumentResponseSchema = z.object({
  code: z.string(),
  statusDocument: z.string().optional(),
  messageDocument: z.string().optional(),
  message: z.string().optional(),
  result: z.string().optional(),
});

/** Environment codes (reference §3.1). */
export const ENVIRONMENT_CODE = { produccion: '1', pruebas: '2' } as const;
export type GatewayEnvironment = keyof typeof ENVIRONMENT_CODE;
