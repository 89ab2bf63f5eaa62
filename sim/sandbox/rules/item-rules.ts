// 201: one line of `listItems`: formats (docs/reference/panama-fe.md §3.12), the ITBMS code and the per-line arithmetic of §5.
import { checkCode, ITBMS_PERCENT } from './code-tables.ts';
import { abs, CENT_MICRO, formatScaled, MICRO, toMicro } from './decimal.ts';
import { checkFormat, checkOptionalStrings, firstOf, present, rule, type Json, type RuleProblem } from './rule-problem.ts';

// Numeric formats (§3.12): item amounts montoTipo06, quantities montoTipo31.
const ITEM_AMOUNT = /^\d{1,9}\.\d{2,6}$/;
const QUANTITY = /^\d{1,9}(?:\.\d{1,6})?$/;
const ITEM_AMOUNT_FIELDS = ['priceUnit', 'priceUnitDiscount', 'priceItem', 'valueITBMS', 'totalValue'] as const;

export function checkItem(item: Json, line: number): RuleProblem | undefined {
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
