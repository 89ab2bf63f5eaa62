// Every text of the message catalogue, rendered in both languages and pinned in test/fixtures/messages-rendered.json
// (written from the catalogue as it was when the texts were TypeScript functions): moving the texts into data must
// not change a byte. The cases cover every key of every table, the credit-note and `field` variants, missing
// parameters, numbers as parameters (printed as String() prints them, no grouping), apostrophes and braces in
// values, and cause chains. Regenerate only on purpose: `npx vitest run test/unit/messages/messages-catalogue.test.ts -u`.
import { expect, it } from 'vitest';
import { DOCUMENT_STATUSES } from '../../../src/db/document-state.ts';
import { localize, localizeProblems, reasonAction, reasonTitle, render } from '../../../src/messages/catalogue.ts';
import { BUYER_EMAIL, type EmailFacts } from '../../../src/messages/email-texts.ts';
import { LANGUAGES } from '../../../src/db/languages.ts';
import { message, type Message, type MessageParams } from '../../../src/messages/message.ts';

const NOTE = { document: 'credit_note' };
const QUOTED = "it's {odd} '{x}' text";

/** Representative parameters per key; every key is also rendered with no parameters at all. */
const CASES: [string, MessageParams][] = [
  ['credentials', { gatewayMessage: 'Invalid token' }],
  ['rejected', { code: 'E102', gatewayMessage: 'RUC inválido' }],
  ['rejected', { ...NOTE, code: 102, gatewayMessage: QUOTED }],
  ['rejected', { code: 'E201', field: 'receptor.ruc' }],
  ['rejected', { ...NOTE, code: 201, field: 'dFechaEm' }],
  ['rejected', { code: 'E202', field: '', gatewayMessage: 'empty field' }],
  ['rejected', { document: 'export', code: 'E203', gatewayMessage: 'x' }],
  ['unavailable', { reason: 'HTTP 503' }],
  ['indeterminate', { reason: 'timeout after 30000 ms' }],
  ['exhausted', {}],
  ['unrecoverable', { number: 42 }],
  ['unrecoverable', { ...NOTE, number: 1234567 }],
  ['writeback', { detail: 'userErrors: [{"field":"value"}]' }],
  ['pdf_missing', { detail: 'HTTP 404' }],
  ['mapping', {}],
  ['order_unconfirmed', { detail: QUOTED }],
  ['test_order_in_production', {}],
  ['waiting_for_invoice', { orderName: '#1042' }],
  ['waiting_for_other_note', {}],
  ['credit_no_money_refunded', {}],
  ['credit_nothing_invoiced_refunded', {}],
  ['credit_everything_credited', {}],
  ['refund_pending', {}],
  ['no_invoice', { why: 'skipped' }],
  ['number_used_elsewhere', { number: 1000 }],
  ['recovered_after_lost_answer', { number: 10000 }],
  ['legacy', { text: QUOTED }],
  ['order_unreadable', { where: 'line_items[0].price', detail: 'not a number' }],
  ['order_unreadable', { where: '', detail: 'x' }],
  ['unsupported_currency', { currency: 'EUR' }],
  ['unsupported_tax_rate', { what: 'Camisa "XL"', rate: 7.5 }],
  ['unsupported_tax_rate', { what: "Kid's shirt", rate: 1000 }],
  ['ruc_unreadable', { text: '8-ABC' }],
  ['ruc_check_digit_missing', { ruc: '155596713-2-2015' }],
  ['ruc_check_digit_invalid', { ruc: '155596713-2-2015', dv: 7 }],
  ['taxpayer_name_missing', { ruc: '8-442-445' }],
  ['taxpayer_address_missing', { ruc: '8-442-445' }],
  ['foreign_destination', { country: 'CR' }],
  ['duties_not_supported', { amount: '12.00 USD' }],
  ['additional_fees_not_supported', { amount: 1500 }],
  ['cash_rounding_not_supported', { amount: '0.02 USD' }],
  ['nothing_to_invoice', {}],
  ['too_many_items', { count: 1001 }],
  ['too_many_items', { count: 1234567.5 }],
  ['amount_too_large', {}],
  ['tax_not_distributable', { charged: '1.07 USD' }],
  ['total_mismatch', { invoice: '10.00 USD', paid: '10.01 USD' }],
  ['transactions_missing', { gateways: 'manual, shopify_payments' }],
  ['payments_mismatch', { paid: -5, total: 0 }],
  ['refund_unreadable', { where: 'refund_line_items', detail: 'missing' }],
  ['refund_currency_unsupported', { currency: 'CRC' }],
  ['invoice_not_readable', { detail: 'no CUFE' }],
  ['refund_line_not_invoiced', { what: 'Gorra' }],
  ['refund_money_mismatch', { refunded: '5.00 USD', computed: '5.35 USD' }],
  ['refund_less_than_items', { refunded: '4.00 USD', items: '5.00 USD' }],
  ['refund_shipping_tax_unknown', {}],
  ['credit_exceeds_invoice', { credited: 3, invoiced: 2, scope: 'units', line: 'Gorra' }],
  ['credit_exceeds_invoice', { credited: '10.00 USD', invoiced: '9.00 USD', scope: 'base', rate: '7 %' }],
  ['credit_exceeds_invoice', { credited: '0.70 USD', invoiced: '0.63 USD', scope: 'itbms', rate: 7 }],
  ['credit_exceeds_invoice', { credited: '10.70 USD', invoiced: '9.63 USD', scope: 'total' }],
  ['credit_exceeds_invoice', { credited: '1.00 USD', invoiced: '0.50 USD', scope: 'other' }],
  ['credit_tax_not_distributable', { tax: '0.07 USD' }],
  ['unavailable', { reason: 'HTTP 503 with a body that is not JSON' }],
  ['unavailable', { reason: 'HTTP 401: the gateway refused the platform Authorization token (check GATEWAY_AUTH_TOKEN)' }],
  ['unavailable', { reason: 'Shopify, reading the order: HTTP 503' }],
  ['indeterminate', { reason: 'HTTP 502 without a gateway answer' }],
  ['call_unreachable', { reason: 'network error (ECONNRESET)' }],
  ['action_retry_queued', {}],
  ['action_retry_completed', {}],
  ['action_retry_skipped', {}],
  ['action_correct_credit_note', {}],
  ['action_correct_authorized', {}],
  ['action_correct_in_queue', {}],
  ['action_correct_skipped', {}],
  ['action_reissue_credit_note', {}],
  ['action_reissue_replaced', { number: '0000-001-0000000003' }],
  ['action_reissue_replaced', { number: '' }],
  ['action_reissue_not_authorized', {}],
  ['action_reissue_has_notes', { count: 1 }],
  ['action_reissue_has_notes', { count: 3 }],
  ['action_resend_not_authorized', {}],
  ['action_resend_no_mail', {}],
  ['action_resend_no_address', {}],
  ['bulk_not_found', {}],
  ['bulk_no_pdf', {}],
  ['client_ruc_unreadable', { text: '8-ABC' }],
  ['client_dv_invalid', { dv: '34', ruc: '155596713-2-2015' }],
  ['client_dv_format', {}],
  ['client_location_invalid', {}],
  ['client_email_invalid', {}],
  ['client_too_short', { field: 'address', min: 5 }],
  ['client_too_long', { field: 'name', max: 100 }],
  ['client_unknown_field', { field: 'phone' }],
  ['client_type_invalid', {}],
  ['client_field_invalid', { field: 'ruc' }],
  ['date_range_inverted', { from: '2026-03-02', to: '2026-03-01' }],
  ['email_smtp_failed', { detail: '421 try later' }],
  ['email_refused', { detail: '550 no such user' }],
  ['email_shop_name', { detail: 'HTTP 500' }],
  ['email_no_pdf', {}],
  ['email_gave_up', {}],
  ['backfill_day_format', { field: 'from' }],
  ['backfill_future', { field: 'to', day: '2026-12-01', today: '2026-11-20' }],
  ['backfill_reversed', { from: '2026-11-02', to: '2026-11-01' }],
  ['backfill_too_long', { days: 400, max: 366 }],
  ['backfill_shop_not_installed', { shop: 'tienda.myshopify.com' }],
  ['backfill_shop_disabled', { shop: 'tienda.myshopify.com' }],
  ['backfill_needs_all_orders', { earliest: '2026-09-21' }],
  ['backfill_running', { from: '2026-10-01', to: '2026-10-31' }],
  ['backfill_none_running', {}],
  ['backfill_no_access', { detail: 'HTTP 401' }],
  ['no_such_key', { a: 1, b: 'two' }],
];

const CAUSES: [string, Message][] = [
  ['exhausted ← rejected field', message('exhausted', {}, message('rejected', { code: 'E201', field: 'receptor.ruc' }))],
  [
    'exhausted ← exhausted ← unavailable',
    message('exhausted', {}, message('exhausted', {}, message('unavailable', { reason: 'ECONNREFUSED' }))),
  ],
  ['email_gave_up ← email_refused', message('email_gave_up', {}, message('email_refused', { detail: '550' }))],
  ['rejected ← unknown key', message('rejected', NOTE, message('no_such_key', {}))],
];

const KINDS = [
  ...['mapping', 'rejected', 'credentials', 'unavailable', 'indeterminate', 'unrecoverable', 'writeback', 'skipped'],
  ...['paused', 'disabled', 'unknown', 'order_unconfirmed', 'waiting', 'failed', 'no_such_kind'],
];
const DOCUMENTS = [undefined, 'invoice', 'credit_note', 'export'];

const FACTS: EmailFacts = {
  kind: 'invoice',
  shopName: "Ana's {Tienda}",
  orderName: '#1042',
  fiscalNumber: '0000-001-0000000042',
  total: '1234.50 USD',
  cufe: 'FE0120000155596713-2-2015-5900002026112500000000420010123784932441',
  qr: 'https://dgi-fep-test.mef.gob.pa:40001/Consultas/FacturasPorQR?chFE=FE01&iAmb=2',
};

function renderedAll() {
  const messages: Record<string, unknown> = {};
  const keys = [...new Set(CASES.map(([key]) => key))];
  const all: [string, Message][] = [
    ...CASES.map(([key, params]): [string, Message] => [`${key} ${JSON.stringify(params)}`, message(key, params)]),
    ...keys.map((key): [string, Message] => [`${key} (no parameters)`, message(key)]),
    ...CAUSES,
  ];
  for (const [name, m] of all) {
    expect(name in messages, name).toBe(false);
    messages[name] = Object.fromEntries(LANGUAGES.map((l) => [l, render(m, l)]));
    expect(localize(m)).toEqual(messages[name]);
  }

  const reasons: Record<string, unknown> = {};
  for (const kind of KINDS) {
    for (const document of DOCUMENTS) {
      const doc = document ?? '(default)';
      reasons[`title ${kind} ${doc}`] = document === undefined ? reasonTitle(kind) : reasonTitle(kind, document);
      for (const status of DOCUMENT_STATUSES) {
        reasons[`action ${kind} ${status} ${doc}`] =
          document === undefined ? reasonAction(kind, status) : reasonAction(kind, status, document);
      }
    }
  }

  const problems = localizeProblems([
    { code: 'ruc_check_digit_invalid', params: { ruc: '155596713-2-2015', dv: 7 }, path: 'note_attributes.ruc' },
    { code: 'too_many_items', params: { count: 1001 } },
    { code: 'nothing_to_invoice' },
    { code: 'foreign_destination', params: 'not an object' },
    { code: 'legacy_code', message: 'Old English text', messageEs: 'Texto antiguo', path: 'x' },
    { code: 'legacy_code', message: 'English only' },
    { code: 'unknown_problem', params: { n: 1 } },
    { message: 'no code' },
    null,
    'text',
  ]);
  const notProblems = [localizeProblems(undefined), localizeProblems({ code: 'too_many_items' })];

  const email: Record<string, unknown> = {};
  for (const language of LANGUAGES) {
    for (const kind of ['invoice', 'credit_note'] as const) {
      const texts = BUYER_EMAIL[language];
      const facts = { ...FACTS, kind, ...(kind === 'credit_note' ? { invoiceNumber: '0000-001-0000000041' } : {}) };
      email[`${language} ${kind}`] = {
        subject: texts.subject(facts),
        body: texts.body(facts),
        attachmentName: texts.attachmentName(facts),
      };
    }
  }
  const odd = { ...FACTS, fiscalNumber: '0000/001 #42ñ', shopName: '', cufe: '', qr: '' };
  email['es odd'] = {
    subject: BUYER_EMAIL.es.subject(odd),
    attachmentName: BUYER_EMAIL.es.attachmentName(odd),
    body: BUYER_EMAIL.es.body(odd),
  };
  email['en odd'] = {
    subject: BUYER_EMAIL.en.subject(odd),
    attachmentName: BUYER_EMAIL.en.attachmentName(odd),
    body: BUYER_EMAIL.en.body(odd),
  };

  return { messages, reasons, problems, notProblems, email };
}

it('renders every message, reason, problem and e-mail text exactly as pinned', async () => {
  await expect(`${JSON.stringify(renderedAll(), null, 2)}\n`).toMatchFileSnapshot('../../fixtures/messages-rendered.json');
});
