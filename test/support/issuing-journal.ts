// What one step of a document is expected to do, as the issuing fakes' journal records it (test/support/issuing-fakes.ts),
// and the check that every message a transition carries is in the catalogue.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { canonicalJson } from '../../mappers/fiscal/canonical-json.ts';
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import type { Transition } from '../../src/documents/issuing-ports.ts';
import { render } from '../../src/messages/catalogue.ts';
import type { Message } from '../../src/messages/message.ts';
import { CREDENTIALS, DOCUMENT_KEY, SHOP } from './issuing-factories.ts';

export const NUMBER = '0000-001-0000000042';

export const NUMBERING = { environment: 'pruebas', branchCode: '0000', billingPoint: '001' };

/** The gateway refused the credentials: the shop's queue pauses. */
export const PAUSED = {
  kind: 'pause_shop',
  error: { kind: 'credentials', code: '101', message: { key: 'credentials', params: { gatewayMessage: 'Credenciales inválidas' } } },
};

/** The order confirmed through the shop's own Admin API (no B2B company, no customer metafield asked for). */
export const confirmCall = [
  'shopify.confirmOrder',
  SHOP,
  expect.stringMatching(/^gid:\/\/shopify\/Order\/\d+$/),
  { company: false, metafield: null },
];

/** Every message a transition carries must have its text in the catalogue, in both languages. */
export function expectCatalogued(t: Transition): void {
  const messages: (Message | undefined)[] = [
    'error' in t ? t.error.message : undefined,
    'reason' in t && typeof t.reason === 'object' ? t.reason : undefined,
    'patch' in t ? (t.patch?.notice as Message | undefined) : undefined,
  ];
  for (const m of messages.filter((m) => m !== undefined)) {
    for (const language of ['es', 'en'] as const) expect(render(m, language)).not.toBe(`${m.key} ${JSON.stringify(m.params)}`);
  }
}

/** The document's hash as the use case keeps it: the document without its broadcast time. */
export function hashOf(document: GatewayDocument): string {
  const { dateBroadcast: _d, ...data } = document.dataTransaction;
  return createHash('sha256')
    .update(canonicalJson({ ...document, dataTransaction: data }))
    .digest('hex');
}

export const inSlot = (call: unknown[]) => [['slot.take'], call, ['slot.release']];

export const pdfCall = ['gateway.DownloadPDF', { credentials: CREDENTIALS, key: DOCUMENT_KEY }];

/** Retried automatically, for this reason. */
export const retried = (kind: string, key: string, params: Record<string, string>) => ({
  kind: 'retry',
  error: { kind, code: undefined, message: { key, params } },
});

/**
 * The journal of a send: the order confirmed (unless told), a number reserved (unless the document has one), then
 * marked as sending, then sent in a slot. A taxpayer's RUC came from the cart attributes (the fixtures').
 */
export function sendCalls(document: GatewayDocument, o: { reserve: boolean; confirm?: boolean }) {
  const taxIdSource = document.dataTransaction.client.typeClientEB === '01' ? 'cart_attributes' : null;
  return [
    ...(o.confirm === false ? [] : [confirmCall]),
    ...(o.reserve ? [['store.reserveNumber', NUMBERING]] : []),
    [
      'store.markSending',
      { sendMayHaveReached: true, document, documentHash: hashOf(document), environment: 'pruebas', problems: null, taxIdSource },
    ],
    ['slot.take'],
    ['gateway.SendDocument', { credentials: CREDENTIALS, environment: 'pruebas', document }],
    ['slot.release'],
  ];
}
