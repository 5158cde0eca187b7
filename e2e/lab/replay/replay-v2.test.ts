// Runs in Node (vitest): the TypeScript SDK v2 recordings not replayed in replay-peers.test.ts, served again to the
// v2 client run that made them: the mixed-era and same-id re-send runs, the version fallback, and every 2026-07-28
// violation the fault proxy made (`v2-fault-*`). The replay's recording gives the core the same findings, every
// response goes in the recorded chunks, every cut at the same byte, and the client does what it did.
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../../src/core/fault/fault';
import { parseFaultSpec } from '../../../src/core/fault/spec';
import { probeFallbackClient } from '../v2/fallback';
import { listenOnly, twoClients, V2_FAULT_PLANS } from '../v2/faults-run';
import { runV2, type V2Driver, type V2RunResult } from '../v2/runs';
import { paired, replayFixture, rulesOf, wireShape } from './replay-run';

const TIMEOUT = 30_000;

/** The v2 lab's driver for a replay: no cut to plan (the recording has it), no server to poke (it has the event). */
const driver = (url: string): V2Driver => ({ url, plans: { push: () => undefined }, toolsChanged: () => undefined });

/**
 * A fault on the request (a header set, the requestState altered) changed what the server got, and the recording
 * holds the request as the server got it: the live client sends it unchanged. The same fault overlaid on the replay
 * rewrites it as the proxy did, so the replay matches it, and records it, as the recorded server saw it. A fault on
 * the response (an injected request, ids added or crossed, an acknowledgement dropped) is in the recorded bytes: the
 * replay adds nothing.
 */
const REQUEST_FAULTS = new Set(['set-header', 'alter-request-state']);

function overlaid(name: string): Fault[] {
  const plan = V2_FAULT_PLANS.find((p) => p.name === name);
  if (!plan) throw new Error(`no fault plan ${name}`);
  return plan.faults.flatMap((spec) => {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) throw new Error(parsed.error);
    return REQUEST_FAULTS.has(parsed.fault.kind) ? [parsed.fault] : [];
  });
}

interface V2Case {
  name: string;
  /** The client run that made the recording, against the replay's URL. */
  drive(url: string): Promise<V2RunResult>;
  /** How the recorded client ended (expected.json's notes). */
  verdict: V2RunResult['verdict'];
  faults?: Fault[];
}

const clean = (url: string): Promise<V2RunResult> => runV2('v2-clean', driver(url));

const RUNS: readonly V2Case[] = [
  { name: 'v2-mixed-eras', drive: (url) => runV2('v2-mixed-eras', driver(url)), verdict: 'error' },
  { name: 'probe-fallback', drive: probeFallbackClient, verdict: 'ok' },
  // The recorded run gave up waiting for the acknowledgement after 1 s; the one tools/list_changed is recorded.
  { name: 'v2-fault-listen-ack-dropped', drive: (url) => listenOnly(url, () => Promise.resolve()), verdict: 'error' },
  { name: 'v2-fault-server-request', drive: clean, verdict: 'ok' },
  { name: 'v2-fault-version-header', drive: clean, verdict: 'ok' },
  { name: 'v2-fault-method-header', drive: clean, verdict: 'ok' },
  { name: 'v2-fault-request-state', drive: clean, verdict: 'ok' },
  { name: 'v2-fault-session-header', drive: clean, verdict: 'ok' },
  { name: 'v2-fault-event-ids', drive: clean, verdict: 'ok' },
  { name: 'v2-fault-response-id', drive: twoClients, verdict: 'error' },
];
const CASES = RUNS.map((c): V2Case => (c.name.startsWith('v2-fault-') ? { ...c, faults: overlaid(c.name) } : c));

async function expectSameRun({ name, drive, verdict, faults }: V2Case): Promise<void> {
  const run = await replayFixture(name, drive, faults && faults.length > 0 ? { faults } : {});
  expect(run.result.verdict, `${run.result.steps.join('; ')} | ${run.result.errors.join('; ')}`).toBe(verdict);
  expect(run.divergences).toEqual([]);
  expect(rulesOf(run.recording)).toEqual(rulesOf(run.original));
  const pairs = paired(run.original, run.recording);
  expect(pairs).toHaveLength(run.original.connections.length);
  expect(pairs).toHaveLength(run.recording.connections.length);
  for (const [recorded, live] of pairs) {
    expect(wireShape(live), `${recorded.id} ${recorded.method} ${recorded.requestBody ?? ''}`).toEqual(
      wireShape(recorded),
    );
  }
}

const overlayOf = (faults: Fault[] | undefined): string =>
  faults && faults.length > 0 ? ` (the request fault ${faults.map((f) => f.spec).join(', ')})` : '';

describe.concurrent('replay to the TypeScript SDK v2 client that was recorded', () => {
  for (const c of CASES) {
    it(
      `${c.name}${overlayOf(c.faults)}: same findings, same verdict, the recorded chunks and cuts`,
      () => expectSameRun(c),
      TIMEOUT,
    );
  }
});

describe('replay to the TypeScript SDK v2 client that was recorded, alone', () => {
  // Its call waits 1.5 s for the answer to the application's re-send (the run's timeout for a cut call); recorded,
  // that answer came 0.43 s after the call. Sharing this worker's event loop with the ten replays and clients above,
  // on a loaded machine, the answer came after the 1.5 s: a race of the client's timer with the machine, not of the
  // replay. So it runs after them, alone.
  it(
    'v2-reissued-same-id: same findings, same verdict, the recorded chunks and cuts',
    () =>
      expectSameRun({
        name: 'v2-reissued-same-id',
        drive: (url) => runV2('v2-reissued-same-id', driver(url)),
        verdict: 'ok',
      }),
    TIMEOUT,
  );
});
