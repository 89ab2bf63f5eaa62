// The buyer e-mail's parts on their own: the message a credit note makes, the buyer's language, the deliveryCAFE
// code a shop's delivery gives, the SMTP transport's failures (against a real SMTP server that repeats the password
// back), and the demo's taxpayer buyer.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMappingSettings, deliveryCafeCode, mappingSettingsSchema } from '../../../mappers/invoice/mapping-settings.ts';
import { isValidRucCheckDigit } from '../../../mappers/fiscal/ruc-check-digit.ts';
import { buyerEmail } from '../../../src/buyer-email/buyer-email.ts';
import { buyerLanguage, documentRecipient } from '../../../src/buyer-email/email-recipient.ts';
import { createMailer } from '../../../src/buyer-email/smtp-mailer.ts';
import { render } from '../../../src/messages/catalogue.ts';
import { message } from '../../../src/messages/message.ts';

const NOTE = {
  kind: 'credit_note' as const,
  orderName: '#1042',
  branchCode: '0000',
  billingPoint: '001',
  fiscalNumber: 7,
  totalCents: 1200,
  currency: 'USD',
  cufe: 'FE0420000155596713-2-2015-5900002026112500000000070010123784932441',
  qr: 'https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR?chFE=FE04…',
};

describe('the buyer’s e-mail', () => {
  const pdf = Buffer.from('%PDF-1.7 nota');
  const input = {
    doc: NOTE,
    pdf,
    shopName: 'Tienda\r\nBcc: x@evil.example',
    to: 'ana@example.com',
    from: 'facturas@example.com',
    emailId: 'e1',
  };

  it('says what a credit note is, in Spanish, with the PDF as given', () => {
    const email = buyerEmail({ ...input, language: 'es' });
    expect(email.from).toEqual({ name: 'Tienda Bcc: x@evil.example', address: 'facturas@example.com' });
    expect(email.subject).toBe('Nota de crédito 0000-001-0000000007 de Tienda Bcc: x@evil.example (pedido #1042)');
    expect(email.text).toContain(
      `Número fiscal: 0000-001-0000000007\nTotal: 12.00 USD\nCUFE: ${NOTE.cufe}\nConsulta en la DGI: ${NOTE.qr}`,
    );
    expect(email.messageId).toBe('<e1@example.com>');
    expect(email.attachments).toEqual([
      { filename: 'nota-de-credito-0000-001-0000000007.pdf', content: pdf, contentType: 'application/pdf' },
    ]);
  });

  it('and in English', () => {
    const email = buyerEmail({ ...input, shopName: 'Tienda', language: 'en' });
    expect(email.subject).toBe('Credit note 0000-001-0000000007 from Tienda (order #1042)');
    expect(email.text).toContain('Tienda sends you the credit note for your order #1042');
    expect(email.attachments?.[0]?.filename).toBe('credit-note-0000-001-0000000007.pdf');
  });

  it('is in English only when the buyer’s locale is, else Spanish', () => {
    expect(buyerLanguage({ customer_locale: 'en' })).toBe('en');
    expect(buyerLanguage({ customer_locale: 'EN-gb' })).toBe('en');
    expect(buyerLanguage({ customer_locale: 'es-PA', customer: { locale: 'en' } })).toBe('es');
    expect(buyerLanguage({ customer: { locale: 'en-US' } })).toBe('en');
    expect(buyerLanguage({ customer_locale: 'fr' })).toBe('es');
    expect(buyerLanguage({ customer_locale: 42, customer: null })).toBe('es');
    expect(buyerLanguage(undefined)).toBe('es');
  });

  it('goes to the client block’s address, and nowhere without one', () => {
    expect(documentRecipient({ document: { dataTransaction: { client: { email1: ' ana@example.com ' } } } })).toBe('ana@example.com');
    expect(documentRecipient({ document: { dataTransaction: { client: {} } } })).toBeUndefined();
    expect(documentRecipient({ document: null })).toBeUndefined();
  });

  it('has its reasons in the catalogue', () => {
    const failed = message('email_gave_up', {}, message('email_smtp_failed', { detail: 'ESOCKET connect ECONNREFUSED' }));
    expect(render(failed, 'en')).toBe(
      'Gave up after repeated failures. Use "Resend" once the cause is fixed. Last error: The mail server did not take the message (ESOCKET connect ECONNREFUSED); the app retries automatically.',
    );
    expect(render(message('email_no_pdf'), 'es')).toBe('El documento no tiene su PDF guardado; no hay nada que adjuntar.');
  });
});

describe('deliveryCAFE follows the shop’s delivery unless the merchant set a code', () => {
  const code = (input: object) => deliveryCafeCode(mappingSettingsSchema.parse(input));

  it('3 when the app or the provider e-mails the CAFE, 2 on paper, the merchant’s code otherwise', () => {
    expect(deliveryCafeCode(defaultMappingSettings)).toBe('3');
    expect(code({ cafeDelivery: 'provider_email' })).toBe('3');
    expect(code({ cafeDelivery: 'paper' })).toBe('2');
    expect(code({ cafeDelivery: 'paper', transactionDefaults: { deliveryCAFE: '1' } })).toBe('1');
    expect(code({ cafeDelivery: 'app_email', transactionDefaults: { deliveryCAFE: '2' } })).toBe('2');
    expect(mappingSettingsSchema.safeParse({ cafeDelivery: 'fax' }).error?.issues.map((i) => i.message)).toEqual([
      'cafeDelivery must be one of: app_email, provider_email, paper',
    ]);
  });
});

describe('the SMTP transport against a server that repeats the password back', () => {
  const PASS = 'Sup3r-secret-pass';
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      logger: false,
      closeTimeout: 100,
      onAuth: (auth, _session, callback) => callback(new Error(`no such login ${auth.username}/${auth.password}`)),
      onRcptTo: (address, _session, callback) =>
        callback(address.address.startsWith('gone@') ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const email = (to: string) => ({ from: 'facturas@example.com', to, subject: 's', text: 't' });

  it('describes a refused login without the password, as a failure to retry', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://mailer:${encodeURIComponent(PASS)}@127.0.0.1:${port}` });
    const sent = await mailer.send(email('ana@example.com'));
    mailer.close();
    expect(sent).toMatchObject({ ok: false, permanent: false });
    const detail = sent.ok ? '' : sent.detail;
    expect(detail).toMatch(/^EAUTH 535 .*no such login mailer\/\[redacted\]/);
    expect(detail).not.toContain(PASS);
    expect(mailer.server).toBe(`smtp://127.0.0.1:${port}`);
  });

  it('gives up on a recipient the server refuses for good', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}` });
    expect(await mailer.send(email('gone@example.com'))).toMatchObject({
      ok: false,
      permanent: true,
      detail: expect.stringMatching(/^EENVELOPE 550/),
    });
    mailer.close();
  });
});

describe('the demo’s taxpayer buyer', () => {
  it('has a RUC of its own, with a valid check digit', () => {
    const order = JSON.parse(fs.readFileSync(new URL('../../../sim/demo/orders/2-taxpayer-client.json', import.meta.url), 'utf8')) as {
      note_attributes: { name: string; value: string }[];
    };
    const attr = (name: string) => order.note_attributes.find((a) => a.name === name)?.value;
    expect(attr('ruc')).not.toBe('155596713-2-2015'); // the sandbox issuer's own RUC
    expect(isValidRucCheckDigit(attr('ruc')!, attr('dv')!)).toBe(true);
  });
});
