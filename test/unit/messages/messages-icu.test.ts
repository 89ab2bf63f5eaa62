// The catalogue files themselves: every text parses as ICU MessageFormat, and the Spanish and English texts of a key
// name the same parameters — a misspelt one would otherwise print as nothing, since a missing parameter renders ''.
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { expect, it } from 'vitest';
import en from '../../../src/messages/en.json' with { type: 'json' };
import es from '../../../src/messages/es.json' with { type: 'json' };
import { format, render } from '../../../src/messages/catalogue.ts';
import { message } from '../../../src/messages/message.ts';

function names(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const e of elements) {
    if (e.type === TYPE.literal || e.type === TYPE.pound) continue;
    into.add(e.value);
    if (e.type === TYPE.select || e.type === TYPE.plural) for (const o of Object.values(e.options)) names(o.value, into);
  }
  return into;
}

const texts = (catalogue: Record<string, Record<string, string>>) =>
  Object.entries(catalogue).flatMap(([section, table]) => Object.entries(table).map(([key, text]) => [`${section}.${key}`, text] as const));

it('has the same keys in both languages, each naming the same parameters', () => {
  const spanish = new Map(texts(es));
  const english = texts(en);
  expect(english.map(([id]) => id).sort()).toEqual([...spanish.keys()].sort());
  expect(english.length).toBe(215);
  for (const [id, text] of english) {
    const params = [...names(parse(text, { ignoreTag: true, requiresOtherClause: true }))].sort();
    expect([id, params]).toEqual([id, [...names(parse(spanish.get(id)!, { ignoreTag: true, requiresOtherClause: true }))].sort()]);
  }
});

it("selects `none` for a missing or empty parameter, and prints numbers as String() does, '' when missing", () => {
  expect(render(message('rejected', { code: 1000, field: '', gatewayMessage: 'x' }), 'en')).toBe(
    'The gateway rejected the invoice (code 1000): x. Correct the data it names, then retry.',
  );
  expect(render(message('order_unreadable', { detail: 12345.5 }), 'es')).toBe(
    'Los datos del pedido enviados por Shopify no se pudieron leer (pedido: 12345.5). No se emitió factura; contacte al soporte de la app con el número de pedido.',
  );
  expect(render(message('order_unreadable', { where: 'none', detail: 'd' }), 'en')).toContain('(none: d)');
  expect(format('en', 'messages', 'toString', {})).toBeUndefined();
  expect(format('en', 'messages', 'no_such_key', {})).toBeUndefined();
});
