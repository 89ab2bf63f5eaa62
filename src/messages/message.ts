// A message for a merchant as data: a catalogue key and its parameters, stored as such (never as prose) and rendered
// in Spanish or English where it is shown (admin page, CLI, logs). The texts are in ./es.json and ./en.json.
import type { Language } from '../db/languages.ts';

export type MessageParams = Record<string, string | number>;

export interface Message<K extends string = string> {
  key: K;
  params: MessageParams;
  /** What the message wraps (e.g. the last error of a document that gave up). */
  cause?: Message;
}

/** Text in both languages, as the admin API returns it. */
export type Localized = Record<Language, string>;

export function message<K extends string>(key: K, params: MessageParams = {}, cause?: Message): Message<K> {
  return cause ? { key, params, cause } : { key, params };
}

/** A stored value read back as a message, or undefined when it is not one. */
export function asMessage(value: unknown): Message | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { key, params, cause } = value as Record<string, unknown>;
  if (typeof key !== 'string' || !params || typeof params !== 'object') return undefined;
  const inner = asMessage(cause);
  return message(key, params as MessageParams, inner);
}
