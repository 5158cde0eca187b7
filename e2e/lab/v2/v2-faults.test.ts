// Runs in Node (vitest): the product's fault proxy on real 2026-07-28 traffic (faults-run.ts, the TS SDK v2 client
// and server): unarmed the run stays clean; each fault of V2_FAULT_PLANS strikes once and provokes exactly the rule
// it is for, on the recording the fixtures are made of (the stream faults on what the server sent, the request
// faults on the request as the server got it).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { runFaultPlan, V2_FAULT_PLANS } from './faults-run';

const TIMEOUT = 20_000;

const rulesOf = (har: string, ndjson: string): string[] =>
  [...new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule))].sort();

describe.concurrent('the fault proxy on real 2026-07-28 traffic (TS SDK v2)', () => {
  it(
    'unarmed: the clean run stays clean through it',
    async () => {
      const run = await runFaultPlan({ faults: [] });
      expect(run.result.verdict, run.result.steps.join('\n')).toBe('ok');
      expect(run.reports).toEqual([]);
      expect(rulesOf(run.har, run.ndjson)).toEqual([]);
    },
    TIMEOUT,
  );

  for (const plan of V2_FAULT_PLANS) {
    it(
      `${plan.faults.join(' ')} -> ${plan.must.join(', ')}`,
      async () => {
        const run = await runFaultPlan(plan);
        expect(run.reports.map((r) => r.fault)).toEqual(plan.faults);
        expect(rulesOf(run.har, run.ndjson)).toEqual([...plan.must].sort());
      },
      TIMEOUT,
    );
  }
});
