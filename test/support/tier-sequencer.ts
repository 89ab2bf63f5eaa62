// The order files start in, so that two workers finish together: the longest files first (a gateway incident, a
// SIGKILL run, the browser suites), the many short ones filling in behind them. A clean clone has no timings of an
// earlier run, so the long files are named here, longest first, with what a full run measured; then the slowest
// tiers (soak, e2e, integration, unit), and within a tier Vitest's own order (largest first).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each took in a full run on a quiet 2-core machine (both databases), longest first. */
const LONG_FILES: Record<string, number> = {
  'soak/fault-injection.test.ts': 120,
  'e2e/processes/multi-process.test.ts': 112,
  'soak/gateway-incident.test.ts': 110,
  'e2e/cli/cli-custom-app.test.ts': 89,
  'e2e/browser/document-actions-browser.test.ts': 74,
  'e2e/processes/backfill-sigkill.test.ts': 73,
  'integration/backfill/backfill-http.test.ts': 72,
  'e2e/processes/accountant-email-processes.test.ts': 53,
  'integration/backfill/backfill-cancel-http.test.ts': 36,
  'e2e/browser/admin-browser.test.ts': 35,
  'integration/documents/pipeline-outcomes.test.ts': 35,
  'e2e/processes/series-processes.test.ts': 33,
  'e2e/browser/buyer-page-browser.test.ts': 29,
};

const TIERS = ['soak', 'e2e', 'integration', 'unit'];

export default class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = (spec: TestSpecification) => LONG_FILES[spec.moduleId.split('/test/').at(-1) ?? ''] ?? 0;
    const rank = (spec: TestSpecification) => TIERS.indexOf(spec.project.name);
    return sorted.sort((a, b) => known(b) - known(a) || rank(a) - rank(b));
  }
}
