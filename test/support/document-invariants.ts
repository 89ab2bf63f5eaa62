// An independent check of docs/design.md §6 invariants 1–2 on a gateway document, in exact decimals (BigInt,
// millionths), sharing no code with the mapper. Returns the broken rules; empty when all hold.
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';

const RATE_PERCENT: Record<string, bigint> = { '00': 0n, '01': 7n, '02': 10n, '03': 15n };
const TWO_DECIMALS = /^\d+\.\d{2}$/;

/** "12.34" → 12340000n (millionths). */
export function micro(text: string): bigint {
  if (!TWO_DECIMALS.test(text)) throw new Error(`not a 2-decimal amount: ${text}`);
  const [whole, frac] = text.split('.') as [string, string];
  return BigInt(whole) * 1_000_000n + BigInt(frac) * 10_000n;
}

/** Amount text → cents as a number (test-side convenience). */
export function centsOf(text: string): number {
  return Number(micro(text) / 10_000n);
}

export function brokenInvariants(doc: GatewayDocument): string[] {
  const broken: string[] = [];
  const items = doc.listItems;
  let net = 0n;
  let tax = 0n;
  let total = 0n;
  items.forEach((it, i) => {
    const at = `item ${i + 1} (${it.code})`;
    for (const f of ['amount', 'priceUnit', 'priceUnitDiscount', 'priceItem', 'valueITBMS', 'totalValue'] as const) {
      if (!TWO_DECIMALS.test(it[f])) broken.push(`${at}: ${f} ${it[f]} is not a 2-decimal amount`);
    }
    if (broken.length > 0) return;
    const amount = micro(it.amount);
    const unit = micro(it.priceUnit);
    const discount = micro(it.priceUnitDiscount);
    const priceItem = micro(it.priceItem);
    const itbms = micro(it.valueITBMS);
    const percent = RATE_PERCENT[it.rateITBMS];
    if (percent === undefined) broken.push(`${at}: rate code ${it.rateITBMS}`);
    if (amount <= 0n) broken.push(`${at}: amount ${it.amount} not positive`);
    if (discount < 0n || (discount > 0n && discount >= unit))
      broken.push(`${at}: discount ${it.priceUnitDiscount} vs unit ${it.priceUnit}`);
    // Rule 2 exactly: amount × (unit − discount), both in millionths → 10⁻¹².
    if (priceItem * 1_000_000n !== amount * (unit - discount))
      broken.push(`${at}: priceItem ${it.priceItem} != ${it.amount} × (${it.priceUnit} − ${it.priceUnitDiscount})`);
    // Rule 3 within ±0.01: |itbms×100 − priceItem×percent| ≤ 0.01×100 (millionths × 100).
    const diff = itbms * 100n - priceItem * (percent ?? 0n);
    if ((diff < 0n ? -diff : diff) > 1_000_000n) broken.push(`${at}: valueITBMS ${it.valueITBMS} vs ${it.priceItem} × ${percent}%`);
    if (micro(it.totalValue) !== priceItem + itbms) broken.push(`${at}: totalValue ${it.totalValue} != priceItem + valueITBMS`);
    net += priceItem;
    tax += itbms;
    total += micro(it.totalValue);
  });
  if (broken.length > 0) return broken;
  const t = doc.totalsSubTotals;
  const paid = t.listFormPayment.reduce((acc, p) => acc + micro(p.valueFeePaid), 0n);
  const checks: [string, boolean][] = [
    ['totalPriceNet = Σ priceItem', micro(t.totalPriceNet) === net],
    ['totalITBMS = Σ valueITBMS', micro(t.totalITBMS) === tax],
    ['totalISC = 0.00', t.totalISC === '0.00'],
    ['totalAmountTaxed = totalITBMS + totalISC', micro(t.totalAmountTaxed) === tax],
    ['totalAllItems = Σ totalValue', micro(t.totalAllItems) === total],
    ['totalInvoice = totalAllItems', micro(t.totalInvoice) === total],
    ['totalValueReceived = Σ valueFeePaid', micro(t.totalValueReceived) === paid],
    ['totalValueReceived = totalInvoice', paid === total],
    ['nroItems = number of items', t.nroItems === String(items.length)],
    ['1 ≤ nroItems ≤ 1000', items.length >= 1 && items.length <= 1000],
    [
      'every payment positive or a single zero',
      t.listFormPayment.length >= 1 && t.listFormPayment.every((p) => micro(p.valueFeePaid) >= 0n),
    ],
    ['timePayment 1', t.timePayment === '1'],
  ];
  for (const [name, ok] of checks) if (!ok) broken.push(name);
  return broken;
}
