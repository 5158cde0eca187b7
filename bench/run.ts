// Node (`npm run bench [name ...]`): every bench in one go. Builds the Chrome extension once, runs each bench file as
// its own process (a crash or a leak in one cannot skew the next), and ends with the BENCH line of each.
/*
 * - Browser benches run under `flock /tmp/browser.lock`, one at a time with any other browser suite on the machine
 *   (the lock is taken per bench, so others get their turn in between). If the caller already holds that lock, set
 *   BENCH_NO_LOCK=1: a nested flock on the same file would wait for its own parent.
 * - The extension is built from the work tree as it is now (`npm run build:chrome`), under the lock, then copied to
 *   a private directory that every browser bench loads (BENCH_EXTENSION_DIR): a rebuild by someone else during the
 *   run cannot change the extension halfway.
 * - BENCH_BUILD_FROM=<commit> measures that commit instead (`git archive` into a temporary directory, sharing this
 *   node_modules), leaving the work tree and its dist/ alone: the extension is built there and the Node benches run
 *   there (on that commit's core); the browser benches' harness is this work tree's. For measuring the committed
 *   code while others have half-done edits in the same work tree.
 * - BENCH_ROUNDS=n sets the browser benches' rounds (default 5; 1 for a quick look). Names on the command line pick
 *   benches: `npm run bench -- tap-posts panel-100k`.
 * - Exit code 0 only when every BENCH line says PASS.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Bench {
  name: string;
  file: string;
  /** Benches of a group share browser rounds when run together, in the group's file (see bench/browser/rounds.ts). */
  group?: string;
  browser: boolean;
  /** Node flags: the parser and analysis benches force a GC before each timed run. */
  nodeArgs: string[];
  /** Further BENCH names the bench's process prints, each on its own line (a second target of the same bench). */
  also?: readonly string[];
  /** A BENCH line made from the bench's own table, for a bench that prints none. */
  fallback?: (stdout: string) => string | null;
}

const LOCK = '/tmp/browser.lock';
/** flock gives up after this long rather than waiting forever (e.g. when the caller holds the lock itself). */
const LOCK_WAIT_S = 1200;

/**
 * bench/analyze.bench.ts belongs to the analysis work and is left as it is; until it prints a BENCH line itself,
 * this reads its table: incremental re-analysis after one chunk, as a fraction of a one-shot run (README: "about
 * 0.6x"; 0.65 allows for the noise seen between runs here). Lower is better.
 */
function analyzeFallback(stdout: string): string | null {
  const row = /^incremental: one chunk appended\s+[\d.]+\s+[\d.]+\s+([\d.]+)x/m.exec(stdout);
  if (!row?.[1]) return null;
  const ratio = Number(row[1]);
  return `BENCH analyze incremental-append-of-one-shot=${ratio.toFixed(2)} target=<=0.65 ${ratio <= 0.65 ? 'PASS' : 'FAIL'}`;
}

const gc = ['--expose-gc'];
const BENCHES: readonly Bench[] = [
  { name: 'sse-parser', file: 'bench/sse-parser.bench.ts', browser: false, nodeArgs: gc },
  { name: 'analyze', file: 'bench/analyze.bench.ts', browser: false, nodeArgs: gc, fallback: analyzeFallback },
  // bench/memory.bench.ts (the analysis work's) prints a line per case and a last `BENCH core-memory` line: that one.
  { name: 'core-memory', file: 'bench/memory.bench.ts', browser: false, nodeArgs: gc },
  // The CLI benches time whole processes they start themselves (bench/cli/processes.ts).
  { name: 'cli-raw-200mb', file: 'bench/cli/raw.bench.ts', browser: false, nodeArgs: [] },
  { name: 'cli-raw-mixed', file: 'bench/cli/mixed.bench.ts', browser: false, nodeArgs: [] },
  { name: 'cli-har', file: 'bench/cli/har.bench.ts', browser: false, nodeArgs: [] },
  { name: 'cli-rss-1gb', file: 'bench/cli/rss.bench.ts', browser: false, nodeArgs: [] },
  // The server event store against the SDK example's store (and on a redis-server it starts): GC before each phase.
  { name: 'guard-store', file: 'bench/guard-store.bench.ts', browser: false, nodeArgs: gc },
  // The SDK client's processes, with the client guard and without (bench/guard/sdk-client.mjs).
  { name: 'guard-client', file: 'bench/guard/client.bench.ts', browser: false, nodeArgs: [] },
  // The replay server: timing at a raw-socket client against a recording made through the proxy, and speed 0
  // against the proxy forwarding the same 64 MB (bench/replay/).
  { name: 'replay-fidelity', file: 'bench/replay/fidelity.bench.ts', browser: false, nodeArgs: [] },
  { name: 'replay-throughput', file: 'bench/replay/throughput.bench.ts', browser: false, nodeArgs: [] },
  { name: 'tap-throughput', file: 'bench/browser/tap-throughput.bench.ts', group: 'page', browser: true, nodeArgs: [] },
  {
    name: 'tap-first-event',
    file: 'bench/browser/tap-first-event.bench.ts',
    group: 'page',
    browser: true,
    nodeArgs: [],
  },
  { name: 'tap-longtasks', file: 'bench/browser/tap-longtasks.bench.ts', group: 'page', browser: true, nodeArgs: [] },
  { name: 'tap-posts', file: 'bench/browser/tap-posts.bench.ts', group: 'page', browser: true, nodeArgs: [] },
  { name: 'panel-attached', file: 'bench/browser/panel-attached.bench.ts', group: 'page', browser: true, nodeArgs: [] },
  // A fresh browser per measurement, the page's first stream 200 ms after its load (bench/browser/cold.ts).
  {
    name: 'tap-first-event-cold',
    file: 'bench/browser/tap-first-event-cold.bench.ts',
    group: 'cold',
    browser: true,
    nodeArgs: [],
  },
  {
    name: 'tap-throughput-cold',
    file: 'bench/browser/tap-throughput-cold.bench.ts',
    group: 'cold',
    browser: true,
    nodeArgs: [],
  },
  { name: 'tap-posts-cold', file: 'bench/browser/tap-posts-cold.bench.ts', group: 'cold', browser: true, nodeArgs: [] },
  // Real DevTools windows: the page with DevTools' Network panel against the extension's panel in DevTools, and
  // against no DevTools on a paced stream (a second line, devtools-anchor-paced).
  {
    name: 'devtools-anchor',
    file: 'bench/browser/devtools-anchor.bench.ts',
    also: ['devtools-anchor-paced'],
    browser: true,
    nodeArgs: [],
  },
  { name: 'panel-100k', file: 'bench/browser/panel-100k.bench.ts', browser: true, nodeArgs: [] },
  { name: 'panel-4mb', file: 'bench/browser/panel-4mb.bench.ts', browser: true, nodeArgs: [] },
];

const GROUP_FILES: Record<string, string> = {
  page: 'bench/browser/page.bench.ts',
  cold: 'bench/browser/cold.bench.ts',
};

/** One process to run: a bench, or a whole group when all its benches are selected. */
interface Job {
  file: string;
  benches: Bench[];
}

function jobsFor(selected: readonly Bench[]): Job[] {
  const jobs: Job[] = [];
  for (const bench of selected) {
    const members = bench.group ? BENCHES.filter((b) => b.group === bench.group) : [];
    const groupFile = bench.group ? GROUP_FILES[bench.group] : undefined;
    if (groupFile && members.every((m) => selected.includes(m))) {
      if (members[0] === bench) jobs.push({ file: groupFile, benches: members });
    } else {
      jobs.push({ file: bench.file, benches: [bench] });
    }
  }
  return jobs;
}

function locked(command: string[]): string[] {
  return process.env.BENCH_NO_LOCK === '1' ? command : ['flock', '-w', String(LOCK_WAIT_S), LOCK, ...command];
}

/** Runs a command with its output passed through; resolves to its exit code and stdout. */
function run(
  command: string[],
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const [program, ...args] = command;
    if (!program) throw new Error('empty command');
    const child = spawn(program, args, { env, cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString('utf8');
      process.stdout.write(data);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout }));
    child.on('error', (error) => {
      process.stderr.write(`${command.join(' ')}: ${error.message}\n`);
      resolve({ code: 127, stdout });
    });
  });
}

const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();

/** What is being measured: the commit, and whether the build includes uncommitted edits of the extension's sources. */
function describeSource(from: string | undefined): string {
  if (from) return `commit ${git('rev-parse', '--short', from)} (BENCH_BUILD_FROM=${from})`;
  const dirty = git('status', '--porcelain', '--', 'src', 'public', 'manifest.json', 'vite.config.ts').split('\n');
  const edits = dirty.filter((l) => l.trim() !== '').length;
  return `work tree at ${git('rev-parse', '--short', 'HEAD')}${edits > 0 ? ` with ${edits} uncommitted file(s) in the extension's sources` : ''}`;
}

interface Built {
  /** The private copy of the built extension, or null if the build failed. */
  extension: string | null;
  /** Where the Node benches run: the work tree, or the archived commit (so they measure that commit's core too). */
  root: string;
}

/** Builds the extension and copies it to a private directory. */
async function buildExtension(into: string, env: NodeJS.ProcessEnv): Promise<Built> {
  const from = process.env.BENCH_BUILD_FROM;
  process.stdout.write(`== building the Chrome extension from the ${describeSource(from)}\n`);
  const copy = join(into, 'chrome');
  if (!from) {
    const build = await run(locked(['npm', 'run', '--silent', 'build:chrome']), env);
    if (build.code !== 0) return { extension: null, root: process.cwd() };
    cpSync('dist/chrome', copy, { recursive: true });
    return { extension: copy, root: process.cwd() };
  }
  const tree = join(into, 'tree');
  mkdirSync(tree);
  execFileSync('sh', ['-c', 'git archive "$1" | tar -x -C "$2"', 'archive', from, tree]);
  symlinkSync(resolve('node_modules'), join(tree, 'node_modules'));
  const build = await run(['npm', 'run', '--silent', 'build:chrome'], env, tree);
  if (build.code !== 0) return { extension: null, root: tree };
  cpSync(join(tree, 'dist/chrome'), copy, { recursive: true });
  return { extension: copy, root: tree };
}

const failLine = (name: string, why: string): string => `BENCH ${name} error=${why} target=none FAIL`;

async function main(): Promise<void> {
  const started = performance.now();
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
  if (unknown.length > 0) throw new Error(`unknown bench(es): ${unknown.join(', ')}`);
  const selected = BENCHES.filter((b) => wanted.length === 0 || wanted.includes(b.name));
  const lines: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env };
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-bench-extension-'));
  let buildFailed = false;
  let root = process.cwd();
  try {
    if (selected.some((b) => b.browser) || process.env.BENCH_BUILD_FROM) {
      const built = await buildExtension(scratch, env);
      root = built.root;
      if (built.extension) env.BENCH_EXTENSION_DIR = built.extension;
      else buildFailed = true;
    }
    for (const job of jobsFor(selected)) {
      const names = job.benches.map((b) => b.name).join(', ');
      const browser = job.benches.some((b) => b.browser);
      if (browser && buildFailed) {
        for (const bench of job.benches) lines.push(failLine(bench.name, 'build-failed'));
        continue;
      }
      if (!browser && !existsSync(join(root, job.file))) {
        // BENCH_BUILD_FROM names a commit that predates this bench.
        for (const bench of job.benches) lines.push(failLine(bench.name, 'not-in-the-measured-tree'));
        continue;
      }
      process.stdout.write(`\n== ${names} (${job.file})\n`);
      const began = performance.now();
      const node = ['node', ...(job.benches[0]?.nodeArgs ?? []), '--import', 'tsx', job.file];
      const { code, stdout } = await (browser ? run(locked(node), env) : run(node, env, root));
      process.stdout.write(`== ${names}: ${((performance.now() - began) / 1000).toFixed(0)} s\n`);
      const printed = stdout.split('\n').filter((l) => l.startsWith('BENCH '));
      for (const bench of job.benches) {
        const lineNames = [bench.name, ...(bench.also ?? [])];
        const own = printed.filter((l) => lineNames.some((name) => l.startsWith(`BENCH ${name} `)));
        // One line per bench: a bench whose process crashed says so, whatever it printed before.
        if (code !== 0) lines.push(failLine(bench.name, `exit-${code}`));
        else if (own.length > 0) lines.push(...own);
        else lines.push(bench.fallback?.(stdout) ?? failLine(bench.name, 'no-BENCH-line'));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`\n== ${((performance.now() - started) / 1000).toFixed(0)} s in all; BENCH lines:\n`);
  for (const line of lines) process.stdout.write(`${line}\n`);
  process.exitCode = lines.every((l) => l.endsWith(' PASS')) ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
