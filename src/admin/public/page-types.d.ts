// Shapes the page reads from the app's /api, taken from the server's own types (admin-page.ts, document-view.ts)
// so they cannot drift, and what App Bridge gives it.
// Type-checking only: the browser never loads this file.

export type { PageConfig } from '../admin-page.ts';
export type { GatewayCallView as GatewayCall, DocumentReason, ReasonProblem } from '../document-view.ts';
export type { Localized } from '../../messages/message.ts';
export type { ClientFormView as ClientForm } from '../client-correction-api.ts';
export type { MonthFigures, SeriesFigures } from '../../reports/month-figures.ts';
export type { ReportEmailsView } from '../reports-api.ts';
export type { BackfillProgress } from '../../backfill/backfill-service.ts';
import type { dryRunJson } from '../../backfill/backfill-dry-run.ts';
import type { AdminDocumentDetail as ServerDocumentDetail } from '../document-detail.ts';
import type { DocumentSummary as ServerDocumentSummary } from '../document-view.ts';
import type { emailView } from '../email-api.ts';
import type { Localized } from '../../messages/message.ts';
import type { DocumentStatus } from '../../db/document-state.ts';

/** A row of the list; the list marks the invoices whose buyer asked for an invoice with RUC. */
export type DocumentSummary = ServerDocumentSummary & { buyerRequested?: boolean };

export type Status = DocumentStatus;
export type StatusCounts = Record<Status | 'all', number>;

export interface Mapping {
  transactionDefaults: Record<string, string>;
  paymentForms: Record<string, string>;
  defaultPaymentForm: string;
  checkoutAttributes: Record<string, string>;
  customerTaxIdMetafield: { namespace: string; key: string } | null;
  defaultLocationCode: string;
  cafeDelivery: string;
  creditNoteNatureOperation: string;
  includeGiftCards: boolean;
  includeTips: boolean;
  taxRateCodes: Record<string, string>;
  shippingDescription: string;
  shippingCode: string;
  tipDescription: string;
  tipCode: string;
}

export interface ShopView {
  shop: string;
  installed: boolean;
  enabled: boolean;
  pausedReason: string | null;
  paused: Localized | null;
  environment: 'pruebas' | 'produccion';
  settings: {
    environment: 'pruebas' | 'produccion';
    branchCode: string;
    billingPoint: string;
    accountantEmail?: string;
    locations?: Record<string, { branchCode: string; billingPoint: string }>;
    mapping: Mapping;
    buyerRequests: { enabled: boolean; days: number };
    flowTriggers: { enabled: boolean; language: 'es' | 'en' };
  };
  credentials: Record<string, boolean> | null;
  complete: boolean;
  missing: string[];
  counts: StatusCounts;
  choices: Record<string, Record<string, string>>;
  defaultPaymentForms: Record<string, string>;
  fields: { credentials: string[]; transactionDefaults: string[] };
}

/** The parts of the gateway document the page shows; the rest is shown as JSON. */
export interface GatewayDocument {
  listItems?: Record<string, string>[];
  totalsSubTotals?: Record<string, string>;
  dataTransaction?: { client?: Record<string, string> };
  [field: string]: unknown;
}

/** The detail as the page reads it: the document sent, loosely typed where the page shows it. */
export interface DocumentDetail extends Omit<ServerDocumentDetail, 'document'> {
  document: GatewayDocument | null;
}

export interface PageContext {
  shop: ShopView;
  params: URLSearchParams;
  navigate(hash: string): void;
  refreshShop(): Promise<ShopView>;
  setShop(shop: ShopView): void;
  rerender(): Promise<void>;
}

/** What App Bridge (cdn.shopify.com/shopifycloud/app-bridge.js) puts on window inside the admin. */
export interface AppBridge {
  idToken(): Promise<string>;
  config?: { locale?: string; shop?: string };
  /** Optional scopes (read_all_orders): asks the merchant in the admin. */
  scopes?: { request(scopes: string[]): Promise<unknown> };
}

/** POST /api/backfill/dry-run. */
export type BackfillDryRun = ReturnType<typeof dryRunJson> & { from: string; to: string };

declare global {
  interface Window {
    shopify?: AppBridge;
  }
}

/** GET /api/invoices/:id/emails. */
export interface EmailsView {
  configured: boolean;
  emails: ReturnType<typeof emailView>[];
}
