// Which series the use case numbers a document in (docs/series.md): the shop's environment, the branch and point of the
// order's mapped Shopify location, else the shop's; and a number reserved for the other environment and never sent
// given up (a skip in its own series) before the document is numbered in the shop's environment.
import { beforeEach, describe, expect, it } from 'vitest';
import { issueStep } from '../../../src/documents/issue-document.ts';
import { answers, claimedInvoice, issuingShop, orderBody } from '../../support/issuing-factories.ts';
import { type IssuingWorld, issuingWorld } from '../../support/issuing-fakes.ts';

let world: IssuingWorld;
beforeEach(() => {
  world = issuingWorld();
});
const reserved = () => world.journal.filter(([name]) => name === 'store.reserveNumber' || name === 'store.releaseNumber');

describe('the series a document is numbered in', () => {
  it("an order sold at a mapped location: that location's branch and point, in the shop's environment", async () => {
    world.gateway.send.push(answers.authorized());
    const doc = claimedInvoice(orderBody('tax-exclusive', (o) => (o['location_id'] = 71000000002)));
    const shop = issuingShop({ environment: 'produccion', locations: { '71000000002': { branchCode: '0003', billingPoint: '002' } } });
    const out = await issueStep(doc, shop, world.deps);
    expect(reserved()).toEqual([['store.reserveNumber', { environment: 'produccion', branchCode: '0003', billingPoint: '002' }]]);
    expect(out.doc).toMatchObject({ branchCode: '0003', billingPoint: '002', environment: 'produccion' });
  });

  it("an order from an unmapped location, or none: the shop's branch and point", async () => {
    for (const location of [71000000009, null]) {
      world = issuingWorld();
      world.gateway.send.push(answers.authorized());
      const doc = claimedInvoice(orderBody('tax-exclusive', (o) => (o['location_id'] = location)));
      await issueStep(doc, issuingShop({ locations: { '71000000002': { branchCode: '0003', billingPoint: '002' } } }), world.deps);
      expect(reserved()).toEqual([['store.reserveNumber', { environment: 'pruebas', branchCode: '0000', billingPoint: '001' }]]);
    }
  });

  it('numbered for test, never sent, and the shop is in production now: that number given up, a production one taken', async () => {
    world.gateway.send.push(answers.authorized());
    const doc = claimedInvoice(orderBody('tax-exclusive'), {
      fiscalNumber: 17,
      branchCode: '0000',
      billingPoint: '001',
      environment: 'pruebas',
    });
    const out = await issueStep(doc, issuingShop({ environment: 'produccion' }), world.deps);
    expect(reserved()).toEqual([
      ['store.releaseNumber', 'numbered for pruebas, never sent; the shop switched to produccion'],
      ['store.reserveNumber', { environment: 'produccion', branchCode: '0000', billingPoint: '001' }],
    ]);
    expect(out.doc).toMatchObject({ fiscalNumber: 42, environment: 'produccion' });
  });

  it("numbered in the shop's own environment and never sent: keeps its number", async () => {
    const doc = claimedInvoice(orderBody('tax-exclusive'), {
      fiscalNumber: 17,
      branchCode: '0000',
      billingPoint: '001',
      environment: 'pruebas',
    });
    world.gateway.send.push(answers.authorized());
    const out = await issueStep(doc, issuingShop({ environment: 'pruebas' }), world.deps);
    expect(reserved()).toEqual([]);
    expect(out.doc.fiscalNumber).toBe(17);
  });

  it('holding a number never sent, and now nothing to invoice: that number given up as a recorded skip', async () => {
    const giftCardsOnly = orderBody('gift-card-line', (o) => {
      o.line_items = (o.line_items as { gift_card: boolean }[]).filter((l) => l.gift_card);
    });
    const doc = claimedInvoice(giftCardsOnly, { fiscalNumber: 6, branchCode: '0000', billingPoint: '001', environment: 'pruebas' });
    const out = await issueStep(doc, issuingShop(), world.deps);
    expect(reserved()).toEqual([['store.releaseNumber', 'reserved, never sent: the invoice stopped before sending (nothing_to_invoice)']]);
    expect(out.next).toMatchObject({ kind: 'skipped', reason: { key: 'nothing_to_invoice' } });
    expect(out.doc.fiscalNumber).toBeNull();
  });

  it('an invoice holding a number never sent, stopped for a person: keeps it, to be sent under it once fixed', async () => {
    const inEuros = orderBody('unknown-rate', (o) => {
      o.currency = 'EUR';
    });
    const doc = claimedInvoice(inEuros, { fiscalNumber: 6, branchCode: '0000', billingPoint: '001', environment: 'pruebas' });
    const out = await issueStep(doc, issuingShop(), world.deps);
    expect(reserved()).toEqual([]);
    expect(out.next).toMatchObject({ kind: 'attention', error: { message: { key: 'unsupported_currency' } } });
    expect(out.doc.fiscalNumber).toBe(6);
  });
});
