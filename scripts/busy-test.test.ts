import { describe, expect, it } from 'vitest';
import { browserCounts, unitCounts } from './busy-test';

describe('busy-test reads the runners’ summaries', () => {
  it("vitest's Tests line", () => {
    const out = ' Test Files  1 failed | 209 passed (210)\n      Tests  1 failed | 2138 passed | 3 skipped (2142)\n';
    expect(unitCounts(out)).toEqual({ passed: 2138, failed: 1, skipped: 3 });
  });

  it("Playwright's list reporter ending, counting flaky as failed", () => {
    const out = [
      'Running 120 tests using 2 workers',
      '  ✓  1 e2e/a.spec.ts:3:1 › a (2.0s)',
      '  1 failed',
      '    e2e/settings-chromium.spec.ts:71:1 › the settings gear',
      '  1 flaky',
      '  2 skipped',
      '  116 passed (13.0m)',
    ].join('\n');
    expect(browserCounts(out)).toEqual({ passed: 116, failed: 2, skipped: 2 });
  });

  it('a run that stopped before the browser suite counts nothing there', () => {
    expect(browserCounts('npm ERR! lint failed')).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });
});
