// The bundles `npm start` runs for a configured app (dist/main.js) and `npm run cli` runs (dist/cli.js) hold production
// code only: none of the doubles in
// sim/ and none of the packages only they use. The demo is loaded from source at run time (src/main.ts), so the
// file it names must be there. Read from esbuild's metafile: every input file and every import left outside.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY, CLI_ENTRY, bundleOptions } from '../../../scripts/bundle-app.ts';
import { ROOT } from '../../support/paths.ts';

/**
 * Used only by the doubles (the store simulator's GraphQL, the demo's mail catcher). Not pdf-lib: it draws the
 * sandbox's PDFs and reads the app's (src/documents/pdf-strings.ts).
 */
const DOUBLES_PACKAGES = ['graphql', 'smtp-server', 'mailparser'];

describe('the production bundle', () => {
  it('holds no file of sim/ and none of the packages only the doubles use, and the demo it loads at run time exists', async () => {
    const result = await build({ ...bundleOptions(APP_ENTRY, 'main'), write: false, metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint !== undefined);
    const leftOutside = output!.imports.filter((i) => i.external).map((i) => i.path);
    const packageOf = (file: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];

    // Sanity: the metafile names the app's own files and packages, so an empty answer below means something.
    expect(inputs).toContain('src/main.ts');
    expect(inputs.map(packageOf)).toContain('@shopify/shopify-api');

    expect(inputs.filter((f) => f.startsWith('sim/') || f.includes('/sim/'))).toEqual([]);
    expect(inputs.filter((f) => DOUBLES_PACKAGES.includes(packageOf(f) ?? ''))).toEqual([]);
    expect(
      leftOutside.filter((p) => DOUBLES_PACKAGES.some((name) => p === name || p.startsWith(`${name}/`)) || p.includes('sim/')),
    ).toEqual([]);

    // The demo module main.ts imports by path when there is no configuration.
    const text = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    expect(text).toContain('"sim", "demo", "demo-setup.ts"');
    expect(existsSync(path.join(ROOT, 'sim', 'demo', 'demo-setup.ts'))).toBe(true);
  });

  it('the CLI: no file of sim/ and none of the packages only the doubles use', async () => {
    const result = await build({ ...bundleOptions(CLI_ENTRY, 'cli'), write: false, metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    const packageOf = (file: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
    // Its commands are imported on use, and bundled all the same.
    expect(inputs).toEqual(expect.arrayContaining(['src/cli/cli.ts', 'src/cli/backfill-command.ts', 'src/cli/reports-command.ts']));
    expect(inputs.filter((f) => f.startsWith('sim/') || f.includes('/sim/'))).toEqual([]);
    expect(inputs.filter((f) => DOUBLES_PACKAGES.includes(packageOf(f) ?? ''))).toEqual([]);
  });
});
