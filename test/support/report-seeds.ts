// Authorized documents written straight into the documents table, for the reports' tests of what the database
// reads (series, gaps, environments, months, quoting) without running the pipeline.
import type { Db } from '../../src/db/database.ts';
import { documents } from '../../src/db/schema.ts';
import { formatCents } from '../../mappers/fiscal/money.ts';

export interface SeedDocument {
  shop: string;
  number: number;
  /** '01' invoice, '04' credit note. */
  type?: '01' | '04';
  environment?: 'produccion' | 'pruebas';
  authorizedAt: string | null;
  status?: 'completed' | 'needs_attention' | 'pending';
  /** [rate code, base cents, ITBMS cents] per item. */
  items?: [string, number, number][];
  clientName?: string;
  ruc?: string;
  referencedCufe?: string;
  branchCode?: string;
  billingPoint?: string;
}

/** The gateway document as the app stores it (only the fields the reports read, with the gateway's names). */
export function storedDocument(d: SeedDocument) {
  const items = d.items ?? [['01', 1000, 70]];
  const total = items.reduce((s, [, b, t]) => s + b + t, 0);
  return {
    codeBranchIssuer: d.branchCode ?? '0000',
    dataTransaction: {
      typeDocument: d.type ?? '01',
      client: {
        typeClientEB: d.ruc ? '01' : '02',
        ...(d.ruc ? { numberRUC: d.ruc, digitCheckRUC: '59' } : {}),
        businessName: d.clientName ?? 'Ana Pérez',
        country: 'PA',
      },
      ...(d.referencedCufe ? { listDocsFiscalReferenced: [{ cufeFEReferenced: d.referencedCufe }] } : {}),
    },
    listItems: items.map(([rateITBMS, base, itbms]) => ({
      rateITBMS,
      priceItem: formatCents(base),
      valueITBMS: formatCents(itbms),
      totalValue: formatCents(base + itbms),
    })),
    totalsSubTotals: { totalInvoice: formatCents(total) },
  };
}

export async function seedDocuments(db: Db, seeds: SeedDocument[]): Promise<void> {
  await db.insert(documents).values(
    seeds.map((d) => {
      const type = d.type ?? '01';
      const env = d.environment ?? 'produccion';
      const key = `${env}-${type}-${d.number}-${d.branchCode ?? '0000'}`;
      const authorized = d.authorizedAt !== null;
      return {
        shop: d.shop,
        kind: type === '04' ? ('credit_note' as const) : ('invoice' as const),
        sourceKey: `gid://shopify/Order/${key}`,
        orderGid: `gid://shopify/Order/${key}`,
        orderName: `#${key}`,
        documentType: type,
        status: d.status ?? (authorized ? 'completed' : 'needs_attention'),
        step: authorized ? ('done' as const) : ('send' as const),
        totalCents: 0,
        currency: 'USD',
        snapshot: {},
        environment: env,
        branchCode: d.branchCode ?? '0000',
        billingPoint: d.billingPoint ?? '001',
        fiscalNumber: d.number,
        document: storedDocument(d),
        cufe: authorized ? `FE${type}-${key}` : null,
        authorizedAt: authorized ? new Date(d.authorizedAt!) : null,
      };
    }),
  );
}
