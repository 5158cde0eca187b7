// Runs in Node (vitest): the recordings through real intermediaries (`nginx-*`, `compression-*`, fixtures/README.md)
// served again to the SDK 1.32 client run that made them. No nginx and no compression() here: the recording, made at
// the client, holds what the box in between delivered (its cuts after a silence, its held bursts), so the replay
// plays it at speed 1, the silences included: the silence rules (idle-timeout-cut, buffered-stream, request-hang)
// judge times. The replay's recording gives the core the same findings, every response goes in the recorded chunks,
// every cut at the same byte. No assertion on durations.
import { describe, expect, it } from 'vitest';
import type { Capture, ConnectionRecord } from '../../../src/core/capture/model';
import { fixtureCapture } from '../../../src/core/replay/replay.fixture';
import { CaptureRecorder } from '../../../src/proxy/capture-recorder';
import { startReplay } from '../../../src/replay/replay-server';
import { runScenario } from '../client/run-scenario';
import { clientScenario, findRun } from '../nginx/runs';
import { until } from '../proxy-run';
import { paired, replayFixture, rulesOf, wireShape } from './replay-run';

const TIMEOUT = 30_000;

/** The run's verdicts, as the recorder's plans say (nginx/recording.ts). */
const RECORDED: readonly [string, 'ok' | 'hung'][] = [
  ['nginx-idle-get-cut', 'ok'],
  ['nginx-slow-call-cut', 'ok'],
  ['nginx-slow-call-lost', 'hung'],
  ['nginx-keepalive-fixed', 'ok'],
  ['nginx-buffered', 'ok'],
  ['compression-buffered', 'ok'],
  ['compression-streamed', 'ok'],
];

/**
 * nginx-idle-get-cut: the application keeps the idle client 7 s, and the client opens its GET again 150 ms after
 * each cut nginx made 2 s into it: recorded, the fourth opened 0.5 s before the close. On a loaded machine the
 * replay's timers and the client's, late at each of the three steps, can lose that race (one GET fewer). Kept 7.5 s
 * the fourth comes in time and the fifth (due at 8.8 s) still does not: the same GETs, the last closed by the client.
 */
const LINGER: Readonly<Record<string, number>> = { 'nginx-idle-get-cut': 7_500 };

describe.concurrent('replay of what nginx and compression() delivered, to the SDK 1.32 client', () => {
  for (const [name, verdict] of RECORDED) {
    it(
      `${name}: same findings, same verdict, the recorded chunks and cuts`,
      async () => {
        const recorded = clientScenario(findRun(name));
        const scenario = { ...recorded, lingerMs: LINGER[name] ?? recorded.lingerMs };
        const run = await replayFixture(name, (url) =>
          runScenario(scenario, { baseUrl: new URL(url).origin, selectScenario: false }),
        );
        expect(run.result.verdict, run.result.detail).toBe(verdict);
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
      },
      TIMEOUT,
    );
  }

  /**
   * nginx-request-hang: the recording stops 32 s after the first request while the client waits (the answer came at
   * 36 s, after it: not in the recording, so no replay can give it). The replay's recording is taken at the same
   * moment of the live run, then the client gives up (its call timeout set just past it: the timeout is not on the
   * wire). So the verdict is not the recorded run's `ok` but `hung`. The streams are open then, alive with a comment
   * every 500 ms, the last 358 ms before the recording stopped: on timers later than that, it is not sent yet.
   */
  const HANG_STOP_SLACK_MS = 1_000;
  it('nginx-request-hang: the same request-hang at the moment the recording stopped, the recorded chunks so far', async () => {
    const original = fixtureCapture('nginx-request-hang');
    const stopAfterMs = (original.observedUntil ?? 0) - firstStart(original);
    const scenario = {
      ...clientScenario(findRun('nginx-request-hang')),
      callTimeoutMs: stopAfterMs + HANG_STOP_SLACK_MS,
    };
    const recorder = new CaptureRecorder({ name: 'replay-lab', version: '0' });
    const replay = await startReplay({ capture: original, recorder });
    let snapshot: Capture = { ...original, connections: [] };
    try {
      const running = runScenario(scenario, { baseUrl: replay.origin, selectScenario: false });
      await until(() => recorder.capture().connections.length > 0);
      const due = firstStart(recorder.capture()) + stopAfterMs;
      await new Promise((resolve) => setTimeout(resolve, due - (performance.timeOrigin + performance.now())));
      snapshot = structuredClone(recorder.capture());
      const result = await running;
      expect(result.verdict, result.detail).toBe('hung');
    } finally {
      await replay.close();
    }
    expect(replay.divergences()).toEqual([]);
    expect(rulesOf(snapshot)).toEqual(rulesOf(original));
    expect(rulesOf(snapshot)).toEqual(['request-hang']);
    const pairs = paired(original, snapshot);
    expect(pairs).toHaveLength(original.connections.length);
    expect(pairs).toHaveLength(snapshot.connections.length);
    for (const [recorded, live] of pairs) {
      const why = `${recorded.id} ${recorded.method} ${recorded.requestBody ?? ''}`;
      const [want, got] = [wireShape(recorded), wireShape(live)];
      expect(got.end, why).toBe(want.end);
      // The recorded chunks, in order; at most the last one not sent yet (a later one never was recorded).
      expect(got.chunks, why).toEqual(want.chunks.slice(0, got.chunks.length));
      expect(got.chunks.length, why).toBeGreaterThanOrEqual(want.chunks.length - 1);
    }
  }, 60_000);
});

function firstStart(capture: { connections: ConnectionRecord[] }): number {
  return Math.min(...capture.connections.map((c) => c.startTime));
}
