// A credit note's document (type 04), before the pipeline numbers it (document-numbering.ts): its items and payments,
// totals that are exact sums of the items, the invoice's client block and transaction codes, and the reference to the
// invoice by CUFE and date (docs/design.md §9, names in gateway-document.ts REFERENCE_FIELDS). Pure.
import type { DocumentDraft } from '../invoice/document-numbering.ts';
import { type GatewayDocument, type GatewayItem, type GatewayPayment, REFERENCE_FIELDS } from '../gateway/gateway-document.ts';
import type { ItemAmounts } from '../fiscal/line-arithmetic.ts';
import type { MappingSettings } from '../invoice/mapping-settings.ts';
import type { Cents } from '../fiscal/money.ts';
import { documentTotals, sumItems } from '../invoice/order-to-document.ts';

/** The authorized invoice a note corrects: the document as sent and the CUFE the gateway returned. */
export interface CreditedInvoice {
  document: GatewayDocument;
  cufe: string;
}

export const CREDIT_NOTE_TYPE = '04';

export function creditNoteDraft(
  invoice: CreditedInvoice,
  settings: MappingSettings,
  note: { items: GatewayItem[]; amounts: ItemAmounts[] },
  payments: GatewayPayment[],
): { draft: DocumentDraft; totalCents: Cents } {
  const source = invoice.document.dataTransaction;
  const draft: DocumentDraft = {
    dataTransaction: {
      typeEmission: source.typeEmission,
      typeDocument: CREDIT_NOTE_TYPE,
      natureOperation: settings.creditNoteNatureOperation,
      typeOperation: source.typeOperation,
      destinationOperation: source.destinationOperation,
      formatCAFE: source.formatCAFE,
      deliveryCAFE: source.deliveryCAFE,
      shippingContainer: source.shippingContainer,
      processGeneration: source.processGeneration,
      typeSale: source.typeSale,
      client: source.client,
      [REFERENCE_FIELDS.list]: [
        {
          [REFERENCE_FIELDS.date]: source.dateBroadcast,
          [REFERENCE_FIELDS.cufe]: invoice.cufe,
          [REFERENCE_FIELDS.paperNumber]: '',
          [REFERENCE_FIELDS.fiscalPrinterNumber]: '',
        },
      ],
    },
    listItems: note.items,
    totalsSubTotals: documentTotals(note.amounts, payments),
  };
  return { draft, totalCents: sumItems(note.amounts).totalValue };
}
