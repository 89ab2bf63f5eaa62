// Money, dates and codes as the merchant reads them. Money stays integer cents; no float touches it.

/** @type {Record<string, string>} */
const SYMBOL = { PAB: 'B/.', USD: 'USD' };

/** 7578, 'USD' → "USD 75.78"; 123456, 'PAB' → "B/. 1,234.56". @param {number} cents @param {string} currency */
export function formatMoney(cents, currency) {
  if (!Number.isSafeInteger(cents)) return '—';
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const units = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = String(abs % 100).padStart(2, '0');
  return `${negative ? '−' : ''}${SYMBOL[currency] ?? currency} ${units}.${rest}`;
}

/**
 * A decimal string of the gateway document ("45.00") with the currency; kept as text, never parsed to a float.
 * @param {unknown} text @param {string} currency
 */
export function formatDecimalText(text, currency) {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(String(text ?? ''));
  if (!match) return text ? String(text) : '—';
  return formatMoney(Number(match[1] + match[2]) * 100 + (match[1] ? -1 : 1) * Number(match[3]), currency);
}

/** Panama keeps UTC−05:00 all year (no daylight saving), as the server's date filters do. */
const PANAMA_OFFSET_MS = -5 * 3600_000;

/**
 * "2026-11-25T07:32:23Z" → "25/11/2026 02:32": the day as a CAFE writes it, in Panama's time whatever the
 * browser's zone. The pages say once, beside the dates, that they are Panama's.
 * @param {string | null | undefined} iso
 */
export function formatDateTime(iso) {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return String(iso);
  const d = new Date(ms + PANAMA_OFFSET_MS);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** The CUFE is 66 characters: its first and last ones are enough to recognise it in a list. @param {string | null} cufe */
export function shortCufe(cufe) {
  if (!cufe) return '—';
  return cufe.length > 20 ? `${cufe.slice(0, 10)}…${cufe.slice(-6)}` : cufe;
}

/**
 * A code table in code order: "01" before "10", "99" last (number-like keys would otherwise come first in
 * Object.entries, in numeric order, before the others).
 * @param {Record<string, string>} table
 * @returns {[string, string][]}
 */
export function entriesByCode(table) {
  return Object.entries(table).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
}
