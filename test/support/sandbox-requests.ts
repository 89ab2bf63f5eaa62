// Bodies the sandbox gateway's tests send, built from a SendDocument request they sent before.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely

/**
 * The DownloadPDF / StatusDocument body for a sent request: its credentials and documentData. `withSerial` adds the
 * optional empty fields DownloadPDF documents; `typeDocument` asks for another type under the same number.
 */
export function documentData(request: Json, withSerial: boolean, typeDocument?: string): Json {
  const { Company, Token, GW_Company, GW_Token, Id_Pac, Enterprise } = request;
  const d = request.document.dataTransaction;
  return {
    GW_Company,
    GW_Token,
    Id_Pac,
    Enterprise,
    Company,
    Token,
    ...(withSerial ? { Branch: '', invoiceId: '' } : {}),
    documentData: {
      codeBranchIssuing: request.document.codeBranchIssuer,
      numberDocumentFiscal: d.numberDocumentFiscal,
      pointBillingFiscal: d.pointBillingFiscal,
      ...(withSerial ? { serialDevice: '' } : {}),
      typeDocument: typeDocument ?? d.typeDocument,
      typeEmission: d.typeEmission,
    },
  };
}
