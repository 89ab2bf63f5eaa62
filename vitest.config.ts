import { defineConfig } from 'vitest/config';
import TierSequencer from './test/support/tier-sequencer.ts';

// Four tiers, each a Vitest project: `npm run test:unit` is the inner loop; `npm test` runs them all.
//   unit        pure code and fakes: no database, no process, no browser
//   integration databases (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), servers in process on loopback
//   e2e         the app as processes (as `npm start` runs it), the CLI, Chromium
//   soak        fault injection and floods
const tier = (name: string, extra: Record<string, unknown> = {}) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...extra },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time even on two cores: most e2e and soak time is spent waiting on processes, browsers and
    // deadlines, not computing (Vitest's default on a 2-core machine is one).
    maxWorkers: 2,
    sequence: { sequencer: TierSequencer },
    projects: [
      // One module graph per worker for the in-process tiers: each file importing the app afresh was a third of the
      // integration tier's time (105 s instead of some 300 s on PGlite). Their files share no module state they change.
      tier('unit', { isolate: false }),
      tier('integration', { isolate: false }),
      // The processes run the bundle `npm start` runs (dist/main.js), made once before their tests.
      tier('e2e', { globalSetup: ['test/support/bundle-setup.ts'] }),
      tier('soak', { globalSetup: ['test/support/bundle-setup.ts'] }),
    ],
  },
});
