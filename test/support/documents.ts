// Documents for tests: intake items and rows in the shape the store takes, and stored messages as text.
import type { documents } from '../../src/db/schema.ts';
import type { MappingProblem } from '../../mappers/mapping-problems.ts';
import type { NewDocument } from '../../src/documents/store/index.ts';
import { render } from '../../src/messages/catalogue.ts';
import type { Language } from '../../src/db/languages.ts';
import { asMessage, message } from '../../src/messages/message.ts';

/** An invoice as orders/paid brings it. */
export function newInvoice(o: {
  shop: string;
  orderGid: string;
  orderName: string;
  totalCents: number;
  currency?: string;
  test?: boolean;
  rawOrder?: string;
}): NewDocument {
  return {
    shop: o.shop,
    kind: 'invoice',
    sourceKey: o.orderGid,
    documentType: '01',
    orderGid: o.orderGid,
    orderName: o.orderName,
    totalCents: o.totalCents,
    currency: o.currency ?? 'USD',
    test: o.test ?? false,
    rawSnapshot: o.rawOrder ?? '{}',
  };
}

type Insert = typeof documents.$inferInsert;

/** A documents row to insert directly: an invoice keyed by its order unless told otherwise. */
export function invoiceRow(values: Omit<Insert, 'sourceKey'> & { sourceKey?: string }): Insert {
  return { ...values, sourceKey: values.sourceKey ?? values.orderGid };
}

/** A stored reason as the text the merchant reads (English unless told). */
export function lastErrorText(row: { lastError: unknown }, language: Language = 'en'): string | null {
  const m = asMessage(row.lastError);
  return m ? render(m, language) : null;
}

/** A reason as stored before the catalogue (plain text), for rows a test writes by hand. */
export function legacyMessage(text: string) {
  return message('legacy', { text });
}

type Problems = readonly MappingProblem[];
type WithTexts<T> = T extends Problems
  ? ProblemWithTexts[]
  : T extends { ok: false; problems: Problems }
    ? { ok: false; problems: ProblemWithTexts[] }
    : T;
interface ProblemWithTexts {
  code: string;
  message: string;
  messageEs: string;
  path?: string;
}

/** Mapping problems with their catalogue texts, to compare with what a merchant reads. */
export function withTexts<T>(value: T): WithTexts<T> {
  const texts = (list: Problems): ProblemWithTexts[] =>
    list.map((p) => {
      const m = message(p.code, p.params);
      return { code: p.code, message: render(m, 'en'), messageEs: render(m, 'es'), ...(p.path === undefined ? {} : { path: p.path }) };
    });
  if (Array.isArray(value)) return texts(value as Problems) as WithTexts<T>;
  if (value && typeof value === 'object' && 'ok' in value && value.ok === false && 'problems' in value) {
    return { ...value, problems: texts((value as { problems: Problems }).problems) } as WithTexts<T>;
  }
  return value as WithTexts<T>;
}
