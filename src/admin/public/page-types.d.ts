// Shapes the page reads from the app's /api (src/admin/admin-api.ts, invoice-view.ts) and from App Bridge.
// Type-checking only: the browser never loads this file.

export interface PageConfig {
  shop: string | null;
  embedded: boolean;
  devSessionTokens: boolean;
  shops: string[];
  locale: string | null;
}

export type Status = 'pending' | 'needs_attention' | 'failed' | 'completed' | 'skipped';
export type StatusCounts = Record<Status | 'all', number>;

export interface Mapping {
  transactionDefaults: Record<string, string>;
  paymentForms: Record<string, string>;
  defaultPaymentForm: string;
  checkoutAttributes: Record<string, string>;
  defaultLocationCode: string;
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
  environment: 'pruebas' | 'produccion';
  settings: { environment: 'pruebas' | 'produccion'; branchCode: string; billingPoint: string; mapping: Mapping };
  credentials: Record<string, boolean> | null;
  complete: boolean;
  missing: string[];
  counts: StatusCounts;
  choices: Record<string, Record<string, string>>;
  defaultPaymentForms: Record<string, string>;
}

export interface ReasonProblem {
  code: string;
  message: string;
  messageEs?: string;
}

export interface InvoiceReason {
  kind: string;
  code: string | null;
  message: string;
  problems: ReasonProblem[];
}

export interface InvoiceSummary {
  id: string;
  orderName: string;
  orderGid: string;
  status: Status;
  step: string;
  authorized: boolean;
  totalCents: number;
  amount: string;
  currency: string;
  test: boolean;
  environment: 'pruebas' | 'produccion' | null;
  fiscalNumber: string | null;
  cufe: string | null;
  createdAt: string;
  authorizedAt: string | null;
  reason: InvoiceReason | null;
  notice: string | null;
}

export interface GatewayCall {
  id: number;
  operation: string;
  outcome: string;
  code: string | null;
  message: string | null;
  durationMs: number;
  at: string;
  request: unknown;
  response: unknown;
}

export interface InvoiceDetail extends InvoiceSummary {
  attempts: number;
  nextAttemptAt: string;
  branchCode: string | null;
  billingPoint: string | null;
  qr: string | null;
  protocol: string | null;
  receptionDateDgi: string | null;
  writtenBackAt: string | null;
  updatedAt: string;
  /** The gateway document as sent (see mappers/gateway-document.ts); read loosely. */
  document: GatewayDocument | null;
  pdfUrl: string | null;
  orderAdminUrl: string | null;
  retryable: boolean;
  calls: GatewayCall[];
}

/** The parts of the gateway document the page shows; the rest is shown as JSON. */
export interface GatewayDocument {
  listItems?: Record<string, string>[];
  totalsSubTotals?: Record<string, string>;
  dataTransaction?: { client?: Record<string, string> };
  [field: string]: unknown;
}

export interface PageContext {
  shop: ShopView;
  params: URLSearchParams;
  navigate(hash: string): void;
  refreshShop(): Promise<ShopView>;
  setShop(shop: ShopView): void;
  rerender(): Promise<void>;
}

export type Cleanup = () => void;

/** What App Bridge (cdn.shopify.com/shopifycloud/app-bridge.js) puts on window inside the admin. */
export interface AppBridge {
  idToken(): Promise<string>;
  config?: { locale?: string; shop?: string };
}

declare global {
  interface Window {
    shopify?: AppBridge;
  }
}
