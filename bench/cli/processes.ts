// Node (benches only): whole processes timed and measured for the CLI benches: wall time of each run, peak RSS
// through /usr/bin/time, the CLI as users run it (the built dist/node/cli.js), rounds alternated with a baseline.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
let built = false;

/** Builds dist/node from the work tree once per bench process: the CLI measured is the code as it is now. */
function buildCli(): void {
  if (built) return;
  execFileSync(
    process.execPath,
    [join(PACKAGE_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.node.config.ts'],
    {
      cwd: PACKAGE_ROOT,
      stdio: 'ignore',
    },
  );
  built = true;
}

/** A file of the built library (dist/node/<file>), built from the work tree first. */
export function builtEntry(file: string): string {
  buildCli();
  return join(PACKAGE_ROOT, 'dist/node', file);
}

export interface RunResult {
  /** Wall time. */
  ms: number;
  /** CPU time of the process, user + system, all its threads: what other load on the machine barely moves. */
  cpuMs: number;
  rssMb: number;
  code: number;
}

const TIME = '/usr/bin/time';

/** Runs `node args...` to completion, stdout discarded; its wall time and peak RSS (GNU time's %M, in KiB). */
export function runNode(args: readonly string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(TIME, ['-f', 'RSS_KB=%M CPU_S=%U+%S', process.execPath, ...args], {
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const kb = Number(/RSS_KB=(\d+)/.exec(stderr)?.[1] ?? NaN);
      const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
      const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN;
      if (code !== 0 && code !== 1) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ ms, cpuMs, rssMb: kb / 1024, code: code ?? -1 });
    });
  });
}

/** The CLI's arguments for analyzing `file` (text report, never failing on findings). */
export function cliArgs(file: string): string[] {
  buildCli();
  return [join(PACKAGE_ROOT, 'dist/node/cli.js'), 'analyze', file, '--fail-on', 'never'];
}

export function baselineArgs(
  script: 'baseline-raw.mjs' | 'baseline-har.mjs',
  file: string,
  ...more: string[]
): string[] {
  return [join(PACKAGE_ROOT, 'bench/cli', script), file, ...more];
}

/** A temporary folder for generated inputs, removed by `done` (also on failure). */
export function scratch(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'msi-cli-bench-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const summary = (values: readonly number[], digits = 0): string =>
  `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;

/**
 * Baseline and CLI alternated `rounds` times (baseline first in even rounds, CLI first in odd ones, so neither
 * always runs on a warmer cache); prints the table and the BENCH line: ratio = CLI median / baseline median of the
 * processes' CPU time (user + system), against `labels.target` (1.5 for the CLI benches; `labels.shown` is how the
 * line writes it, the number itself by default). Wall time is shown too: on this shared 2-core machine it moved 2x between
 * rounds of the same process while other suites ran, CPU time far less.
 */
export async function compare(
  name: string,
  title: string,
  baseline: string[],
  cli: string[],
  rounds = 5,
  labels: { ours: string; target: number; shown?: string } = { ours: 'CLI', target: 1.5 },
): Promise<void> {
  const base: RunResult[] = [];
  const ours: RunResult[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      base.push(await runNode(baseline));
      ours.push(await runNode(cli));
    } else {
      ours.push(await runNode(cli));
      base.push(await runNode(baseline));
    }
  }
  const ratio = median(ours.map((r) => r.cpuMs)) / median(base.map((r) => r.cpuMs));
  const wallRatio = median(ours.map((r) => r.ms)) / median(base.map((r) => r.ms));
  const perRound = ours.map((r, i) => r.cpuMs / (base[i] as RunResult).cpuMs);
  const row = (label: string, pick: (r: RunResult) => number) =>
    `${label.padEnd(14)}${summary(base.map(pick)).padStart(22)}  ${summary(ours.map(pick)).padStart(22)}\n`;
  process.stdout.write(`${title}, whole processes, median [min–max] of ${rounds} alternated rounds\n`);
  process.stdout.write(`${'figure'.padEnd(14)}${'baseline'.padStart(22)}  ${labels.ours.padStart(22)}\n`);
  process.stdout.write(row('CPU ms', (r) => r.cpuMs));
  process.stdout.write(row('wall ms', (r) => r.ms));
  process.stdout.write(row('peak RSS MB', (r) => r.rssMb));
  process.stdout.write(`per-round CPU ratio ${summary(perRound, 2)}; wall ratio of medians ${wallRatio.toFixed(2)}\n`);
  const verdict = ratio <= labels.target ? 'PASS' : 'FAIL';
  process.stdout.write(`BENCH ${name} ratio=${ratio.toFixed(2)} target=${labels.shown ?? labels.target} ${verdict}\n`);
}
