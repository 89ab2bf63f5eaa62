// `node src/main.ts`: the app with its real configuration, unbundled. `npm start` runs the same app bundled
// (dist/main.js, from scripts/start.ts), and the demo instead when nothing is configured.
import { run } from './run.ts';

await run();
