import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parseCufe } from '../../../mappers/fiscal/cufe.ts';
import { gatewayCalls, documents, webhookDeliveries } from '../../../src/db/schema.ts';
import { readPdfText } from '../../../src/documents/pdf-cufe.ts';
import { testDatabases } from '../../../sim/harness/databases.ts';
import { waitFor } from '../../../sim/harness/harness.ts';
import { harnessForShop } from '../../support/harness-blocks.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

const SHOP = 'tienda-e2e.myshopify.com';

describe.each(testDatabases)('paid order to authorized invoice, end to end on $name', (target) => {
  const run = harnessForShop(target, SHOP);

  it('signs orders/paid, authorizes the invoice, serves its PDF and writes the metafields', async () => {
    // 2 × 24.50 at 7 % + 18.00 exempt + 5.00 shipping at 7 %: 49.00 + 3.43 + 18.00 + 5.00 + 0.35 = 75.78
    const order = makePaidOrder({ id: 5_900_000_000_101, shippingCents: 500 });
    const gid = 'gid://shopify/Order/5900000000101';

    const delivery = await run.h.simulator.orderPaid(SHOP, order, run.h.webhookAddress);
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.body)).toEqual({ outcome: 'stored' });

    const invoice = await waitFor(
      async () => {
        const [row] = await run.database.db.select().from(documents).where(eq(documents.orderGid, gid));
        return row?.status === 'completed' ? row : undefined;
      },
      20_000,
      'the invoice to complete',
    );

    expect(invoice).toMatchObject({
      shop: SHOP,
      step: 'done',
      fiscalNumber: 1,
      branchCode: '0000',
      billingPoint: '001',
      totalCents: 7578,
      environment: 'pruebas',
    });
    const cufe = parseCufe(invoice.cufe!);
    expect(cufe).toMatchObject({ fiscalNumber: '0000000001', billingPoint: '001', branch: '0000', environment: '2' });

    // The gateway issued exactly one document, for the amount paid.
    const issued = run.h.sandbox.gateway.documents();
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ cufe: invoice.cufe, numberDocumentFiscal: '0000000001', totalInvoice: '75.78' });

    // Metafields on the simulated order, in the app's namespace.
    const fields = Object.fromEntries(run.h.simulator.metafields(gid).map((m) => [m.key, m]));
    expect(Object.keys(fields).sort()).toEqual(['authorized_at', 'buyer_url', 'cufe', 'fiscal_number', 'pdf_url', 'protocol', 'qr_url']);
    expect(fields.cufe!.value).toBe(invoice.cufe);
    expect(fields.qr_url!.value).toBe(invoice.qr);
    expect(fields.qr_url!.value).toMatch(/^https:\/\/dgi-fep-test\.mef\.gob\.pa:40001\/Consultas\/FacturasPorQR\?chFE=FE01/);
    expect(fields.fiscal_number!.value).toBe('0000-001-0000000001');
    expect(fields.protocol!.value).toBe(invoice.protocol);

    // The PDF link opens: a PDF that shows this invoice's CUFE.
    const pdfUrl = fields.pdf_url!.value;
    expect(pdfUrl).toMatch(new RegExp(`^${run.h.app.url}/invoices/[A-Za-z0-9_-]{32}\\.pdf$`));
    const response = await fetch(pdfUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="factura-0000-001-0000000001.pdf"');
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await readPdfText(pdf)).cufes).toEqual([invoice.cufe]);

    // Anything else under /invoices is a 404.
    expect((await fetch(`${run.h.app.url}/invoices/${'A'.repeat(32)}.pdf`)).status).toBe(404);
    expect((await fetch(`${run.h.app.url}/invoices/not-a-token.pdf`)).status).toBe(404);

    // Audit trail: the delivery and each gateway call, with no credential in them.
    const deliveries = await run.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderGid, gid));
    expect(deliveries.map((d) => d.outcome)).toEqual(['stored']);
    const calls = await run.database.db.select().from(gatewayCalls).where(eq(gatewayCalls.documentId, invoice.id));
    expect(calls.map((c) => [c.operation, c.code])).toEqual([
      ['SendDocument', '200'],
      ['DownloadPDF', '200'],
    ]);
    expect(JSON.stringify(calls)).not.toContain('sandbox-token');
  });
});
