// Every text a merchant, operator or buyer reads, in Spanish and English: why a document stopped and what to do,
// notices, mapping problems, the outbox's errors, the buyer's e-mail. The texts are data (es.json, en.json) in ICU
// MessageFormat, rendered with intl-messageformat; the admin API, the CLI and the logs render from here, and
// nothing stores or repeats the texts.
import {
  isLiteralElement,
  isPluralElement,
  isPoundElement,
  isSelectElement,
  type MessageFormatElement,
  parse,
} from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import type { DocumentStatus } from '../db/document-state.ts';
import type { Language } from '../db/languages.ts';
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import type { Localized, Message, MessageParams } from './message.ts';
import { withUpstreamReason } from './upstream-reason.ts';

/** Messages whose `reason` is an upstream failure's raw text. */
const UPSTREAM_KEYS = new Set(['unavailable', 'indeterminate', 'call_unreachable']);

// Typed as both files at once, so a text in one language and not in the other does not compile.
type Catalogue = typeof es & typeof en;
const CATALOGUES: Record<Language, Catalogue> = { es, en };

export type Section = keyof Catalogue;

interface Compiled {
  format: IntlMessageFormat;
  /** Every parameter the text names: a missing one is given as '' (intl-messageformat would throw). */
  args: ReadonlySet<string>;
}

// Each text is parsed once, when first rendered.
const compiled = new Map<string, Compiled>();

/**
 * `section.key` in `language`, or undefined when the catalogue has no such text. Parameters print as String() prints
 * them (no digit grouping) and a missing one prints as nothing.
 */
export function format(language: Language, section: Section, key: string, params: MessageParams): string | undefined {
  const table: Record<string, string> = CATALOGUES[language][section];
  if (!Object.hasOwn(table, key)) return undefined;
  const id = `${language}:${section}:${key}`;
  let text = compiled.get(id);
  if (!text) compiled.set(id, (text = compile(table[key]!, language)));
  const values: Record<string, string> = {};
  for (const name of text.args) values[name] = params[name] === undefined ? '' : String(params[name]);
  return text.format.format<string>(values) as string;
}

function compile(source: string, language: Language): Compiled {
  const ast = parse(source, { ignoreTag: true, requiresOtherClause: true });
  const args = new Set<string>();
  visit(ast, args);
  return { format: new IntlMessageFormat(ast, language), args };
}

/** Collects the parameters; a `select`'s case `none` becomes the case of the empty value, which ICU cannot name. */
function visit(elements: MessageFormatElement[], args: Set<string>): void {
  for (const element of elements) {
    if (isLiteralElement(element) || isPoundElement(element)) continue;
    args.add(element.value);
    if (isSelectElement(element) && element.options.none) {
      const { none, ...rest } = element.options;
      element.options = { '': none, ...rest };
    }
    if (isSelectElement(element) || isPluralElement(element)) {
      for (const option of Object.values(element.options)) visit(option.value, args);
    }
  }
}

/** A message in one language; an unknown key renders as its key and parameters (never nothing). */
export function render(m: Message, language: Language): string {
  // An upstream failure is told in the reader's words; its raw reason stays in the stored message for operators.
  const params = UPSTREAM_KEYS.has(m.key) ? withUpstreamReason(m.params) : m.params;
  const text = format(language, 'messages', m.key, params) ?? `${m.key} ${JSON.stringify(m.params)}`;
  return m.cause ? `${text} ${render(m.cause, language)}` : text;
}

export function localize(m: Message): Localized {
  return { es: render(m, 'es'), en: render(m, 'en') };
}

/** The headline per reason kind (error kinds and the queue's own states); `document` is the document's kind. */
export function reasonTitle(kind: string, document = 'invoice'): Localized {
  return localizeText('reasonTitles', kind, { document });
}

export function reasonAction(kind: string, status: DocumentStatus, document = 'invoice'): Localized {
  return localizeText('reasonActions', status === 'failed' ? 'failed' : kind, { document });
}

/** A reason's text, or the `unknown` one when the kind has none. */
function localizeText(section: Section, key: string, params: MessageParams): Localized {
  const text = (language: Language) => format(language, section, key, params) ?? format(language, section, 'unknown', params) ?? '';
  return { es: text('es'), en: text('en') };
}

/** Stored mapping problems, each with its text in both languages (older rows carry their own texts). */
export function localizeProblems(value: unknown): { code: string; path: string | undefined; text: Localized }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    if (!p || typeof p !== 'object') return [];
    const { code, params, path, message: en, messageEs: es } = p as Record<string, unknown>;
    if (typeof code !== 'string') return [];
    const where = typeof path === 'string' ? path : undefined;
    if (typeof en === 'string') return [{ code, path: where, text: { en, es: typeof es === 'string' ? es : en } }];
    const m = { key: code, params: (params && typeof params === 'object' ? params : {}) as MessageParams };
    return [{ code, path: where, text: localize(m) }];
  });
}
