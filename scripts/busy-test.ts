// Node (`npm run test:busy [-- --runs N --burners N]`): the whole `npm test` while CPU-bound processes keep cores
// busy, N times in a row (3 by default), as a newcomer's laptop runs it with something else going on (issue 33).
// Prints one line per run (minutes, unit and browser tests passed and failed) and a table at the end; exits 0 only
// when every run passed. Each run's whole output goes to test-results/busy/run-N.log.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';

interface RunResult {
  run: number;
  minutes: number;
  exitCode: number;
  unit: Counts;
  browser: Counts;
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const LOG_DIR = join('test-results', 'busy');

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, burners: { type: 'string', default: '1' } },
});
const runs = positive(values.runs, '--runs');
const burners = positive(values.burners, '--burners');

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} wants a whole number >= 1, not ${text}`);
  return n;
}

/** A process that only burns one core until it is killed: the "something else" on the machine. */
function startBurner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** Vitest's "Tests  12 failed | 2127 passed (2139)" line. */
export function unitCounts(output: string): Counts {
  const line = /^\s*Tests\s+(.*)$/m.exec(output)?.[1] ?? '';
  return { passed: count(line, 'passed'), failed: count(line, 'failed'), skipped: count(line, 'skipped') };
}

/** Playwright's list reporter ends with "  1 failed", "  119 passed (13.0m)", "  2 skipped" lines. */
export function browserCounts(output: string): Counts {
  const tail = output.slice(output.lastIndexOf('Running '));
  const at = (word: string) => Number(new RegExp(`^\\s+(\\d+) ${word}`, 'm').exec(tail)?.[1] ?? 0);
  return { passed: at('passed'), failed: at('failed') + at('flaky'), skipped: at('skipped') };
}

function count(line: string, word: string): number {
  return Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
}

function runTests(run: number): Promise<RunResult> {
  const log = createWriteStream(join(LOG_DIR, `run-${run}.log`));
  const started = process.hrtime.bigint();
  let output = '';
  return new Promise((resolve) => {
    const child = spawn('npm', ['test'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      log.write(chunk);
      output += stripVTControlCharacters(chunk.toString('utf8'));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      log.end();
      const minutes = Number(process.hrtime.bigint() - started) / 60e9;
      resolve({ run, minutes, exitCode: code ?? 1, unit: unitCounts(output), browser: browserCounts(output) });
    });
  });
}

function describe(r: RunResult): string {
  const c = (x: Counts) => `${x.passed} passed, ${x.failed} failed${x.skipped ? `, ${x.skipped} skipped` : ''}`;
  return `run ${r.run}: ${r.minutes.toFixed(1)} min, exit ${r.exitCode}; unit ${c(r.unit)}; browser ${c(r.browser)}`;
}

async function main(): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true });
  const burning = Array.from({ length: burners }, startBurner);
  const stop = () => burning.forEach((b) => b.kill('SIGKILL'));
  process.on('SIGINT', () => {
    stop();
    process.exit(130);
  });
  console.log(`npm test ${runs} times, ${burners} core(s) kept busy; logs in ${LOG_DIR}/`);
  const results: RunResult[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const result = await runTests(run);
      results.push(result);
      console.log(describe(result));
    }
  } finally {
    stop();
  }
  const green = results.every((r) => r.exitCode === 0);
  console.log(`\n| run | minutes | unit passed | unit failed | browser passed | browser failed | exit |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (const r of results) {
    console.log(
      `| ${r.run} | ${r.minutes.toFixed(1)} | ${r.unit.passed} | ${r.unit.failed} | ${r.browser.passed} | ${r.browser.failed} | ${r.exitCode} |`,
    );
  }
  console.log(green ? `\nall ${runs} runs green on a busy machine` : '\nRED: see the logs');
  process.exitCode = green ? 0 : 1;
}

if (process.argv[1]?.endsWith('busy-test.ts')) await main();
