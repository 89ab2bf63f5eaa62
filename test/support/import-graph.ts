// The production code's import graph, read from the files as they are: every import, export … from, import() and
// import type, found by TypeScript's own pre-processor (comments and strings do not fool it, as a regex would be).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './paths.ts';

/** One import: the importing file and what it names, both as paths from the project's root (a package: its name). */
export interface ImportEdge {
  from: string;
  to: string;
  /** False for a package or Node's own module. */
  local: boolean;
}

const SOURCE = /\.(ts|tsx|js|mjs)$/;

/** Every source file under the given top-level folders, as paths from the root with '/' separators. */
export function sourceFiles(folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (SOURCE.test(entry.name)) files.push(relative);
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}

/** The imports of each file; a relative one resolved to the file it names (a path that names no file throws). */
export function importEdges(files: readonly string[]): ImportEdge[] {
  return files.flatMap((from) => {
    return specifiers(fs.readFileSync(path.join(ROOT, from), 'utf8')).map((fileName): ImportEdge => {
      if (!fileName.startsWith('.')) return { from, to: fileName, local: false };
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), fileName));
      if (!fs.existsSync(path.join(ROOT, to))) throw new Error(`${from} imports ${fileName}, which is no file`);
      return { from, to, local: true };
    });
  });
}

/** What a module's text imports, in order: static, type-only, re-exported and import() alike. */
export function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The unit a file belongs to when folders are compared: its folder one level under the top (src/documents,
 * mappers/fiscal), a file lying directly in src/ or mappers/ on its own, and webhooks/ (flat) as one.
 */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'webhooks') return 'webhooks';
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
}

/** The cycles of a directed graph: each strongly connected component of more than one node, sorted. */
export function cycles(edges: ReadonlyArray<readonly [string, string]>): string[][] {
  const next = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    if (!next.has(b)) next.set(b, new Set());
    next.get(a)!.add(b);
  }
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
