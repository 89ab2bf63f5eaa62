// What the use case believes from the gateway (docs/gateway-checks.md), with fakes: authorizations that do not check
// out, PDFs of other documents, 102 without a confirmed holder or too often, 201 from an incident.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildCufe } from '../../../mappers/fiscal/cufe.ts';
import { issueStep } from '../../../src/documents/issue-document.ts';
import type { DocumentRow } from '../../../src/documents/store/index.ts';
import { render } from '../../../src/messages/catalogue.ts';
import { asMessage } from '../../../src/messages/message.ts';
import { DEFAULT_SANDBOX_ISSUER } from '../../../sim/sandbox/sandbox-access.ts';
import {
  AUTHORIZED,
  CUFE,
  answers,
  authorizedInvoice,
  claimedInvoice,
  gatewayPdf,
  issuingShop,
  orderBody,
  sentDocument,
} from '../../support/issuing-factories.ts';
import { type IssuingWorld, issuingWorld } from '../../support/issuing-fakes.ts';

let world: IssuingWorld;
beforeEach(() => {
  world = issuingWorld();
});
const step = (doc: DocumentRow) => issueStep(doc, issuingShop(), world.deps);
const claimed = () => claimedInvoice(orderBody('tax-exclusive'));
const cufeWith = (parts: Partial<Parameters<typeof buildCufe>[0]>) =>
  buildCufe({
    typeDocument: '01',
    taxpayerType: DEFAULT_SANDBOX_ISSUER.taxpayerType,
    ruc: DEFAULT_SANDBOX_ISSUER.ruc,
    dv: DEFAULT_SANDBOX_ISSUER.dv,
    branch: '0000',
    date: '20261120',
    fiscalNumber: '0000000042',
    billingPoint: '001',
    emissionType: '01',
    environment: '2',
    securityCode: '123456789',
    ...parts,
  });
const authorizedWith = (cufe: string) => ({ ...AUTHORIZED, cufe, qr: AUTHORIZED.qr.replace(CUFE, cufe) });
const reason = (t: { error?: { message: unknown } }) => render(asMessage(t.error?.message)!, 'en');

describe('an authorization is believed only when it checks out', () => {
  it.each([
    ['66 × X', 'X'.repeat(66), 'cufe_format'],
    ['a wrong check digit', CUFE.slice(0, -1) + String((Number(CUFE.at(-1)) + 1) % 10), 'cufe_format'],
    ['another number', cufeWith({ fiscalNumber: '0000000561' }), 'cufe_other_document'],
    ['another billing point', cufeWith({ billingPoint: '002' }), 'cufe_other_document'],
    ['a credit note', cufeWith({ typeDocument: '04' }), 'cufe_other_document'],
    ['production', cufeWith({ environment: '1' }), 'cufe_other_document'],
    ['another day', cufeWith({ date: '20261119' }), 'cufe_other_document'],
  ])('a CUFE of %s: needs attention, the number kept, nothing advanced', async (_name, cufe, check) => {
    world.gateway.send.push({ ...authorizedWith(cufe) });
    const out = await step(claimed());
    expect(out.next).toMatchObject({ kind: 'attention', error: { kind: 'unverified', code: check } });
    expect(out.doc).toMatchObject({ fiscalNumber: 42, sendMayHaveReached: true, cufe: null });
    expect(reason(out.next as never)).toContain('0000-001-0000000042');
  });

  it("a CUFE another document of the shop holds, or naming another issuer than the shop's: needs attention", async () => {
    world.store.cufeHolders.set(CUFE, 'another-document');
    world.gateway.send.push(answers.authorized());
    expect((await step(claimed())).next).toMatchObject({ kind: 'attention', error: { code: 'cufe_duplicate' } });
    world = issuingWorld();
    world.store.issuerCufe = cufeWith({ ruc: '155646463-2-2017', dv: '86', fiscalNumber: '0000000001' });
    world.gateway.send.push(answers.authorized());
    expect((await step(claimed())).next).toMatchObject({ kind: 'attention', error: { code: 'cufe_issuer' } });
  });

  it('a QR naming another CUFE, a reception time that is not one, a protocol that is not one: needs attention', async () => {
    const lies = {
      qr: { ...AUTHORIZED, qr: AUTHORIZED.qr.replace(CUFE, cufeWith({ securityCode: '999999999' })) },
      reception_date: { ...AUTHORIZED, receptionDateDgi: 'ayer' },
      protocol: { ...AUTHORIZED, protocol: 'Authorization: Bearer x' },
    };
    for (const [check, answer] of Object.entries(lies)) {
      world = issuingWorld();
      world.gateway.send.push(answer);
      expect((await step(claimed())).next).toMatchObject({ kind: 'attention', error: { kind: 'unverified', code: check } });
    }
  });

  it('the right CUFE: on to the PDF', async () => {
    world.gateway.send.push(answers.authorized());
    expect((await step(claimed())).next).toMatchObject({ kind: 'advance', to: 'pdf', patch: { cufe: CUFE } });
  });
});

describe("a PDF is kept only when it prints this document's CUFE", () => {
  it("another document's PDF: fetched again once, then a person looks; never advanced", async () => {
    const other = await gatewayPdf(sentDocument('tax-inclusive'));
    const doc = authorizedInvoice('tax-exclusive', 'pdf', { cufe: cufeWith({ securityCode: '111111111' }) });
    world.gateway.pdf.push(answers.pdf(other), answers.pdf(other));
    const first = await step(doc);
    expect(first.next).toMatchObject({ kind: 'retry', error: { kind: 'unavailable', code: 'pdf_mismatch' } });
    expect(reason(first.next as never)).toContain(`it prints CUFE ${CUFE}`);
    const second = await step({ ...doc, lastErrorCode: 'pdf_mismatch' });
    expect(second.next).toMatchObject({ kind: 'attention', error: { kind: 'unverified', code: 'pdf_mismatch' } });
  });
});

/** A PDF printing these texts, one a line. */
async function pdfPrinting(...lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([800, 400]);
  lines.forEach((line, i) => page.drawText(line, { x: 20, y: 360 - 20 * i, size: 9, font }));
  return Buffer.from(await pdf.save());
}

describe("a PDF that prints this CUFE and another document's is not this document's", () => {
  it("an invoice handed its credit note's PDF (which prints the invoice's CUFE too): fetched again", async () => {
    const notes = await pdfPrinting(`CUFE ${cufeWith({ typeDocument: '04', fiscalNumber: '0000000001' })}`, `Referencia ${CUFE}`);
    const doc = authorizedInvoice('tax-exclusive', 'pdf');
    world.gateway.pdf.push(answers.pdf(notes), answers.pdf(await pdfPrinting(`CUFE ${CUFE}`)));
    expect((await step(doc)).next).toMatchObject({ kind: 'retry', error: { code: 'pdf_mismatch' } });
    expect((await step(doc)).next).toMatchObject({ kind: 'advance', to: 'writeback' });
  });
});

describe('102 for a number the app never sent', () => {
  const sent = () => claimed();
  it('StatusDocument confirms a document holds it: skipped', async () => {
    world.gateway.send.push(answers.duplicate());
    world.gateway.status.push(answers.statusAuthorized());
    expect((await step(sent())).next).toEqual({ kind: 'skip_number', number: '0000-001-0000000042' });
  });

  it('StatusDocument knows no such document: not skipped, retried', async () => {
    world.gateway.send.push(answers.duplicate());
    world.gateway.status.push(answers.statusOther());
    expect((await step(sent())).next).toMatchObject({ kind: 'retry', error: { code: '102', message: { key: 'duplicate_unconfirmed' } } });
  });

  it('after three skips for the document: a person decides, StatusDocument not even asked', async () => {
    world.store.skips = 3;
    world.gateway.send.push(answers.duplicate());
    expect((await step(sent())).next).toMatchObject({
      kind: 'attention',
      error: { kind: 'unrecoverable', code: '102', message: { key: 'too_many_skips', params: { count: 4 } } },
    });
  });
});

describe('201: the document’s fault only when it repeats while others are authorized', () => {
  it('while nothing is authorized between its 201s: an incident, waited out without counting', async () => {
    let authorizing = false;
    world.deps.pulse = { authorizedSince: () => authorizing };
    const first = await (async () => {
      world.gateway.send.push(answers.rejected('201'));
      return step(claimed());
    })();
    expect(first.next).toMatchObject({ kind: 'retry', patch: { repeated201: 1 } });
    let doc: DocumentRow = { ...first.doc, repeated201: 1, last201At: world.clock.now };
    for (let i = 0; i < 5; i++) {
      world.clock.now = new Date(world.clock.now.getTime() + 1000);
      world.gateway.send.push(answers.rejected('201'));
      const out = await step(doc);
      expect(out.next).toMatchObject({ kind: 'wait', reason: { key: 'gateway_incident' } });
      doc = { ...out.doc, lastError: (out.next as { reason: unknown }).reason, last201At: world.clock.now };
    }
    // Once others are authorized again, its own 201s count: the third is its fault.
    authorizing = true;
    world.gateway.send.push(answers.rejected('201'), answers.rejected('201'));
    const second = await step(doc);
    expect(second.next).toMatchObject({ kind: 'retry', patch: { repeated201: 2 } });
    expect((await step({ ...doc, repeated201: 2 })).next).toMatchObject({ kind: 'attention', error: { code: '201' } });
  });
});
