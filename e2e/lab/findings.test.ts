// Runs in Node: every lab scenario, driven by the real SDK client through the fault proxy, recorded on the wire,
// analyzed by the core: the scenario's expected rules must appear and its forbidden ones must not.
import { describe, expect, it } from 'vitest';
import { checkFindings } from './check-findings';
import { scenarios } from './scenarios';

describe('core findings on real SDK traffic from the fault lab', () => {
  it.each(scenarios.map((s) => [s.name, s]))(
    '%s',
    async (_name, scenario) => {
      const check = await checkFindings(scenario);
      expect(check.missing, `missing rules for ${scenario.name}`).toEqual([]);
      expect(check.forbidden, `unexpected rules for ${scenario.name}`).toEqual([]);
      // The clean control gives no error or warning at all (info may note what it saw).
      const serious = check.findings.filter((f) => f.severity !== 'info');
      expect(scenario.name === 'clean' ? serious : []).toEqual([]);
    },
    20_000,
  );
});
