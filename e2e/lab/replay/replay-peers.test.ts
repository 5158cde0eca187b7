// Runs in Node (vitest): replays to other clients than the SDK 1.32 one. The 2026-07-28 recordings (TypeScript SDK
// v2) and a Python-recorded one replayed to the client that made them; a capture of the SDK 1.32 client replayed to
// the v2 client and to the Python client (their divergences named); and a capture of a bug (a torn event on
// resume) replayed to a fixed client, the product's client guard in front of the SDK 1.32 client: no finding.
import { describe, expect, it } from 'vitest';
import { createClientGuard } from '../../../src/client-guard/index';
import { runScenario } from '../client/run-scenario';
import { recordingFetch } from '../client/recording-fetch';
import { clientScenario } from '../proxy-run';
import { runPythonClient } from '../python/peers';
import { pythonForTests } from '../python/venv';
import { streamProgressText } from '../payload';
import { connect, runV2, textOf, type V2Driver, type V2RunName } from '../v2/runs';
import { paired, replayFixture, rulesOf, wireShape } from './replay-run';
import { analyze } from '../../../src/core/analyze';

const TIMEOUT = 60_000;
const python = pythonForTests();
/** The stream_progress call of the cut-mid-event scenario, as the SDK 1.32 client made it. */
const RECORDED_CALL = { count: 6, delayMs: 60 };

/** The v2 lab's driver for a replay: no cut to plan (the recording has it), no server to poke. */
const driver = (url: string): V2Driver => ({ url, plans: { push: () => undefined }, toolsChanged: () => undefined });

describe.concurrent('replay to the clients that were recorded', () => {
  for (const name of ['v2-clean', 'v2-cut-not-reissued', 'v2-cut-reissued'] as const satisfies V2RunName[]) {
    it(
      `${name} (2026-07-28, SDK v2 client): same findings, the recorded chunks and cuts`,
      async () => {
        const run = await replayFixture(name, (url) => runV2(name, driver(url)));
        expect(run.divergences).toEqual([]);
        expect(rulesOf(run.recording)).toEqual(rulesOf(run.original));
        const pairs = paired(run.original, run.recording);
        expect(pairs).toHaveLength(run.original.connections.length);
        for (const [recorded, live] of pairs) expect(wireShape(live), recorded.id).toEqual(wireShape(recorded));
      },
      TIMEOUT,
    );
  }

  it.skipIf(!python.ok)(
    'py-client-cut-not-reissued (recorded with the Python client): same findings, the recorded chunks and cut',
    async () => {
      if (!python.ok) return;
      const run = await replayFixture('py-client-cut-not-reissued', (url) =>
        runPythonClient(python.python, url, 'cut'),
      );
      expect(run.result.steps.join('; ')).toContain('stream_progress failed');
      expect(run.divergences).toEqual([]);
      expect(rulesOf(run.recording)).toEqual(['stateless-request-not-reissued']);
      const pairs = paired(run.original, run.recording);
      expect(pairs).toHaveLength(run.original.connections.length);
      for (const [recorded, live] of pairs) expect(wireShape(live), recorded.id).toEqual(wireShape(recorded));
    },
    TIMEOUT,
  );
});

describe.concurrent('a capture of the SDK 1.32 client replayed to other clients', () => {
  it(
    'the v2 client at the 2025 handshake gets the torn event, resumes from the same cursor and gets the recorded rest',
    async () => {
      const progress: number[] = [];
      let text = '';
      const run = await replayFixture('cut-mid-event', async (url) => {
        const client = await connect(driver(url), '2025');
        try {
          const result = await client.callTool(
            { name: 'stream_progress', arguments: RECORDED_CALL },
            { onprogress: (p) => progress.push(p.progress) },
          );
          text = textOf(result);
        } finally {
          await client.close();
        }
      });
      expect(text).toBe(streamProgressText(RECORDED_CALL));
      expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
      expect(run.divergences).toEqual([]);
      expect(rulesOf(run.recording)).toEqual(rulesOf(run.original));
    },
    TIMEOUT,
  );

  it.skipIf(!python.ok)(
    'the Python client probes server/discover (refused 400, unrecorded), falls back to initialize and gets the cut',
    async () => {
      if (!python.ok) return;
      const run = await replayFixture('cut-mid-event', (url) => runPythonClient(python.python, url, 'call'));
      const kinds = run.divergences.map((d) => d.kind);
      expect(kinds[0]).toBe('unrecorded-request');
      expect(run.divergences[0]?.request).toContain('server/discover');
      expect(kinds).toContain('other-params');
      // The recorded cut reached the Python client at the same byte of the same event.
      const call = paired(run.original, run.recording).find(([recorded]) =>
        recorded.requestBody?.includes('tools/call'),
      );
      expect(call && wireShape(call[1])).toEqual(call && wireShape(call[0]));
    },
    TIMEOUT,
  );
});

describe('a capture of a bug replayed to a fixed client', () => {
  it(
    'cut-mid-event (torn-event-reconnect) to the SDK 1.32 client behind the client guard: what the client got has no finding',
    async () => {
      const scenario = clientScenario('cut-mid-event');
      let guarded: ReturnType<typeof recordingFetch> | undefined;
      const run = await replayFixture('cut-mid-event', (url) => {
        const guard = createClientGuard({ fetch: (input, init) => fetch(input, init) });
        guarded = recordingFetch(guard.fetch);
        return runScenario(scenario, { baseUrl: new URL(url).origin, fetch: guarded.fetch, selectScenario: false });
      });
      expect(run.result.verdict, run.result.detail).toBe('ok');
      expect(run.divergences).toEqual([]);
      // On the wire the replay did what the recorded server did: the torn event, as recorded.
      expect(rulesOf(run.recording)).toEqual(['torn-event-reconnect']);
      // Behind the guard the SDK client received whole events only.
      const seen = {
        tool: { name: 'guarded-client', version: '0' },
        createdAt: 0,
        connections: guarded?.connections ?? [],
      };
      expect(analyze(seen).findings.map((f) => f.rule)).toEqual([]);
    },
    TIMEOUT,
  );
});
