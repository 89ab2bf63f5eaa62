// Vitest's global setup: the bundle `npm start` runs (dist/main.js), made once before any test spawns the app.
import { bundleApp } from '../../scripts/bundle-app.ts';

export default async function setup(): Promise<void> {
  await bundleApp();
}
