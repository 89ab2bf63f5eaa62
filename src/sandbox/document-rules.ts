// The sandbox gateway's document validation: what the real gateway (and the DGI behind it) would
// reject, as code 109 (required field missing) or 201 (any other rule, message naming the rule).
// Sources: spec/gateway-api.md, reference/panama-fe.md §3 (codes, formats), §5 (arithmetic).
// Pure: no I/O, the clock is a parameter. All arithmetic on BigInt in exact decimal units.
import { isValidRucCheckDigit } from '../../mappers/ruc-check-digit.ts';
import { CREDENTIAL_FIELDS } from '../gateway/gateway-types.ts';

export interface RuleProblem {
  code: '109' | '201';
  message: string;
  /** The gateway field name as the gateway would name it (bare, e.g. `priceItem`). */
  fieldName: string;
}

type Json = Record<string, unknown>;
type Check = () => RuleProblem | undefined;

const PREFIX = 'Error al procesar solicitud: ';

// ---------------------------------------------------------------------------------------------
// Code tables (reference §3.1–§3.10)

const CODES = {
  environment: ['1', '2'],
  typeEmission: ['01', '02', '03', '04'],
  typeDocument: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'],
  natureOperation: ['01', '02', '03', '04', '10', '11', '12', '13', '14', '20', '21'],
  typeOperation: ['1', '2'],
  destinationOperation: ['1', '2'],
  formatCAFE: ['1', '2', '3'],
  deliveryCAFE: ['1', '2', '3'],
  shippingContainer: ['1', '2'],
  processGeneration: ['1', '2', '3', '4', '5'],
  typeSale: ['1', '2', '3', '4'],
  typeClientEB: ['01', '02', '03', '04'],
  typeTaxpayer: ['1', '2'],
  rateITBMS: ['00', '01', '02', '03'],
  formPaymentInvoice: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '99'],
  timePayment: ['1', '2', '3'],
} as const satisfies Record<string, readonly string[]>;

/** ITBMS rate in percent per `rateITBMS` code (§3.9). */
export const ITBMS_PERCENT: Readonly<Record<string, bigint>> = { '00': 0n, '01': 7n, '02': 10n, '03': 15n };

const DATA_TRANSACTION_FIELDS = [
  'typeEmission',
  'typeDocument',
  'numberDocumentFiscal',
  'pointBillingFiscal',
  'dateBroadcast',
  'natureOperation',
  'typeOperation',
  'destinationOperation',
  'formatCAFE',
  'deliveryCAFE',
  'shippingContainer',
  'processGeneration',
  'typeSale',
] as const;
const ITEM_FIELDS = [
  'description',
  'code',
  'amount',
  'priceUnit',
  'priceUnitDiscount',
  'priceItem',
  'rateITBMS',
  'valueITBMS',
  'totalValue',
] as const;
const TOTALS_FIELDS = [
  'totalPriceNet',
  'totalITBMS',
  'totalAmountTaxed',
  'totalInvoice',
  'totalValueReceived',
  'timePayment',
  'nroItems',
  'totalAllItems',
] as const;
const PAYMENT_FIELDS = ['formPaymentInvoice', 'valueFeePaid'] as const;
/** Client fields the taxpayer and government types must carry (§3.6). */
const CLIENT_FIELDS_WITH_RUC = ['typeTaxpayer', 'numberRUC', 'digitCheckRUC', 'businessName', 'address'] as const;
const RUC_FIELDS = ['typeTaxpayer', 'numberRUC', 'digitCheckRUC'] as const;

// Numeric formats (§3.12): totals montoTipo01, item amounts montoTipo06, quantities montoTipo31.
const TOTAL_AMOUNT = /^\d{1,11}\.\d{2}$/;
const ITEM_AMOUNT = /^\d{1,9}\.\d{2,6}$/;
const QUANTITY = /^\d{1,9}(?:\.\d{1,6})?$/;
const ITEM_AMOUNT_FIELDS = ['priceUnit', 'priceUnitDiscount', 'priceItem', 'valueITBMS', 'totalValue'] as const;
const TOTAL_AMOUNT_FIELDS = [
  'totalPriceNet',
  'totalITBMS',
  'totalAmountTaxed',
  'totalInvoice',
  'totalValueReceived',
  'totalAllItems',
] as const;

// Formats of the numbering and client fields (§3.6–§3.8, §3.11).
const DATE_BROADCAST = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CODE_LOCATION = /^[1-9]\d?-[1-9]\d?-[1-9]\d?$/;
const COUNTRY = /^[A-Z]{2}$/;
const MAX_FUTURE_MS = 2 * 24 * 60 * 60 * 1000;
const MAX_ITEMS = 1000;
const MAX_PAYMENTS = 10;

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Validate a SendDocument request body (parsed JSON, any shape). Returns the FIRST problem found,
 * in this order: required fields (109), then codes and formats, client rules, per-item rules,
 * totals and payments (201). `now` decides the "no more than 2 days in the future" rule.
 */
export function validateSendDocument(request: unknown, now: Date = new Date()): RuleProblem | undefined {
  return firstOf(
    () => checkRequired(request),
    () => checkRules(request as Json, now),
  );
}

/** 109 for a missing credential; used by every operation before the token is checked. */
export function checkCredentialsPresent(request: unknown): RuleProblem | undefined {
  const body = asObject(request);
  return firstOf(...CREDENTIAL_FIELDS.map((f) => () => requireString(body, f)));
}

/** 109 for a missing `documentData` field of DownloadPDF / StatusDocument (`serialDevice` may be empty). */
export function checkDocumentDataPresent(request: unknown): RuleProblem | undefined {
  const body = asObject(request);
  const data = asObject(body?.documentData);
  if (data === undefined) return missing('documentData');
  const fields = ['codeBranchIssuing', 'numberDocumentFiscal', 'pointBillingFiscal', 'typeDocument', 'typeEmission'];
  return firstOf(...fields.map((f) => () => requireString(data, f)));
}

// ---------------------------------------------------------------------------------------------
// 109: required fields

function checkRequired(request: unknown): RuleProblem | undefined {
  const body = asObject(request);
  if (body === undefined) return missing('document');
  const document = asObject(body.document);
  const data = asObject(document?.dataTransaction);
  const client = asObject(data?.client);
  const totals = asObject(document?.totalsSubTotals);
  return firstOf(
    () => checkCredentialsPresent(body),
    () => requireString(body, 'identifierControlShipping'),
    () => requireString(body, 'environment'),
    () => (document === undefined ? missing('document') : undefined),
    () => requireString(document, 'codeBranchIssuer'),
    () => (data === undefined ? missing('dataTransaction') : undefined),
    ...DATA_TRANSACTION_FIELDS.map((f) => () => requireString(data, f)),
    () => (client === undefined ? missing('client') : undefined),
    () => requireString(client, 'typeClientEB'),
    () => requireString(client, 'country'),
    () => checkClientRequiredByType(client!),
    () => requireNonEmptyArray(document!, 'listItems'),
    () => firstOf(...(document!.listItems as unknown[]).map((item) => () => checkItemRequired(item))),
    () => (totals === undefined ? missing('totalsSubTotals') : undefined),
    ...TOTALS_FIELDS.map((f) => () => requireString(totals, f)),
    () => optionalString(totals, 'totalISC'),
    () => requireNonEmptyArray(totals!, 'listFormPayment'),
    () => firstOf(...(totals!.listFormPayment as unknown[]).map((p) => () => checkPaymentRequired(p))),
  );
}

function checkClientRequiredByType(client: Json): RuleProblem | undefined {
  const type = client.typeClientEB;
  if (type !== '01' && type !== '03') return undefined;
  return firstOf(...CLIENT_FIELDS_WITH_RUC.map((f) => () => requireString(client, f)));
}

function checkItemRequired(value: unknown): RuleProblem | undefined {
  const item = asObject(value);
  if (item === undefined) return invalid('listItems', 'tipo inválido: cada elemento de listItems debe ser un objeto');
  return firstOf(...ITEM_FIELDS.map((f) => () => requireString(item, f)));
}

function checkPaymentRequired(value: unknown): RuleProblem | undefined {
  const payment = asObject(value);
  if (payment === undefined) return invalid('listFormPayment', 'tipo inválido: cada elemento de listFormPayment debe ser un objeto');
  return firstOf(...PAYMENT_FIELDS.map((f) => () => requireString(payment, f)));
}

// ---------------------------------------------------------------------------------------------
// 201: codes, formats, client, items, totals (every required string is known to be present here)

function checkRules(body: Json, now: Date): RuleProblem | undefined {
  const document = body.document as Json;
  const data = document.dataTransaction as Json;
  const client = data.client as Json;
  const items = document.listItems as Json[];
  const totals = document.totalsSubTotals as Json;
  const payments = totals.listFormPayment as Json[];
  return firstOf(
    () => checkCode(body, 'environment'),
    () => checkFormat(document, 'codeBranchIssuer', /^[A-Za-z0-9]{4}$/, 'debe tener exactamente 4 caracteres alfanuméricos'),
    () => checkDataTransaction(data, now),
    () => checkClient(client, data),
    () => (items.length > MAX_ITEMS ? rule('2001', 12, 'listItems', `${items.length} ítems; el máximo es ${MAX_ITEMS}`) : undefined),
    ...items.map((item, i) => () => checkItem(item, i + 1)),
    () => checkTotalsFormats(totals),
    () =>
      payments.length > MAX_PAYMENTS
        ? invalid('listFormPayment', `listFormPayment tiene ${payments.length} formas de pago; el máximo es ${MAX_PAYMENTS}`)
        : undefined,
    ...payments.map((p, i) => () => checkPayment(p, i + 1)),
    () => checkTotalsArithmetic(items, totals, payments),
  );
}

function checkOptionalStrings(container: Json, fields: readonly string[]): RuleProblem | undefined {
  return firstOf(...fields.map((f) => () => optionalString(container, f)));
}

function checkDataTransaction(data: Json, now: Date): RuleProblem | undefined {
  return firstOf(
    () => checkCode(data, 'typeEmission'),
    () => checkCode(data, 'typeDocument'),
    () => checkFormat(data, 'numberDocumentFiscal', /^(?!0{10})\d{10}$/, 'debe tener exactamente 10 dígitos y no ser todo ceros (§3.11)'),
    () => checkFormat(data, 'pointBillingFiscal', /^(?!000)\d{3}$/, 'debe tener exactamente 3 dígitos y no ser 000 (§3.11)'),
    () => checkDateBroadcast(data.dateBroadcast as string, now),
    () => checkCode(data, 'natureOperation'),
    () => checkCode(data, 'typeOperation'),
    () => checkCode(data, 'destinationOperation'),
    () => checkCode(data, 'formatCAFE'),
    () => checkCode(data, 'deliveryCAFE'),
    () => checkCode(data, 'shippingContainer'),
    () => checkCode(data, 'processGeneration'),
    () => checkCode(data, 'typeSale'),
  );
}

/** `YYYY-MM-DDThh:mm:ss±hh:mm`, a real calendar instant, not more than 2 days ahead of `now` (1520). */
export function checkDateBroadcast(text: string, now: Date): RuleProblem | undefined {
  const instant = parseDateBroadcast(text);
  if (instant === undefined) {
    return invalid(
      'dateBroadcast',
      `formato inválido: dateBroadcast "${text}" debe ser YYYY-MM-DDThh:mm:ss±hh:mm (con zona horaria, sin fracciones, ej. 2026-04-10T09:30:00-05:00)`,
    );
  }
  if (instant - now.getTime() > MAX_FUTURE_MS) {
    return rule('1520', undefined, 'dateBroadcast', `dateBroadcast ${text} está más de 2 días en el futuro`);
  }
  return undefined;
}

/** Epoch milliseconds of a dateBroadcast, or undefined when the text is not a valid instant. */
export function parseDateBroadcast(text: string): number | undefined {
  const m = DATE_BROADCAST.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second, , offH, offM] = m.slice(1).map((s) => Number(s));
  const sign = m[7] === '-' ? -1 : 1;
  if (month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59 || second! > 59) return undefined;
  if (offH! > 14 || offM! > 59) return undefined;
  const local = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  if (new Date(local).getUTCDate() !== day) return undefined; // e.g. 2026-02-30
  return local - sign * (offH! * 60 + offM!) * 60_000;
}

function checkClient(client: Json, data: Json): RuleProblem | undefined {
  const type = client.typeClientEB as string;
  const country = client.country as string;
  return firstOf(
    () => checkCode(client, 'typeClientEB'),
    () =>
      checkOptionalStrings(client, [
        'typeTaxpayer',
        'numberRUC',
        'digitCheckRUC',
        'businessName',
        'address',
        'codeLocation',
        'province',
        'district',
        'correction',
        'telephone1',
        'email1',
      ]),
    () => checkFormat(client, 'country', COUNTRY, 'debe ser un código ISO de 2 letras mayúsculas (§3.8)'),
    () =>
      data.destinationOperation === '1' && country !== 'PA'
        ? rule('1611', undefined, 'country', `country "${country}" debe ser PA cuando destinationOperation es 1`)
        : undefined,
    () =>
      data.destinationOperation === '2' && country === 'PA'
        ? rule('1612', undefined, 'country', 'country no puede ser PA cuando destinationOperation es 2')
        : undefined,
    () => (type === '04' ? checkForeignClient(client) : undefined),
    () => (present(client.typeTaxpayer) ? checkCode(client, 'typeTaxpayer') : undefined),
    () => (type === '01' || type === '03' ? checkClientWithRuc(client) : undefined),
    () => checkLength(client, 'businessName', 2, 200),
    () => checkLength(client, 'address', type === '01' || type === '03' ? 5 : 1, 100),
    () => (present(client.email1) ? checkFormat(client, 'email1', EMAIL, 'no es una dirección de correo válida') : undefined),
    () => checkLength(client, 'email1', 3, 100),
    () =>
      present(client.codeLocation)
        ? checkFormat(
            client,
            'codeLocation',
            CODE_LOCATION,
            'debe ser provincia-distrito-corregimiento, números sin ceros de relleno (ej. 8-8-7)',
          )
        : undefined,
    () => checkLength(client, 'codeLocation', 5, 8),
  );
}

/** A foreign client (04) carries no RUC group: HKA answers a generic 201 when it does (§3.6, S15). */
function checkForeignClient(client: Json): RuleProblem | undefined {
  const sent = RUC_FIELDS.find((f) => present(client[f]));
  if (sent === undefined) return undefined;
  return invalid(sent, `regla §3.6 cliente extranjero: typeClientEB 04 no debe llevar ${sent}`);
}

function checkClientWithRuc(client: Json): RuleProblem | undefined {
  const ruc = client.numberRUC as string;
  const dv = client.digitCheckRUC as string;
  if (!/^\d{2}$/.test(dv)) {
    return invalid('digitCheckRUC', `formato inválido: digitCheckRUC "${dv}" debe tener 2 dígitos`);
  }
  if (!isValidRucCheckDigit(ruc, dv)) {
    return rule('1601', undefined, 'digitCheckRUC', `digitCheckRUC ${dv} no es el dígito verificador del RUC ${ruc}`);
  }
  return undefined;
}

function checkItem(item: Json, line: number): RuleProblem | undefined {
  const description = item.description as string;
  return firstOf(
    () => checkOptionalStrings(item, ['codeGTIN', 'cantGTINCom', 'codeGTINInv', 'cantGTINComInv']),
    () =>
      [...description].length < 2 || [...description].length > 500
        ? rule('2000', 14, 'description', `item ${line}: description debe tener de 2 a 500 caracteres (tiene ${[...description].length})`)
        : undefined,
    () => checkFormat(item, 'amount', QUANTITY, 'debe ser una cantidad con 0 a 6 decimales (§3.12)', line),
    ...(['cantGTINCom', 'cantGTINComInv'] as const).map(
      (f) => () =>
        present(item[f]) ? checkFormat(item, f, QUANTITY, 'debe ser una cantidad con 0 a 6 decimales (§3.12)', line) : undefined,
    ),
    ...ITEM_AMOUNT_FIELDS.map((f) => () => checkFormat(item, f, ITEM_AMOUNT, 'debe ser un monto con 2 a 6 decimales (§3.12)', line)),
    () => checkCode(item, 'rateITBMS', line),
    () => checkItemArithmetic(item, line),
  );
}

/** Rules 14 (quantity), 1, 2, 3, 4 of §5 for one line. */
function checkItemArithmetic(item: Json, line: number): RuleProblem | undefined {
  const amount = toMicro(item.amount as string);
  const priceUnit = toMicro(item.priceUnit as string);
  const discount = toMicro(item.priceUnitDiscount as string);
  const priceItem = toMicro(item.priceItem as string);
  const valueITBMS = toMicro(item.valueITBMS as string);
  const totalValue = toMicro(item.totalValue as string);
  const percent = ITBMS_PERCENT[item.rateITBMS as string]!;
  const at = `item ${line}: `;

  if (amount <= 0n) return rule('2000', 14, 'amount', `${at}amount ${item.amount as string} debe ser mayor que 0`);
  // A zero discount is "not sent"; any sent discount must be below the unit price (also rules out a
  // discount on a non-valued item).
  if (discount > 0n && discount >= priceUnit) {
    return rule(
      '2051',
      1,
      'priceUnitDiscount',
      `${at}priceUnitDiscount ${item.priceUnitDiscount as string} debe ser menor que priceUnit ${item.priceUnit as string}`,
    );
  }
  // amount × net price is in 10⁻¹² units; priceItem (10⁻⁶) must equal it exactly.
  const expectedPriceItem = amount * (priceUnit - discount);
  if (priceItem * MICRO !== expectedPriceItem) {
    return rule(
      '2053',
      2,
      'priceItem',
      `${at}priceItem ${item.priceItem as string} != amount × (priceUnit − priceUnitDiscount) = ${formatScaled(expectedPriceItem, 12)}`,
    );
  }
  // valueITBMS within ±0.01 of priceItem × rate; compared ×100 to stay in integers.
  const diff = abs(valueITBMS * 100n - priceItem * percent);
  if (diff > CENT_MICRO * 100n) {
    return rule(
      '2152',
      3,
      'valueITBMS',
      `${at}valueITBMS ${item.valueITBMS as string} != priceItem × ${percent}% = ${formatScaled(priceItem * percent, 8)} (tolerancia ±0.01)`,
    );
  }
  if (totalValue !== priceItem + valueITBMS) {
    return rule(
      '2056',
      4,
      'totalValue',
      `${at}totalValue ${item.totalValue as string} != priceItem + valueITBMS = ${formatScaled(priceItem + valueITBMS, 6)}`,
    );
  }
  return undefined;
}

function checkTotalsFormats(totals: Json): RuleProblem | undefined {
  return firstOf(
    ...TOTAL_AMOUNT_FIELDS.map((f) => () => checkFormat(totals, f, TOTAL_AMOUNT, 'debe ser un monto con exactamente 2 decimales (§3.12)')),
    () =>
      present(totals.totalISC)
        ? checkFormat(totals, 'totalISC', TOTAL_AMOUNT, 'debe ser vacío o un monto con exactamente 2 decimales (§3.12)')
        : undefined,
    () => checkCode(totals, 'timePayment'),
    () => checkFormat(totals, 'nroItems', /^\d{1,4}$/, 'debe ser un número entero de ítems'),
  );
}

function checkPayment(payment: Json, index: number): RuleProblem | undefined {
  return firstOf(
    () => checkCode(payment, 'formPaymentInvoice', index, 'pago'),
    () => checkFormat(payment, 'valueFeePaid', TOTAL_AMOUNT, 'debe ser un monto con exactamente 2 decimales (§3.12)', index, 'pago'),
  );
}

/** Rules 12, 5, 6, 7, 8, 9, 10 of §5: every total the exact sum of its parts. */
function checkTotalsArithmetic(items: Json[], totals: Json, payments: Json[]): RuleProblem | undefined {
  const sum = (rows: Json[], field: string): bigint => rows.reduce((acc, r) => acc + toMicro(r[field] as string), 0n);
  const total = (field: string): bigint => toMicro(totals[field] as string);
  const nroItems = Number(totals.nroItems);
  const isc = present(totals.totalISC) ? total('totalISC') : 0n;
  const sums: [code: string, ruleNo: number, field: string, expected: bigint, formula: string][] = [
    ['2500', 5, 'totalPriceNet', sum(items, 'priceItem'), 'Σ priceItem'],
    ['2501', 6, 'totalITBMS', sum(items, 'valueITBMS'), 'Σ valueITBMS'],
    ['2503', 7, 'totalAmountTaxed', total('totalITBMS') + isc, present(totals.totalISC) ? 'totalITBMS + totalISC' : 'totalITBMS'],
    ['2514', 8, 'totalAllItems', sum(items, 'totalValue'), 'Σ totalValue'],
    ['2507', 9, 'totalInvoice', total('totalAllItems'), 'totalAllItems'],
    ['2510', 10, 'totalValueReceived', sum(payments, 'valueFeePaid'), 'Σ valueFeePaid'],
  ];
  return firstOf(
    () =>
      nroItems !== items.length || nroItems < 1 || nroItems > MAX_ITEMS
        ? rule('2513', 12, 'nroItems', `nroItems ${totals.nroItems as string} != número de ítems = ${items.length} (1 a ${MAX_ITEMS})`)
        : undefined,
    ...sums.map(
      ([code, ruleNo, field, expected, formula]) =>
        () =>
          total(field) !== expected
            ? rule(code, ruleNo, field, `${field} ${totals[field] as string} != ${formula} = ${formatScaled(expected, 6)}`)
            : undefined,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Exact decimals: strings already matched by a format regex → BigInt in 10⁻⁶ units.

const MICRO = 1_000_000n;
const CENT_MICRO = 10_000n;

/** "12.345" → 12345000n (10⁻⁶ units). Only called on text a format regex accepted. */
export function toMicro(text: string): bigint {
  const [whole = '0', frac = ''] = text.split('.');
  return BigInt(whole) * MICRO + BigInt(frac.padEnd(6, '0').slice(0, 6) || '0');
}

/** A non-negative or negative integer in 10^-scale units as a decimal with at least 2 decimals. */
export function formatScaled(value: bigint, scale: number): string {
  const sign = value < 0n ? '-' : '';
  const digits = abs(value)
    .toString()
    .padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits
    .slice(digits.length - scale)
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${sign}${whole}.${frac}`;
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function firstOf(...checks: Check[]): RuleProblem | undefined {
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A value that counts as sent: anything but undefined, null or a blank string. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

function missing(fieldName: string): RuleProblem {
  return { code: '109', message: `field ${fieldName} is required`, fieldName };
}

function invalid(fieldName: string, detail: string): RuleProblem {
  return { code: '201', message: `${PREFIX}${detail}`, fieldName };
}

/** 201 naming the DGI validation code and, when it has one, the rule number of reference §5. */
function rule(dgiCode: string, ruleNo: number | undefined, fieldName: string, detail: string): RuleProblem {
  const name = ruleNo === undefined ? `regla ${dgiCode}` : `regla ${dgiCode} (§5 regla ${ruleNo})`;
  return invalid(fieldName, `${name}: ${detail}`);
}

function requireString(container: Json | undefined, field: string): RuleProblem | undefined {
  const value = container?.[field];
  if (!present(value)) return missing(field);
  if (typeof value !== 'string') return invalid(field, `tipo inválido: ${field} debe ser texto (string JSON), no ${typeof value}`);
  return undefined;
}

function optionalString(container: Json | undefined, field: string): RuleProblem | undefined {
  const value = container?.[field];
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  return invalid(field, `tipo inválido: ${field} debe ser texto (string JSON), no ${typeof value}`);
}

function requireNonEmptyArray(container: Json, field: string): RuleProblem | undefined {
  const value = container[field];
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return missing(field);
  if (!Array.isArray(value)) return invalid(field, `tipo inválido: ${field} debe ser una lista`);
  return undefined;
}

function where(line: number | undefined, what: string): string {
  return line === undefined ? '' : ` (${what} ${line})`;
}

function checkCode(container: Json, field: keyof typeof CODES, line?: number, what = 'item'): RuleProblem | undefined {
  const value = container[field] as string;
  const table: readonly string[] = CODES[field];
  if (table.includes(value)) return undefined;
  return invalid(field, `código inválido: ${field} "${value}"${where(line, what)} no está en la tabla (${table.join(', ')})`);
}

function checkFormat(
  container: Json,
  field: string,
  pattern: RegExp,
  requirement: string,
  line?: number,
  what = 'item',
): RuleProblem | undefined {
  const value = container[field] as string;
  if (pattern.test(value)) return undefined;
  return invalid(field, `formato inválido${where(line, what)}: ${field} "${value}" ${requirement}`);
}

function checkLength(container: Json, field: string, min: number, max: number): RuleProblem | undefined {
  const value = container[field];
  if (!present(value)) return undefined;
  const length = [...(value as string)].length;
  if (length >= min && length <= max) return undefined;
  return invalid(field, `longitud inválida: ${field} debe tener de ${min} a ${max} caracteres (tiene ${length})`);
}
