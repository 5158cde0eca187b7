// Node (dev script, `npm run fixtures:nginx`): records fixtures/nginx-*/ and fixtures/compression-*/ from the real SDK
// 1.32 client through the lab's real intermediaries (runs.ts), as the client received it, keeping a recording only when
// the core's rules give what its plan says (recording.ts), the silence rules included.
// CLI: npm run fixtures:nginx [-- name...]
import { fileURLToPath } from 'node:url';
import { writeFixture } from '../fixture-files';
import { recordIntermediary } from './recording';
import { type IntermediaryRun, RUNS } from './runs';

const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
/** A fixed port per recording (the one the client talks to) keeps the URLs the same from one recording to the next. */
const PORT = 47310;
const ATTEMPTS = 3;

async function record(run: IntermediaryRun, port: number): Promise<string | undefined> {
  const recorded = await recordIntermediary(run, port);
  if (recorded.problem !== undefined) return recorded.problem;
  writeFixture(FIXTURES_DIR, run.name, { har: recorded.har, ndjson: recorded.ndjson, expected: recorded.expected });
  return undefined;
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  let failed = 0;
  for (const [index, run] of RUNS.entries()) {
    if (names.length > 0 && !names.includes(run.name)) continue;
    let problem: string | undefined = 'not recorded';
    for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
      problem = await record(run, PORT + index + 10 * (attempt - 1));
      process.stdout.write(
        problem === undefined ? `ok   ${run.name}\n` : `retry ${run.name} (${attempt}/${ATTEMPTS}): ${problem}\n`,
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
