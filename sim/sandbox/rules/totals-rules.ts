// 201: `totalsSubTotals` and its payments: formats (docs/reference/panama-fe.md §3.10, §3.12) and the totals arithmetic of §5.
import { checkCode } from './code-tables.ts';
import { formatScaled, toMicro } from './decimal.ts';
import { checkFormat, firstOf, invalid, present, rule, type Json, type RuleProblem } from './rule-problem.ts';

/** Totals are montoTipo01 (§3.12). */
const TOTAL_AMOUNT = /^\d{1,11}\.\d{2}$/;
const TOTAL_AMOUNT_FIELDS = [
  'totalPriceNet',
  'totalITBMS',
  'totalAmountTaxed',
  'totalInvoice',
  'totalValueReceived',
  'totalAllItems',
] as const;
export const MAX_ITEMS = 1000;
const MAX_PAYMENTS = 10;

export function checkTotals(items: Json[], totals: Json): RuleProblem | undefined {
  const payments = totals.listFormPayment as Json[];
  return firstOf(
    () => checkTotalsFormats(totals),
    () =>
      payments.length > MAX_PAYMENTS
        ? invalid('listFormPayment', `listFormPayment tiene ${payments.length} formas de pago; el máximo es ${MAX_PAYMENTS}`)
        : undefined,
    ...payments.map((p, i) => () => checkPayment(p, i + 1)),
    () => checkTotalsArithmetic(items, totals, payments),
  );
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
