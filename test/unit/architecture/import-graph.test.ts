// Dependencies point down: the production code (src/, mappers/, webhooks/) read as an import graph, held to the
// layering the project promises. A failure names the imports that break it.
import { describe, expect, it } from 'vitest';
import { type ImportEdge, cycles, importEdges, sourceFiles, specifiers, unitOf } from '../../support/import-graph.ts';

const PRODUCTION = ['src', 'mappers', 'webhooks'];
const edges = importEdges(sourceFiles(PRODUCTION));
const local = edges.filter((e) => e.local);
const show = (list: readonly ImportEdge[]) => list.map((e) => `${e.from} -> ${e.to}`);

describe('the import graph of src/, mappers/ and webhooks/', () => {
  it('is read: every folder imports something of its own', () => {
    for (const folder of PRODUCTION) expect(local.some((e) => e.from.startsWith(`${folder}/`) && e.to.startsWith(`${folder}/`))).toBe(true);
  });

  it('has no cycle between folders (src/*, mappers/*, webhooks)', () => {
    const found = cycles(local.map((e) => [unitOf(e.from), unitOf(e.to)] as const)).map((units) => ({ units, ties: ties(units) }));
    expect(found).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(cycles(local.map((e) => [e.from, e.to] as const))).toEqual([]);
  });

  it('mappers/ imports nothing from src/ or webhooks/', () => {
    expect(show(local.filter((e) => e.from.startsWith('mappers/') && !e.to.startsWith('mappers/')))).toEqual([]);
  });

  it('src/db/schema.ts imports only from src/db/, mappers/ or packages', () => {
    const above = local.filter((e) => e.from === 'src/db/schema.ts' && !e.to.startsWith('src/db/') && !e.to.startsWith('mappers/'));
    expect(show(above)).toEqual([]);
  });

  it('nothing in production code imports the doubles, the tests or the benchmarks', () => {
    const outside = local.filter((e) => !PRODUCTION.some((folder) => e.to.startsWith(`${folder}/`)));
    expect(show(outside)).toEqual([]);
  });
});

/** The imports between the folders of a cycle, folder to folder, each with its files when they are few. */
function ties(units: readonly string[]): string[] {
  const between = new Map<string, ImportEdge[]>();
  for (const e of local) {
    const [a, b] = [unitOf(e.from), unitOf(e.to)];
    if (a === b || !units.includes(a) || !units.includes(b)) continue;
    between.set(`${a} -> ${b}`, [...(between.get(`${a} -> ${b}`) ?? []), e]);
  }
  return [...between].map(([pair, list]) => (list.length > 3 ? `${pair}: ${list.length} imports` : `${pair}: ${show(list).join(', ')}`));
}

describe('specifiers()', () => {
  it('finds static, type-only, re-exported and dynamic imports, and none in comments or strings', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "const d = await import('./d.ts');",
      "// import { e } from './e.ts';",
      'const f = "import { f } from \'./f.ts\'";',
      "import 'node:fs';",
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts', 'node:fs']);
  });
});

describe('cycles()', () => {
  it('finds each loop once, and no loop where arrows only point down', () => {
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
        ['d', 'e'],
        ['e', 'd'],
        ['f', 'f'],
      ]),
    ).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    expect(
      cycles([
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'c'],
      ]),
    ).toEqual([]);
  });
});
