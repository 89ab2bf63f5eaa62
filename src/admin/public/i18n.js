// The page's language: Spanish (the default) or English. A choice made with the page's switch wins and is
// kept in localStorage; otherwise the page follows the Shopify admin's language (App Bridge's
// `shopify.config.locale`, or the `locale` Shopify puts in the address).
// Texts may hold {placeholders}, filled by t(key, { placeholder: value }).
import { CODE_WORDS } from './code-words.js';
import { ACTION_WORDS_EN, ACTION_WORDS_ES } from './words-actions.js';
import { BACKFILL_WORDS_EN, BACKFILL_WORDS_ES } from './words-backfill.js';
import { BULK_WORDS_EN, BULK_WORDS_ES } from './words-bulk.js';
import { WORDS_EN } from './words-en.js';
import { WORDS_ES } from './words-es.js';
import { SERIES_WORDS_EN, SERIES_WORDS_ES } from './words-series.js';

/** @typedef {'es' | 'en'} Language */

const STORAGE_KEY = 'factura-pa.lang';

/** @type {Record<Language, Record<string, string>>} */
const dictionaries = {
  es: { ...WORDS_ES, ...ACTION_WORDS_ES, ...CODE_WORDS, ...SERIES_WORDS_ES, ...BULK_WORDS_ES, ...BACKFILL_WORDS_ES },
  en: { ...WORDS_EN, ...ACTION_WORDS_EN, ...SERIES_WORDS_EN, ...BULK_WORDS_EN, ...BACKFILL_WORDS_EN },
};

/** @returns {Language | undefined} */
function storedLanguage() {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'en' || value === 'es' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * 'en', 'en-US' → 'en'; any other admin language → Spanish, the language of the fiscal documents.
 * @param {string | null | undefined} locale
 * @returns {Language | undefined}
 */
export function languageOfLocale(locale) {
  if (!locale) return undefined;
  return locale.toLowerCase().split('-')[0] === 'en' ? 'en' : 'es';
}

/** @type {Language} */
let current = storedLanguage() ?? 'es';

/**
 * The admin's locale decides, unless the merchant chose with the switch.
 * @param {string | null | undefined} adminLocale
 */
export function followAdminLocale(adminLocale) {
  current = storedLanguage() ?? languageOfLocale(adminLocale) ?? 'es';
  document.documentElement.lang = current;
}

export function language() {
  return current;
}

/** The switch: the merchant's choice, remembered. @param {Language} lang */
export function setLanguage(lang) {
  current = lang === 'en' ? 'en' : 'es';
  document.documentElement.lang = current;
  try {
    localStorage.setItem(STORAGE_KEY, current);
  } catch {
    // Private mode: the choice lasts until the page closes.
  }
}

/** Whether the dictionary has a text for `key` (server codes may be newer than the page). @param {string} key */
export function has(key) {
  return key in dictionaries[current] || key in dictionaries.es;
}

/**
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 */
export function t(key, vars = {}) {
  const text = dictionaries[current][key] ?? dictionaries.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

document.documentElement.lang = current;
