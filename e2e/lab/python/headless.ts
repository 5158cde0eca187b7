// Node (`npm start -- --headless`): the Python SDK scenarios after the browser ones. They run in Node (both peers
// are processes here, no page), through the product's fault proxy; each line says how the client ended and what the
// core found against the plan, and the recording is written as a HAR the panel's Import reads. Without the venv
// (no python3, or pip failed) it prints the one-line reason and counts nothing as broken.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { problemWith, PY_PLANS, recordPy, rulesIn } from './record';
import { pythonEnv } from './venv';

export const PY_SCENARIO_NAMES: readonly string[] = PY_PLANS.map((p) => p.name);

/** Runs the Python plans (`only` filters by name; all when it names none of them); resolves to how many broke. */
export async function runPythonHeadless(
  only: readonly string[],
  capturesDir: string,
  say: (line: string) => void,
): Promise<number> {
  const named = only.filter((name) => PY_SCENARIO_NAMES.includes(name));
  if (only.length > 0 && named.length === 0) return 0;
  const env = pythonEnv();
  if (!env.ok) {
    say(`Python SDK scenarios: ${env.reason}`);
    return 0;
  }
  say('Python SDK scenarios (mcp 2.3.0; Node, through the fault proxy):');
  mkdirSync(capturesDir, { recursive: true });
  let broken = 0;
  for (const plan of PY_PLANS.filter((p) => named.length === 0 || named.includes(p.name))) {
    try {
      const recorded = await recordPy(plan, env.python);
      writeFileSync(join(capturesDir, `${plan.name}.har`), recorded.har);
      const problem = problemWith(plan, recorded);
      if (problem !== undefined) broken += 1;
      say(
        `  ${plan.name}: client ${recorded.result.verdict}, findings ${rulesIn(recorded).join(', ') || 'none'}${problem ? ` · NOT AS EXPECTED: ${problem}` : ' · as expected'}`,
      );
    } catch (error) {
      broken += 1;
      say(`  ${plan.name}: broke (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return broken;
}
