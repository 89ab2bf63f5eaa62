// What `npm start` runs, bundled into dist/main.js (scripts/bundle-app.ts): the app, as `node src/main.ts` runs it,
// or with no configuration the demo. The demo's doubles (sim/demo/: the simulated store, the sandbox gateway, the mail
// catcher) are loaded only then, from their own bundle (dist/demo.js): the app's bundle carries none of them.
import { run } from '../src/run.ts';

await run(async (config, logger) => (await import('../sim/demo/demo-setup.ts')).startDemo(config, logger));
