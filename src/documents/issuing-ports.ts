// What issuing a document needs from the outside, as interfaces: the runner passes the real ones, the use case's
// tests pass fakes that `satisfies` them. Each says what it promises, not how.
import type { GatewayClient } from '../gateway/gateway-client.ts';
import type { Message } from '../messages/message.ts';
import type { ShopifyOrders } from '../shopify/shopify-orders.ts';
import type { Shop } from '../shops/shop-repository.ts';
import type { ErrorKind } from '../db/document-state.ts';
import type { DocumentPatch, DocumentRow } from './store/document-rows.ts';
import type { SeriesPoint } from './store/lease-statements.ts';
import type { CompletedNote } from './store/order-statements.ts';

/** Lease-guarded writes on the document in hand (this worker's lease). Undefined: the lease was lost — stop. */
export interface IssuingStore {
  update(doc: DocumentRow, patch: DocumentPatch): Promise<DocumentRow | undefined>;
  /**
   * Save the document about to be sent. With `credited` (a credit note), only if the notes holding a document against
   * its invoice are still those it was mapped against: 'stale' otherwise.
   */
  markSending(doc: DocumentRow, patch: DocumentPatch, credited?: CreditedNotes): Promise<DocumentRow | 'stale' | undefined>;
  /** The next number of the document's series (environment, branch, billing point, its type), given to it once. */
  reserveNumber(doc: DocumentRow, numbering: SeriesPoint): Promise<DocumentRow | undefined>;
  /** Take the document's number off it, recorded as skipped in its series with `reason` (it was never sent). */
  releaseNumber(doc: DocumentRow, reason: string): Promise<DocumentRow | undefined>;
  pdfToken(documentId: string): Promise<string | undefined>;
  /** A document of the same shop by id (a replacement note's invoice). */
  documentById(id: string): Promise<DocumentRow | undefined>;
  /** The order's current invoice (not replaced by another). */
  currentInvoice(shop: string, orderGid: string): Promise<DocumentRow | undefined>;
  /** The notes against an invoice that hold a document, other than `except`. */
  notesAgainst(invoiceId: string, except: string): Promise<DocumentRow[]>;
  /** The outcome under which the intake refused the order's orders/paid, if it did. */
  orderWasRefused(shop: string, orderGid: string): Promise<string | undefined>;
  /** The order's completed credit notes with their PDFs' tokens, for its metafield (one read). */
  completedNotes(shop: string, orderGid: string): Promise<CompletedNote[]>;
  /** Another document of the shop holding this CUFE, if any. */
  cufeHolder(shop: string, cufe: string, exceptId: string): Promise<{ id: string } | undefined>;
  /** A CUFE the shop's completed documents carry (it names the shop's issuer), other than this document's. */
  shopIssuerCufe(shop: string, exceptId: string): Promise<string | undefined>;
  /** Both reads of an authorization's checks at once: the shop's issuer CUFE (as above), and whether another holds `cufe`. */
  authorizationChecks(shop: string, cufe: string, exceptId: string): Promise<{ issuerCufe: string | undefined; held: boolean }>;
  /** How many fiscal numbers this document has skipped so far. */
  skipsOf(documentId: string): Promise<number>;
}

/** What the process has seen of the gateway lately: tells a document's 201 from an incident answering 201 to all. */
export interface GatewayPulse {
  /** Whether the gateway authorized some document (SendDocument 200) after this instant. */
  authorizedSince(at: Date): boolean;
}

/** The notes a credit note was mapped against: its invoice and their ids. */
export interface CreditedNotes {
  invoiceId: string;
  noteIds: readonly string[];
}

/** The gateway, one call at a time within the process's gateway slots; `run` holds a slot for the whole task. */
export interface GatewayAccess {
  run<T>(task: (gateway: GatewayClient) => Promise<T>): Promise<T>;
  /**
   * As `run`, for a document whose lease was just renewed: when the wait for the slot ate into the lease, it is renewed
   * again before the task, so it covers the call. Undefined (the task not run): the lease was lost.
   */
  runLeased<T>(doc: DocumentRow, task: (gateway: GatewayClient) => Promise<T>): Promise<T | undefined>;
}

export interface IssuingDeps {
  store: IssuingStore;
  gateway: GatewayAccess;
  /** The Shopify Admin API as issuing uses it. */
  shopify: ShopifyOrders;
  clock: () => Date;
  /** Public origin of the app, for PDF links. */
  appUrl: string;
  /** Absent: the gateway is taken to be authorizing other documents (a repeated 201 is then the document's). */
  pulse?: GatewayPulse;
}

/** The shop as of this claim: settings and credentials. */
export type IssuingShop = Pick<Shop, 'shop' | 'settings' | 'credentials'>;

/** Why a document stopped: the kind (who acts next), the gateway's or problem's code, the message to show. */
export interface DocumentError {
  kind: ErrorKind;
  code: string | undefined;
  message: Message;
}

/**
 * What should happen to the document after one step. The runner applies it under the lease: `advance` and
 * `skip_number` continue with the next step in the same claim; every other transition ends the claim.
 */
export type Transition =
  /** Authorized: on to the PDF. */
  | { kind: 'advance'; to: 'pdf'; patch: DocumentPatch; authorizedInvoice?: boolean }
  /** The PDF in hand: stored by the statement that moves the document on to the write-back. */
  | { kind: 'advance'; to: 'writeback'; patch: DocumentPatch; pdf: Buffer; authorizedInvoice?: boolean }
  | { kind: 'done'; patch: DocumentPatch }
  | { kind: 'retry'; error: DocumentError; patch?: DocumentPatch }
  | { kind: 'attention'; error: DocumentError; problems?: unknown; patch?: DocumentPatch }
  | { kind: 'pause_shop'; error: DocumentError }
  | { kind: 'skip_number'; number: string }
  | { kind: 'skipped'; reason: Message; problems?: unknown; patch?: DocumentPatch }
  | { kind: 'wait'; reason: Message; retryInMs: number; patch?: DocumentPatch }
  /** The document must not exist (its order is not this shop's): removed. */
  | { kind: 'discard'; reason: string }
  /** The lease was lost mid-step: another worker has the document; do nothing more. */
  | { kind: 'lost' };
