// Node (`npm start -- --headless`): the TS SDK v2 (2026-07-28) scenarios after the browser ones. They run in Node
// (client and server are both Node here, no page): the recorded runs of record.ts and the fault proxy's runs of
// faults-run.ts; each line says how the client ended and what the core found against the plan, and the recording is
// written as a HAR the panel's Import reads.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { runFaultPlan, V2_FAULT_PLANS } from './faults-run';
import { problemWith, recordV2, V2_PLANS } from './record';

export const V2_SCENARIO_NAMES: readonly string[] = [...V2_PLANS, ...V2_FAULT_PLANS].map((p) => p.name);

const rulesIn = (har: string, ndjson: string): string[] =>
  [...new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule))].sort();

/** One scenario's line: the recording written, how the client ended, the findings and whether they are the plan's. */
interface Outcome {
  har: string;
  verdict: string;
  rules: string[];
  problem?: string;
}

async function runOne(name: string): Promise<Outcome> {
  const plan = V2_PLANS.find((p) => p.name === name);
  if (plan) {
    const recorded = await recordV2(plan);
    const problem = problemWith(plan, recorded);
    return {
      har: recorded.har,
      verdict: recorded.result.verdict,
      rules: rulesIn(recorded.har, recorded.ndjson),
      ...(problem === undefined ? {} : { problem }),
    };
  }
  const faultPlan = V2_FAULT_PLANS.find((p) => p.name === name);
  if (!faultPlan) throw new Error(`no v2 scenario ${name}`);
  const run = await runFaultPlan(faultPlan);
  const rules = rulesIn(run.har, run.ndjson);
  const want = [...faultPlan.must].sort();
  const struck = run.reports.map((r) => r.fault);
  const problems = [
    ...(rules.join() === want.join() ? [] : [`findings ${rules.join(', ') || 'none'}, want ${want.join(', ')}`]),
    ...(struck.join() === faultPlan.faults.join() ? [] : [`the proxy struck ${struck.join(', ') || 'nothing'}`]),
  ];
  return {
    har: run.har,
    verdict: run.result.verdict,
    rules,
    ...(problems.length === 0 ? {} : { problem: problems.join('; ') }),
  };
}

/** Runs the v2 scenarios (`only` filters by name; all when it names none of them); resolves to how many broke. */
export async function runV2Headless(
  only: readonly string[],
  capturesDir: string,
  say: (line: string) => void,
): Promise<number> {
  const named = only.filter((name) => V2_SCENARIO_NAMES.includes(name));
  if (only.length > 0 && named.length === 0) return 0;
  say('TS SDK v2 scenarios (2026-07-28; Node, the v2 server and clients, through the fault proxy where named):');
  mkdirSync(capturesDir, { recursive: true });
  let broken = 0;
  for (const name of V2_SCENARIO_NAMES.filter((n) => named.length === 0 || named.includes(n))) {
    try {
      const outcome = await runOne(name);
      writeFileSync(join(capturesDir, `${name}.har`), outcome.har);
      if (outcome.problem !== undefined) broken += 1;
      say(
        `  ${name}: client ${outcome.verdict}, findings ${outcome.rules.join(', ') || 'none'}${outcome.problem ? ` · NOT AS EXPECTED: ${outcome.problem}` : ' · as expected'}`,
      );
    } catch (error) {
      broken += 1;
      say(`  ${name}: broke (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return broken;
}
