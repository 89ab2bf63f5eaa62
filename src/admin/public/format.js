// Money, dates and codes as the merchant reads them. Money stays integer cents; no float touches it.
import { language } from './i18n.js';

const SYMBOL = { PAB: 'B/.', USD: 'USD' };

/** 7578, 'USD' → "USD 75.78"; 123456, 'PAB' → "B/. 1,234.56". */
export function formatMoney(cents, currency) {
  if (!Number.isSafeInteger(cents)) return '—';
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const units = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = String(abs % 100).padStart(2, '0');
  return `${negative ? '−' : ''}${SYMBOL[currency] ?? currency} ${units}.${rest}`;
}

/** A decimal string of the gateway document ("45.00") with the currency; kept as text, never parsed to a float. */
export function formatDecimalText(text, currency) {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(String(text ?? ''));
  if (!match) return text ? String(text) : '—';
  return formatMoney(Number(match[1] + match[2]) * 100 + (match[1] ? -1 : 1) * Number(match[3]), currency);
}

function locale() {
  return language() === 'en' ? 'en-US' : 'es-PA';
}

/** Times are shown in Panama's time zone, the shop's, whatever the browser's is. */
export function formatDateTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return new Intl.DateTimeFormat(locale(), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'America/Panama',
  }).format(date);
}

/** The CUFE is 66 characters: its first and last ones are enough to recognise it in a list. */
export function shortCufe(cufe) {
  if (!cufe) return '—';
  return cufe.length > 20 ? `${cufe.slice(0, 10)}…${cufe.slice(-6)}` : cufe;
}
