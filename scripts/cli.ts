// `npm run cli -- …` runs the CLI from one bundled file, dist/cli.js, for the reasons `npm start` runs dist/main.js
// (bundle-app.ts): loaded module by module, a command took about 2 s to start, bundled under 1 s. The bundle is
// made again whenever a source is newer, which costs a walk over the sources' modification times (a few ms).
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import type { runCli as RunCli } from '../src/cli/cli.ts';
import { currentCliBundle } from './bundle-app.ts';

// The bundle's compiled code is kept between runs (in the system's temporary folder).
module.enableCompileCache();
const { runCli } = (await import(pathToFileURL(await currentCliBundle()).href)) as { runCli: typeof RunCli };
process.exitCode = await runCli(process.argv.slice(2));
