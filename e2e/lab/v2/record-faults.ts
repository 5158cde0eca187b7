// Node (dev script, `npm run fixtures:v2-faults`): records fixtures/v2-fault-*/ from real TS SDK v2 traffic in
// 2026-07-28 mode rewritten by the product's fault proxy (faults-run.ts), keeping a recording only when the core
// finds exactly what its plan says.
// CLI: npm run fixtures:v2-faults [-- name...]
import { fileURLToPath } from 'node:url';
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { rules } from '../../../src/core/guard/index';
import { writeFixture } from '../fixture-files';
import { runFaultPlan, type V2FaultPlan, V2_FAULT_PLANS } from './faults-run';

const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
/** A fixed proxy port per recording keeps the URLs the same from one recording to the next. */
const PORT = 47230;
const ATTEMPTS = 3;

/** The rules a HAR + chunks recording gives. */
function rulesOf(har: string, ndjson: string): string[] {
  return [...new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule))].sort();
}

async function record(plan: V2FaultPlan, port: number): Promise<string | undefined> {
  const run = await runFaultPlan(plan, port);
  const found = rulesOf(run.har, run.ndjson);
  if (found.join() !== [...plan.must].sort().join())
    return `findings ${found.join(', ') || 'none'}, want ${plan.must.join(', ')}`;
  const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id));
  const notes = `${plan.notes} The client ended ${run.result.verdict}.`;
  writeFixture(FIXTURES_DIR, plan.name, {
    har: run.har,
    ndjson: run.ndjson,
    expected: { must: plan.must, must_not: mustNot, notes },
  });
  return undefined;
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  let failed = 0;
  for (const [index, plan] of V2_FAULT_PLANS.entries()) {
    if (names.length > 0 && !names.includes(plan.name)) continue;
    let problem: string | undefined = 'not recorded';
    for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
      problem = await record(plan, PORT + index + 10 * (attempt - 1));
      process.stdout.write(
        problem === undefined ? `ok   ${plan.name}\n` : `retry ${plan.name} (${attempt}/${ATTEMPTS}): ${problem}\n`,
      );
    }
    if (problem !== undefined) failed += 1;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
