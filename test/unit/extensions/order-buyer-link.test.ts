// The customer account's invoice block (extensions/order-buyer-link): what it shows from the app's order metafields,
// nothing before the invoice is authorized, only web links; its texts in both locales.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MetafieldEntry, invoiceLinks } from '../../../extensions/order-buyer-link/src/invoice-links.ts';
import { ROOT } from '../../support/paths.ts';

const ORDER = { type: 'order', id: 'gid://shopify/Order/1' };
const entry = (key: string, value: string, namespace = 'app--123456', target = ORDER): MetafieldEntry => ({
  target,
  metafield: { namespace, key, value },
});
const PAGE = 'https://factura-pa.example.com/d/0123456789012345678901234567890123456789abc';
const PDF = 'https://factura-pa.example.com/invoices/0123456789012345678901234567890a.pdf';

describe('the buyer’s invoice block', () => {
  it('shows the number, the PDF and the buyer’s page from the app’s order metafields', () => {
    const entries = [
      entry('fiscal_number', '0000-001-0000000002'),
      entry('pdf_url', PDF),
      entry('buyer_url', PAGE),
      entry('cufe', 'FE01…'),
    ];
    expect(invoiceLinks(entries)).toEqual({ fiscalNumber: '0000-001-0000000002', pdfUrl: PDF, pageUrl: PAGE });
    expect(invoiceLinks([entry('buyer_url', PAGE, '$app')])).toEqual({ fiscalNumber: null, pdfUrl: null, pageUrl: PAGE });
  });

  it('shows nothing before the app wrote the page (right after payment), nor another app’s or resource’s values', () => {
    expect(invoiceLinks(undefined)).toBeUndefined();
    expect(invoiceLinks([])).toBeUndefined();
    expect(invoiceLinks([entry('fiscal_number', '0000-001-0000000002')])).toBeUndefined();
    expect(invoiceLinks([entry('buyer_url', PAGE, 'custom')])).toBeUndefined();
    expect(invoiceLinks([entry('buyer_url', PAGE, '$app', { type: 'customer', id: 'gid://shopify/Customer/1' })])).toBeUndefined();
  });

  it('links only to the web', () => {
    expect(invoiceLinks([entry('buyer_url', 'javascript:alert(1)')])).toBeUndefined();
    expect(invoiceLinks([entry('buyer_url', 'http://factura-pa.example.com/d/x')])).toBeUndefined();
    expect(invoiceLinks([entry('buyer_url', 'http://localhost:3000/d/x')])?.pageUrl).toBe('http://localhost:3000/d/x');
    expect(invoiceLinks([entry('buyer_url', PAGE), entry('pdf_url', 'data:application/pdf,x')])?.pdfUrl).toBeNull();
  });

  it('has every text in Spanish and English', () => {
    const dir = path.join(ROOT, 'extensions', 'order-buyer-link', 'locales');
    const es = JSON.parse(fs.readFileSync(path.join(dir, 'es.default.json'), 'utf8')) as Record<string, string>;
    const en = JSON.parse(fs.readFileSync(path.join(dir, 'en.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(en)).toEqual(Object.keys(es));
    const source = fs.readFileSync(path.join(ROOT, 'extensions', 'order-buyer-link', 'src', 'InvoiceLinksBlock.tsx'), 'utf8');
    const used = [...source.matchAll(/\bt\('([a-zA-Z]+)'/g)].map((m) => m[1]);
    expect(new Set(used)).toEqual(new Set(Object.keys(es)));
  });
});
