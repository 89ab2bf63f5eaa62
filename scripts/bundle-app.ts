// `npm start` runs the app from one bundled file, dist/main.js, made here by esbuild in about a second. Loaded
// module by module, Node's ESM loader re-reads a package's package.json for every file of the package it loads, and
// drizzle-orm's is 179 KB (its exports map): importing it alone took 0.6 s and left ~150 MiB of garbage behind, a
// third of the app's memory after start-up (bench/RESULTS.md, "Memory of the app on PGlite"). Bundled, the app
// starts in a third of the time and that memory is never taken.
import path from 'node:path';
import { type BuildOptions, build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
export const BUNDLE = path.join(ROOT, 'dist', 'main.js');
export const APP_ENTRY = 'src/main.ts';

/** esbuild's options for one entry point (a path from the project's root) bundled into dist/<name>.js. */
export function bundleOptions(entry: string, name: string): BuildOptions & { outfile: string } {
  return {
    entryPoints: [path.join(ROOT, entry)],
    outfile: path.join(ROOT, 'dist', `${name}.js`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // PGlite loads its WebAssembly and data files from beside its own module, pdf.js its worker; pino may start worker
    // threads from its files; pg tries pg-native and goes on without it. The demo (sim/) is loaded by a path esbuild
    // does not follow (src/main.ts), so neither it nor its packages are bundled. exceljs and archiver (the accountant's
    // XLSX and ZIP, src/reports/) are imported on first use: bundled, they made the file 70 % larger for every start.
    external: ['@electric-sql/pglite', 'pdfjs-dist', 'pino', 'pg-native', 'exceljs', 'archiver'],
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    // Stack traces name the bundle's lines; `NODE_OPTIONS=--enable-source-maps` maps them back to src/.
    sourcemap: 'linked',
    logLevel: 'warning',
  };
}

/** Bundle one entry point (a path from the project's root) into dist/<name>.js; returns the bundle's path. */
export async function bundle(entry: string, name: string): Promise<string> {
  const options = bundleOptions(entry, name);
  await build(options);
  return options.outfile;
}

export async function bundleApp(): Promise<void> {
  await bundle(APP_ENTRY, 'main');
}

if (import.meta.main) await bundleApp();
