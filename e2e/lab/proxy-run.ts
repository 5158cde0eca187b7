// Runs in Node (vitest): `mcp-stream-inspector proxy` run in-process in front of a lab origin (the real SDK server),
// with the real SDK client through it; what the proxy printed, and what `analyze` finds in its recording.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConnectionRecord } from '../../src/core/capture/model';
import type { CliIo } from '../../src/cli/io';
import { nodeIo } from '../../src/cli/node-io';
import { run } from '../../src/cli/run';
import { recordingFetch } from './client/recording-fetch';
import { runScenario, type RunOptions, type RunResult } from './client/run-scenario';
import { findScenario, type LabIdScheme, type Scenario, type ScenarioName, type ToolCall } from './scenarios';
import { MCP_PATH, type ServerInstance, startInstance } from './server/instance';

/** Recordings go under test-results/ (ignored by git): the tests read nothing outside the repository. */
export const RECORDINGS = resolve(__dirname, '../../test-results/proxy');

export async function startOrigin(idScheme: LabIdScheme): Promise<ServerInstance> {
  return startInstance({ name: 'A', origin: { idScheme } });
}

export interface CliProxy {
  /** The URL the proxy printed on its first line. */
  url: string;
  /** Everything printed so far, as lines. */
  lines(): string[];
  err(): string;
  /** Sends the stop (as SIGTERM would) and resolves with the exit code. */
  stop(): Promise<number>;
}

/** Runs `mcp-stream-inspector proxy <origin>/mcp --port 0 ...args` in-process until stop(). */
export function startCliProxy(origin: ServerInstance, args: string[]): Promise<CliProxy> {
  return startCliProxyAt(`${origin.url}${MCP_PATH}`, args);
}

/** Runs `mcp-stream-inspector proxy <upstream> --port 0 ...args` in-process until stop(): any server's endpoint. */
export function startCliProxyAt(upstream: string, args: string[]): Promise<CliProxy> {
  return startCli(['proxy', upstream, '--port', '0', ...args]);
}

/** Runs a live command of the CLI (proxy, replay) in-process until stop(); its first line is its URL. */
export async function startCli(argv: string[]): Promise<CliProxy> {
  let out = '';
  let err = '';
  let stopWith: (signal: string) => void = () => undefined;
  let firstLine: () => void = () => undefined;
  const printed = new Promise<void>((resolve) => (firstLine = resolve));
  const io: CliIo = {
    ...nodeIo(),
    color: false,
    stdout: (text) => {
      out += text;
      if (out.includes('\n')) firstLine();
    },
    stderr: (text) => void (err += text),
    untilStopped: () => new Promise((resolve) => (stopWith = resolve)),
  };
  const exit = run(argv, io);
  await Promise.race([printed, exit]);
  const url = out.split('\n')[0] ?? '';
  return {
    url,
    lines: () => out.split('\n').filter((line) => line !== ''),
    err: () => err,
    stop: () => {
      stopWith('SIGTERM');
      return exit;
    },
  };
}

export interface ThroughProxy {
  result: RunResult;
  /** What the client's fetch saw. */
  connections: ConnectionRecord[];
  /** The fault lines the proxy printed. */
  faults: string[];
  lines: string[];
  /** Rule ids `analyze` found in the recording, sorted, unique. */
  rules: string[];
  code: number;
}

/** A lab scenario's client run (its calls, its timeouts) with other calls when given. */
export function clientScenario(name: ScenarioName, calls?: ToolCall[]): Scenario {
  const scenario = findScenario(name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  return calls ? { ...scenario, calls } : scenario;
}

/** One client run through a fresh CLI proxy with `args`, then the recording analysed by the CLI. */
export async function runThroughProxy(
  origin: ServerInstance,
  scenario: Scenario,
  args: string[],
  recording: string,
  options: Pick<RunOptions, 'guard' | 'guardOptions'> = {},
): Promise<ThroughProxy> {
  mkdirSync(RECORDINGS, { recursive: true });
  const file = join(RECORDINGS, recording);
  const proxy = await startCliProxy(origin, [...args, '--record', file]);
  const recorder = recordingFetch();
  const result = await runScenario(scenario, {
    baseUrl: new URL(proxy.url).origin,
    fetch: recorder.fetch,
    selectScenario: false,
    ...options,
  });
  // The client has closed: wait until the proxy has seen every exchange end (the aborts arrive a moment later).
  await until(() => exchangeLines(proxy.lines()) >= recorder.connections.length);
  const code = await proxy.stop();
  const lines = proxy.lines();
  return {
    result,
    connections: recorder.connections,
    faults: lines.filter((line) => line.startsWith('fault ')),
    lines,
    rules: await analyzedRules(file),
    code,
  };
}

/** `mcp-stream-inspector analyze FILE --json`, in-process: the rule ids found. */
export async function analyzedRules(file: string): Promise<string[]> {
  let out = '';
  const io: CliIo = { ...nodeIo(), color: false, stdout: (text) => void (out += text), stderr: () => undefined };
  await run(['analyze', file, '--json', '--fail-on', 'never'], io);
  const doc = JSON.parse(out) as { findings: { rule: string }[] };
  return [...new Set(doc.findings.map((f) => f.rule))].sort();
}

/** The proxy's line per ended exchange: `  4  POST  /mcp  tools/call  200 ...`. */
export function exchangeLines(lines: string[]): number {
  return lines.filter((line) => /^ {0,2}\d+ {2}[A-Z]+ {2}/.test(line)).length;
}

/**
 * Polls `condition`: a guard against a hang, not a timing check (past the limit the caller's asserts decide). Some
 * callers wait for what may never come (the exchange line of a request the fault lost), so the limit stays well
 * inside their tests' time.
 */
export async function until(condition: () => boolean, limitMs = 5000): Promise<void> {
  for (let waited = 0; !condition() && waited < limitMs; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
