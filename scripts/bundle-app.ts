// `npm start` runs the app from one bundled file, dist/main.js, made here by esbuild in about a second. Loaded
// module by module, Node's ESM loader re-reads a package's package.json for every file of the package it loads, and
// drizzle-orm's is 179 KB (its exports map): importing it alone took 0.6 s and left ~150 MiB of garbage behind, a
// third of the app's memory after start-up (bench/RESULTS.md, "Memory of the app on PGlite"). Bundled, the app
// starts in a third of the time and that memory is never taken.
import path from 'node:path';
import { type Plugin, build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
export const BUNDLE = path.join(ROOT, 'dist', 'main.js');

/** Bundle one entry point (a path from the project's root) into dist/<name>.js; returns the bundle's path. */
export async function bundle(entry: string, name: string, plugins: Plugin[] = []): Promise<string> {
  const outfile = path.join(ROOT, 'dist', `${name}.js`);
  await build({
    entryPoints: [path.join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // PGlite loads its WebAssembly and data files from beside its own module, pdf.js its worker; pino may start worker
    // threads from its files; pg tries pg-native and goes on without it.
    external: ['@electric-sql/pglite', 'pdfjs-dist', 'pino', 'pg-native'],
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    // Stack traces name the bundle's lines; `NODE_OPTIONS=--enable-source-maps` maps them back to src/.
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins,
  });
  return outfile;
}

/**
 * dist/main.js, what `npm start` runs (scripts/start.ts), and beside it dist/demo.js, the demo, which main.js loads
 * only when nothing is configured: the app's bundle holds none of the doubles nor the packages only they use
 * (graphql, pdf-lib, smtp-server, mailparser).
 */
export async function bundleApp(): Promise<void> {
  await bundle(DEMO_ENTRY, 'demo');
  await bundle('scripts/start.ts', 'main', [demoBesideIt]);
}

const DEMO_ENTRY = 'sim/demo/demo-setup.ts';

/** The app's import of the demo becomes an import of the demo's own bundle, next to it in dist/. */
const demoBesideIt: Plugin = {
  name: 'demo-beside-it',
  setup(build) {
    build.onResolve({ filter: /\/sim\/demo\/demo-setup\.ts$/ }, () => ({ path: './demo.js', external: true }));
  },
};

if (import.meta.main) await bundleApp();
