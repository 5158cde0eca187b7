// Runs in Node (vitest): the Python SDK recordings (`py-*`, fixtures/README.md) served again to the client run that
// made them: the Python SDK client (mcp 2.3.0, the lab's venv), the TypeScript SDK v2 client, or the SDK 1.32 client
// of the 2025-era resume. The replay's recording gives the core the same findings, every response goes in the
// recorded chunks, every cut at the same byte, and the client does what it did. (py-client-cut-not-reissued is in
// replay-peers.test.ts.)
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../../src/core/capture/model';
import type { Fault } from '../../../src/core/fault/fault';
import { parseFaultSpec } from '../../../src/core/fault/spec';
import { runPythonClient } from '../python/peers';
import { PY_FAULTS, resume132, touchTools } from '../python/runs';
import { pythonForTests } from '../python/venv';
import { runV2, type V2Driver } from '../v2/runs';
import { paired, replayFixture, rulesOf, wireShape } from './replay-run';

/** A guard against a hang: six Python clients starting at once on a loaded 2-core machine took 30 s here. */
const TIMEOUT = 90_000;
const python = pythonForTests();

interface Ran {
  verdict: string;
  steps: string[];
  errors: string[];
}

interface PyCase {
  name: string;
  verdict: 'ok' | 'error';
  /** The client run that made the recording, against the replay's URL (`py`: the venv's python). */
  drive(url: string, py: string): Promise<Ran>;
  needsPython: boolean;
  faults?: Fault[];
}

/**
 * The request faults the recording proxy struck (a header set): the recording holds the request as the server got
 * it, the live client sends it unchanged, so the replay strikes the same fault to match it as the server saw it.
 * `inject-server-request` is a response fault, in the recorded bytes: nothing to add.
 */
function requestFault(name: keyof typeof PY_FAULTS): Fault[] {
  const parsed = parseFaultSpec(PY_FAULTS[name]);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.fault.kind === 'set-header' ? [parsed.fault] : [];
}

/**
 * The v2 lab's driver for a replay; `touch`: a second v2 client calls touch_tools, as the recorded run did. Recorded,
 * the server published tools/list_changed on the first client's listen stream because of that call, so the first
 * client went on only after it. The replay cannot know that cause (another client's call, no id links them): it plays
 * the notification at its recorded time, and the first client could close before the second one called (its two
 * exchanges missing). So the run waits for the second client, which keeps the recorded order.
 */
const driver = (url: string, touch = false): V2Driver => ({
  url,
  plans: { push: () => undefined },
  toolsChanged: () => (touch ? touchTools(url) : undefined),
});

const CASES: readonly PyCase[] = [
  {
    name: 'py-clean',
    verdict: 'ok',
    needsPython: true,
    drive: (url, py) => runPythonClient(py, url, 'clean', { touchTool: true }),
  },
  // Against the TS v2 server the lab published tools/list_changed itself; the recording holds it.
  {
    name: 'py-client-ts-server',
    verdict: 'ok',
    needsPython: true,
    drive: (url, py) => runPythonClient(py, url, 'clean'),
  },
  {
    name: 'py-client-cut-reissued',
    verdict: 'ok',
    needsPython: true,
    drive: (url, py) => runPythonClient(py, url, 'reissue'),
  },
  ...(['py-fault-server-request', 'py-fault-version-header', 'py-fault-method-header'] as const).map(
    (name): PyCase => ({
      name,
      verdict: name === 'py-fault-version-header' ? 'error' : 'ok',
      needsPython: true,
      drive: (url, py) => runPythonClient(py, url, 'call', { touchTool: true }),
      faults: requestFault(name),
    }),
  ),
  {
    name: 'py-server-ts-client',
    verdict: 'ok',
    needsPython: false,
    drive: (url) => runV2('v2-clean', driver(url, true)),
  },
  {
    name: 'py-server-cut-not-reissued',
    verdict: 'error',
    needsPython: false,
    drive: (url) => runV2('v2-cut-not-reissued', driver(url)),
  },
  { name: 'py-2025-resume', verdict: 'ok', needsPython: false, drive: (url) => resume132(url) },
];

/**
 * py-2025-resume: the Python server ends the session's streams (the standalone GET, the resume) some 50 ms after
 * the client's DELETE, and the SDK 1.32 client closes right after the DELETE's answer: which comes first is a race
 * (recorded: the server's ends; replayed here, often the client's close). The replay ends them after the live DELETE
 * as recorded (core/replay/gates.ts); their chunks are compared, their end may be either.
 */
function endedByDelete(capture: { connections: ConnectionRecord[] }): Set<ConnectionRecord> {
  const deleted = capture.connections.find((c) => c.method === 'DELETE')?.startTime;
  if (deleted === undefined) return new Set();
  return new Set(capture.connections.filter((c) => c.method === 'GET' && (c.endTime ?? 0) > deleted));
}

describe.concurrent('replay to the client run that recorded the Python SDK traffic', () => {
  for (const { name, verdict, drive, needsPython, faults } of CASES) {
    const overlay = faults && faults.length > 0 ? ` (the request fault ${faults.map((f) => f.spec).join(', ')})` : '';
    it.skipIf(needsPython && !python.ok)(
      `${name}${overlay}: same findings, same verdict, the recorded chunks and cuts`,
      async () => {
        const py = python.ok ? python.python : '';
        const run = await replayFixture(name, (url) => drive(url, py), faults && faults.length > 0 ? { faults } : {});
        expect(run.result.verdict, `${run.result.steps.join('; ')} | ${run.result.errors.join('; ')}`).toBe(verdict);
        expect(run.divergences).toEqual([]);
        expect(rulesOf(run.recording)).toEqual(rulesOf(run.original));
        const pairs = paired(run.original, run.recording);
        expect(pairs).toHaveLength(run.original.connections.length);
        expect(pairs).toHaveLength(run.recording.connections.length);
        const raced = name === 'py-2025-resume' ? endedByDelete(run.original) : new Set<ConnectionRecord>();
        for (const [recorded, live] of pairs) {
          const shape = wireShape(live);
          // A raced end: the client's own close (`open`) stands for the server's end it beat.
          const end = raced.has(recorded) && shape.end === 'open' ? 'complete' : shape.end;
          expect({ ...shape, end }, `${recorded.id} ${recorded.method} ${recorded.requestBody ?? ''}`).toEqual(
            wireShape(recorded),
          );
        }
      },
      TIMEOUT,
    );
  }
});
