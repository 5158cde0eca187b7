// Node (`npm start -- --headless`): the real intermediaries' runs after the browser ones: the SDK 1.32 client through
// nginx or compression() to an SDK 1.32 or 1.29 server, in Node; each line says how the client ended and what the core
// found against the run's plan, and the client's recording is written as a HAR the panel's Import reads.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordIntermediary } from './recording';
import { RUNS } from './runs';

/** The runs `npm start` makes: those that stop their recording while the client waits take half a minute, fixtures only. */
const HEADLESS_RUNS = RUNS.filter((r) => r.stopAfterMs === undefined);

export const INTERMEDIARY_NAMES: readonly string[] = HEADLESS_RUNS.map((r) => r.name);

/** Runs the intermediaries (`only` filters by name; all when it names none of them); resolves to how many broke. */
export async function runIntermediariesHeadless(
  only: readonly string[],
  capturesDir: string,
  say: (line: string) => void,
): Promise<number> {
  const named = only.filter((name) => INTERMEDIARY_NAMES.includes(name));
  if (only.length > 0 && named.length === 0) return 0;
  say('Real intermediaries (nginx 1.22, compression(); the SDK 1.32 client in Node):');
  mkdirSync(capturesDir, { recursive: true });
  let broken = 0;
  for (const run of HEADLESS_RUNS.filter((r) => named.length === 0 || named.includes(r.name))) {
    try {
      const recorded = await recordIntermediary(run);
      writeFileSync(join(capturesDir, `${run.name}.har`), recorded.har);
      if (recorded.problem !== undefined) broken += 1;
      say(
        `  ${run.name}: client ${recorded.outcome.result.verdict}, findings ${recorded.found.join(', ') || 'none'}${recorded.problem ? ` · NOT AS EXPECTED: ${recorded.problem}` : ' · as expected'}`,
      );
    } catch (error) {
      broken += 1;
      say(`  ${run.name}: broke (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return broken;
}
