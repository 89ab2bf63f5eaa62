// The gateway's wire contract (docs/gateway-api.md) around the document: credentials, requests and answers,
// as zod schemas shared by the client and the sandbox. The document itself is the mappers' (gateway-document.ts).
import { z } from 'zod';
import { documentSchema, optionalTextFields, textFields } from '../../mappers/gateway/gateway-document.ts';

/** The six credentials sent at the top level of every request. Secrets: never log them. */
export const credentialsSchema = z.object(textFields('GW_Company', 'GW_Token', 'Id_Pac', 'Enterprise', 'Company', 'Token'));
export type GatewayCredentials = z.infer<typeof credentialsSchema>;
export const CREDENTIAL_FIELDS = Object.keys(credentialsSchema.shape) as (keyof GatewayCredentials)[];

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

export const errorResponseSchema = z.object({
  code: z.string(),
  result: z.literal('error'),
  message: z.string(),
});

export const downloadPdfResponseSchema = z.object({
  code: z.string(),
  ...optionalTextFields('document', 'message', 'result'),
});

export const statusDocumentResponseSchema = z.object({
  code: z.string(),
  ...optionalTextFields('statusDocument', 'messageDocument', 'message', 'result'),
});

/** Environment codes (docs/reference/panama-fe.md §3.1). */
export const ENVIRONMENT_CODE = { produccion: '1', pruebas: '2' } as const;
export type GatewayEnvironment = keyof typeof ENVIRONMENT_CODE;
