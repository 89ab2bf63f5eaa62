// Vitest's global setup: the bundles `npm start` and `npm run cli` run (dist/main.js, dist/cli.js), made once before
// any test spawns the app or the CLI.
import { bundleApp, bundleCli } from '../../scripts/bundle-app.ts';

export default async function setup(): Promise<void> {
  await Promise.all([bundleApp(), bundleCli()]);
}
