// Runs in Node (vitest): recorded lab fixtures served again by `startReplay` (src/replay/) to the same real SDK 1.32
// client that made them: the replay's recording gives the core the same findings, every response goes in the
// recorded chunks and every cut falls at the same byte. No assertion on durations: content, order and causality.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../client/run-scenario';
import { clientScenario } from '../proxy-run';
import type { Scenario, ScenarioName, ToolCall } from '../scenarios';
import { paired, replayFixture, rulesOf, wireShape } from './replay-run';

const TIMEOUT = 30_000;
/** The fixtures hold big_result capped to 64 KiB (fixtures/README.md): the client asks for what was recorded. */
const RECORDED_BIG_RESULT = 64 * 1024;

/** resume-409: how many refused resumes the client makes before its call times out is a race of its own timers. */
const RACING_CLIENT_TIMERS = new Set<ScenarioName>(['resume-409']);

function capped(scenario: Scenario): Scenario {
  const calls = scenario.calls.map((call): ToolCall =>
    call.tool === 'big_result' ? { ...call, args: { ...call.args, sizeBytes: RECORDED_BIG_RESULT } } : call,
  );
  return { ...scenario, calls };
}

/** Fixtures recorded with the SDK 1.32 client, replayed to it running the same scenario. */
const SAME_CLIENT: readonly ScenarioName[] = [
  'cut-mid-event',
  'replay-boundary',
  'skip-on-resume',
  'resume-409',
  'resume-404',
  'legacy-sse',
  'clean',
  'resume-after-error',
  'server-close-resumed',
];

describe.concurrent('replay to the SDK 1.32 client that was recorded', () => {
  for (const name of SAME_CLIENT) {
    it(
      `${name}: same findings, same verdict, the recorded chunks and cuts`,
      async () => {
        const scenario = capped(clientScenario(name));
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
