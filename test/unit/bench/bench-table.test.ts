// bench/RESULTS.md: a full bench run replaces the table and keeps the findings written below it.
import { describe, expect, it } from 'vitest';
import { withFindings } from '../../../bench/bench-table.ts';

describe('withFindings', () => {
  const report = '# Benchmark results\n\n| row |\n| --- |\n| new |\n';

  it('keeps the previous file findings section, from its heading on, after the new table', () => {
    const previous = '# Benchmark results\n\n| row |\n| --- |\n| old |\n\n## Findings\n\n- 2026-11-22: one.\n';
    expect(withFindings(report, previous)).toBe(`${report}\n## Findings\n\n- 2026-11-22: one.\n`);
  });

  it('is the report alone when there was no file or no findings section', () => {
    expect(withFindings(report, '')).toBe(report);
    expect(withFindings(report, '# Benchmark results\n\n| old |\n')).toBe(report);
  });
});
