// `npm start` runs the app from one bundled file, dist/main.js, made here by esbuild in about a second. Loaded
// module by module, Node's ESM loader re-reads a package's package.json for every file of the package it loads, and
// drizzle-orm's is 179 KB (its exports map): importing it alone took 0.6 s and left ~150 MiB of garbage behind, a
// third of the app's memory after start-up (bench/RESULTS.md, "Memory of the app on PGlite"). Bundled, the app
// starts in a third of the time and that memory is never taken.
import fs from 'node:fs';
import path from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import writeFileAtomic from 'write-file-atomic';

const ROOT = path.resolve(import.meta.dirname, '..');
export const BUNDLE = path.join(ROOT, 'dist', 'main.js');
export const APP_ENTRY = 'src/main.ts';
export const CLI_ENTRY = 'src/cli/cli.ts';

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

/**
 * Bundle one entry point (a path from the project's root) into dist/<name>.js; returns the bundle's path. Each file
 * is written beside its place and renamed into it, so a process starting meanwhile (two `npm run cli` at once, say)
 * reads the old bundle or the new one, never half of one.
 */
export async function bundle(entry: string, name: string): Promise<string> {
  const options = bundleOptions(entry, name);
  const result = await build({ ...options, write: false });
  await fs.promises.mkdir(path.dirname(options.outfile), { recursive: true });
  // The map first: a bundle is never newer than its map.
  const files = result.outputFiles.sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
  for (const file of files) await writeFileAtomic(file.path, Buffer.from(file.contents));
  return options.outfile;
}

export async function bundleApp(): Promise<void> {
  await bundle(APP_ENTRY, 'main');
}

/** dist/cli.js, which `npm run cli` runs (scripts/cli.ts). */
export async function bundleCli(): Promise<void> {
  await bundle(CLI_ENTRY, 'cli');
}

/** What dist/cli.js is made of: the production code, its packages, and how it is bundled. */
const CLI_SOURCES = ['src', 'mappers', 'webhooks', 'package-lock.json', 'scripts/bundle-app.ts'];

/** dist/cli.js, bundled again first when missing or older than one of its sources (so an edit never runs stale). */
export async function currentCliBundle(): Promise<string> {
  const { outfile } = bundleOptions(CLI_ENTRY, 'cli');
  const built = fs.statSync(outfile, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined || newestChange(CLI_SOURCES.map((source) => path.join(ROOT, source))) > built) await bundleCli();
  return outfile;
}

/** The latest modification time (ms) of these paths and everything under them; 0 when none exists. */
export function newestChange(paths: readonly string[]): number {
  let newest = 0;
  for (const entry of paths) {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    newest = Math.max(newest, stat.mtimeMs); // a folder's own time changes when a file in it is deleted or renamed
    if (stat.isDirectory()) newest = Math.max(newest, newestChange(fs.readdirSync(entry).map((name) => path.join(entry, name))));
  }
  return newest;
}

if (import.meta.main) await bundleApp();
