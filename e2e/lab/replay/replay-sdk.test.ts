// Runs in Node (vitest): recorded lab fixtures served again by `startReplay` (src/replay/) to the same real SDK 1.32
// client that made them: the replay's recording gives the core the same findings, every response goes in the
// recorded chunks and every cut falls at the same byte. No assertion on durations: content, order and causality.
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../../src/core/capture/model';
import { runScenario } from '../client/run-scenario';
import { clientScenario } from '../proxy-run';
import { findScenario, type Scenario, type ScenarioName, type ToolCall } from '../scenarios';
import { paired, replayFixture, rulesOf, wireShape } from './replay-run';

const TIMEOUT = 30_000;
/** The fixtures hold big_result capped to 64 KiB (fixtures/README.md): the client asks for what was recorded. */
const RECORDED_BIG_RESULT = 64 * 1024;

/** resume-409: how many refused resumes the client makes before its call times out is a race of its own timers. */
const RACING_CLIENT_TIMERS = new Set<string>(['resume-409']);

/**
 * A call that times out: the SDK sends `notifications/cancelled` and the application closes the client at once. In
 * Chromium, where these were recorded, that POST reached the proxy before the close aborted it (recorded `aborted`,
 * unanswered or after its 202 head); Node's fetch aborts it before it leaves, so nothing reaches the replay and
 * `server-close-not-resumed` loses `retry-ignored` (the cancel is what it judges). The run keeps the client this
 * long after the call: the POST goes out, and the close still aborts it unanswered, as recorded.
 */
const CANCEL_SENT_MS = 300;

/**
 * fault-close-resumes: the recorded client resumed every `retry: 150` ms for the 3 s the application kept it after
 * its call (18 resumes). How many fit in that window is the client's retry timer racing the application's: kept 3 s
 * here it made 18 or 19, and a 19th is a resume the recorded client never made (refused 400, a divergence). Kept
 * 2.6 s it makes about 15, each answered as recorded; the recorded storm's last resumes stay unmatched.
 */
const STORM_LINGER_MS = 2600;

function capped(scenario: Scenario): Scenario {
  const calls = scenario.calls.map((call): ToolCall =>
    call.tool === 'big_result' ? { ...call, args: { ...call.args, sizeBytes: RECORDED_BIG_RESULT } } : call,
  );
  return { ...scenario, calls };
}

const lingering = (name: ScenarioName, lingerMs: number): Scenario => ({ ...clientScenario(name), lingerMs });

/** Fixtures recorded with the SDK 1.32 client (the AI SDK's for one), replayed to it running the same scenario. */
const SAME_CLIENT: readonly [string, Scenario][] = [
  ...(
    [
      'cut-mid-event',
      'replay-boundary',
      'skip-on-resume',
      'resume-409',
      'resume-404',
      'legacy-sse',
      'clean',
      'resume-after-error',
      'server-close-resumed',
      'ai-sdk-close-not-resumed',
    ] as const
  ).map((name): [string, Scenario] => [name, capped(clientScenario(name))]),
  ...(['epoch-restart-clamp', 'epoch-restart-fresh', 'orphaned-elicitation', 'server-close-not-resumed'] as const).map(
    (name): [string, Scenario] => [name, lingering(name, CANCEL_SENT_MS)],
  ),
];

/** A GET carrying Last-Event-ID: a resume. */
const isResume = (record: ConnectionRecord): boolean =>
  record.method === 'GET' && record.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id');

describe.concurrent('replay to the SDK 1.32 client that was recorded', () => {
  for (const [name, scenario] of SAME_CLIENT) {
    it(
      `${name}: same findings, same verdict, the recorded chunks and cuts`,
      async () => {
        const run = await replayFixture(name, (url) =>
          runScenario(scenario, { baseUrl: new URL(url).origin, selectScenario: false }),
        );
        expect(run.result.verdict, run.result.detail).toBe(scenario.clientVerdict);
        expect(run.divergences).toEqual([]);
        expect(rulesOf(run.recording)).toEqual(rulesOf(run.original));
        const pairs = paired(run.original, run.recording);
        // Every live exchange was a recorded one; all of them were, but where the client's own timers race.
        expect(pairs).toHaveLength(run.recording.connections.length);
        const unmatched = run.original.connections.length - pairs.length;
        expect(RACING_CLIENT_TIMERS.has(name) ? 0 : unmatched).toBe(0);
        for (const [recorded, live] of pairs) {
          expect(wireShape(live), `${recorded.id} ${recorded.method} ${recorded.requestBody ?? ''}`).toEqual(
            wireShape(recorded),
          );
        }
      },
      TIMEOUT,
    );
  }
});

describe('replay of a fault the proxy struck, to the SDK 1.32 client that was recorded', () => {
  it(
    'fault-close-resumes (close-resumes): the same storm of resumes, each answered as recorded, same findings',
    async () => {
      const scenario: Scenario = { ...(findScenario('resume-after-error') as Scenario), lingerMs: STORM_LINGER_MS };
      const run = await replayFixture('fault-close-resumes', (url) =>
        runScenario(scenario, { baseUrl: new URL(url).origin, selectScenario: false }),
      );
      expect(run.result.verdict, run.result.detail).toBe('error'); // the tool's -32042, as recorded
      expect(run.divergences).toEqual([]);
      expect(rulesOf(run.recording)).toEqual(['reconnect-storm', 'resume-after-answer']);
      expect(rulesOf(run.original)).toEqual(['reconnect-storm', 'resume-after-answer']);
      const pairs = paired(run.original, run.recording);
      expect(pairs).toHaveLength(run.recording.connections.length);
      for (const [recorded, live] of pairs) expect(wireShape(live), recorded.id).toEqual(wireShape(recorded));
      // What the live client did not get to is the end of the storm: resumes only, after every one it made.
      const matched = new Set(pairs.map(([recorded]) => recorded));
      const rest = run.original.connections.filter((record) => !matched.has(record));
      expect(rest.every(isResume)).toBe(true);
      const lastMatched = Math.max(...pairs.map(([recorded]) => recorded.startTime));
      expect(rest.every((record) => record.startTime > lastMatched)).toBe(true);
      expect(pairs.filter(([recorded]) => isResume(recorded)).length).toBeGreaterThanOrEqual(10); // a storm still
    },
    TIMEOUT,
  );
});
