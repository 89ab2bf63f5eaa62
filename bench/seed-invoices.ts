// Authorized invoices put in place for a bench that measures what comes after them (the notes bench): each order
// stored, leased, numbered and completed through the document store's own statements (as the worker leaves an
// invoice), mapped by the app's mapper and authorized by the gateway it will reference, so the gateway knows the
// CUFE a note names. Nothing of this is timed.
import { numberDocument } from '../mappers/invoice/document-numbering.ts';
import { orderToDraft } from '../mappers/invoice/order-to-document.ts';
import { parseShopifyOrder } from '../mappers/shopify/shopify-order.ts';
import type { Database } from '../src/db/database.ts';
import { type DocumentRow, claimDue, finishLeased, insertBatch, reserveFiscalNumber } from '../src/documents/store/index.ts';
import { documentKey } from '../src/documents/issue-document.ts';
import { createGatewayClient } from '../src/gateway/gateway-client.ts';
import type { DocumentKey } from '../src/gateway/gateway-types.ts';
import { DEFAULT_SANDBOX_AUTH_TOKEN } from '../sim/sandbox/sandbox-gateway.ts';
import { createSecretBox } from '../src/shops/secret-box.ts';
import { ShopRepository } from '../src/shops/shop-repository.ts';

const OWNER = 'bench-seed';
const BATCH = 500;
const IN_FLIGHT = 32;

/**
 * Invoice each order of `shop` (its body as Shopify sent it) as authorized and written back. The gateway answers
 * without latency meanwhile (its fault settings are put back after). Returns how many were seeded.
 */
export async function seedAuthorizedInvoices(
  database: Database,
  o: { shop: string; key: Buffer; gatewayUrl: string; latencyMs: number; orders: readonly Record<string, unknown>[] },
): Promise<number> {
  const db = database.db;
  const shop = (await new ShopRepository(db, createSecretBox(o.key)).get(o.shop))!;
  const settings = shop.settings;
  const client = { baseUrl: o.gatewayUrl, authToken: DEFAULT_SANDBOX_AUTH_TOKEN, authScheme: 'bearer', timeoutMs: 30_000 } as const;
  const gateway = createGatewayClient(client);
  await setLatency(o.gatewayUrl, 0);
  let seeded = 0;
  let last: DocumentKey | undefined;
  try {
    for (let start = 0; start < o.orders.length; start += BATCH) {
      const orders = o.orders.slice(start, start + BATCH);
      await insertBatch(
        db,
        orders.map((order) => {
          const gid = `gid://shopify/Order/${String(order['id'])}`;
          return {
            document: {
              shop: o.shop,
              kind: 'invoice',
              sourceKey: gid,
              documentType: '01',
              orderGid: gid,
              orderName: String(order['name']),
              totalCents: Math.round(Number(order['total_price']) * 100),
              currency: 'USD',
              test: false,
              rawSnapshot: JSON.stringify(order),
            },
            delivery: { webhookId: `seed-${gid}`, eventId: undefined, topic: 'orders/paid', triggeredAt: undefined },
          };
        }),
      );
      // Until the batch is all taken: a claim may offer fewer than asked.
      for (;;) {
        const leased = await claimDue(db, { owner: OWNER, limit: BATCH, leaseMs: 600_000, shopLimit: BATCH, held: new Map() });
        if (leased.length === 0) break;
        seeded += await authorize(leased);
      }
    }
    // The sandbox draws each document's PDF at issue, one after the other on its PDF thread: wait for the last
    // invoice's, so the timed notes do not wait behind 10,000 invoices' PDFs.
    if (last) {
      const pdf = await createGatewayClient({ ...client, timeoutMs: 900_000 }).downloadPdf({ credentials: shop.credentials!, key: last });
      if (pdf.kind !== 'pdf') throw new Error(`seeding: the last invoice's PDF: ${pdf.kind}`);
    }
  } finally {
    await setLatency(o.gatewayUrl, o.latencyMs);
  }
  return seeded;

  async function authorize(leased: DocumentRow[]): Promise<number> {
    let done = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < leased.length) {
          const row = leased[next++]!;
          const numbering = { environment: settings.environment, branchCode: settings.branchCode, billingPoint: settings.billingPoint };
          const numbered = await reserveFiscalNumber(db, row, OWNER, 600_000, numbering);
          const parsed = parseShopifyOrder(row.snapshot);
          if (!numbered || !parsed.ok) throw new Error(`seeding ${row.orderGid}: not numbered or not readable`);
          const drafted = orderToDraft({ order: parsed.order, settings: settings.mapping });
          if (!drafted.ok) throw new Error(`seeding ${row.orderGid}: ${JSON.stringify(drafted.problems[0])}`);
          const now = new Date();
          const document = numberDocument(drafted.draft, { ...numbering, fiscalNumber: numbered.fiscalNumber! }, now);
          const sent = await gateway.sendDocument({ credentials: shop.credentials!, environment: settings.environment, document });
          if (sent.kind !== 'authorized') throw new Error(`seeding ${row.orderGid}: the gateway answered ${sent.kind}`);
          // Issued in this order, so its PDF was queued last so far.
          last = documentKey({ ...numbered, document });
          const finished = await finishLeased(db, row.id, OWNER, {
            status: 'completed',
            step: 'done',
            document,
            environment: settings.environment,
            sendMayHaveReached: true,
            totalCents: row.totalCents,
            cufe: sent.cufe,
            qr: sent.qr,
            protocol: sent.protocol,
            receptionDateDgi: sent.receptionDateDgi,
            authorizedAt: now,
            writtenBackAt: now,
          });
          if (!finished) throw new Error(`seeding ${row.orderGid}: lease lost`);
          done++;
        }
      }),
    );
    return done;
  }
}

async function setLatency(gatewayUrl: string, latencyMs: number): Promise<void> {
  const res = await fetch(`${gatewayUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ latencyMs }),
  });
  if (!res.ok) throw new Error(`the sandbox refused its latency: ${res.status}`);
}
