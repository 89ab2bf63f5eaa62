// The order files start in: the slowest tiers first (soak, then e2e), so their long files (a two-minute incident, a
// fault-injection run) overlap the many short ones instead of being the last to start. Within a tier, Vitest's own
// order (longest or largest first).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TIERS = ['soak', 'e2e', 'integration', 'unit'];

export default class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => TIERS.indexOf(spec.project.name);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
