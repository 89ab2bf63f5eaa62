// `preview <order.json> --refund <refund.json> [--credited <note.json> …]`: the credit note the pipeline would map
// from a refund of the order (docs/design.md §9), against the invoice the order maps to and the notes already issued against
// it, numbered after them; or why there is none. The gateway gives the invoice its CUFE: a stand-in names it here.
import type { CreditedDocument } from '../../mappers/credit-note/credit-balance.ts';
import { CREDIT_NOTE_TYPE } from '../../mappers/credit-note/credit-note-draft.ts';
import { type IssuingPoint, numberDocument } from '../../mappers/invoice/document-numbering.ts';
import { type GatewayDocument, documentSchema } from '../../mappers/gateway/gateway-document.ts';
import type { MappingProblem } from '../../mappers/mapping-problems.ts';
import type { MappingSettings } from '../../mappers/invoice/mapping-settings.ts';
import { refundToCreditNote } from '../../mappers/credit-note/refund-to-credit-note.ts';
import type { ShopifyOrder } from '../../mappers/shopify/shopify-order.ts';
import { parseShopifyRefund } from '../../mappers/shopify/shopify-refund.ts';
import { render } from '../messages/catalogue.ts';
import { message } from '../messages/message.ts';
import { CliInputError, readJsonFile } from './cli-context.ts';

/** What the note's reference carries where the invoice's CUFE goes. */
export const INVOICE_CUFE_STAND_IN = '(the CUFE the gateway gives the invoice)';

export type CreditNotePreview =
  | { kind: 'document'; document: GatewayDocument }
  | { kind: 'problems'; problems: MappingProblem[] }
  /** No note, and why (in English, from the message catalogue). */
  | { kind: 'none'; reason: string };

export function previewCreditNote(o: {
  order: ShopifyOrder;
  /** The invoice as the order maps to it, numbered. */
  invoice: GatewayDocument;
  refundFile: string;
  creditedFiles: readonly string[];
  numbering: IssuingPoint;
  mapping: MappingSettings;
  now: Date;
}): CreditNotePreview {
  const refund = parseShopifyRefund(readJsonFile(o.refundFile, 'refund'));
  if (!refund.ok) return { kind: 'problems', problems: refund.problems };
  if (refund.refund.orderGid !== o.order.orderGid) {
    throw new CliInputError(`the refund file ${o.refundFile} refunds ${refund.refund.orderGid}, not the order file's ${o.order.orderGid}`);
  }
  const credited = o.creditedFiles.map(readCreditedNote);
  const result = refundToCreditNote({
    refund: refund.refund,
    order: o.order,
    invoice: { document: o.invoice, cufe: INVOICE_CUFE_STAND_IN },
    credited,
    settings: o.mapping,
  });
  switch (result.kind) {
    case 'draft':
      // Notes have their own numbering: this one comes after the notes already credited.
      return { kind: 'document', document: numberDocument(result.draft, { ...o.numbering, fiscalNumber: credited.length + 1 }, o.now) };
    case 'problems':
      return { kind: 'problems', problems: result.problems };
    case 'nothing':
      return { kind: 'none', reason: render(message(`credit_${result.reason}`), 'en') };
    case 'wait':
      return { kind: 'none', reason: render(message(result.reason), 'en') };
  }
}

/** A credit note's document as the gateway received it (as this preview prints it, or from the app's records). */
function readCreditedNote(file: string): CreditedDocument {
  const parsed = documentSchema.safeParse(readJsonFile(file, 'credited note'));
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new CliInputError(
      `the credited note file ${file} is not a gateway document: ${first.path.join('.') || 'document'}: ${first.message}`,
    );
  }
  const type = parsed.data.dataTransaction.typeDocument;
  if (type !== CREDIT_NOTE_TYPE) {
    throw new CliInputError(`the credited note file ${file} is not a credit note (typeDocument ${type}, not ${CREDIT_NOTE_TYPE})`);
  }
  return parsed.data;
}
