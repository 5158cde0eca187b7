// Runs in Node (vitest): `mcp-stream-inspector replay` in-process: a lab fixture (HAR + chunks.ndjson) served to the
// real SDK 1.32 client, the URL on the first line, divergences printed as they happen, the recording it writes
// analysed by `analyze`; and the proxy's faults overlaid on a replay.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDir } from '../../../src/core/fixtures-dir.fixture';
import { runScenario } from '../client/run-scenario';
import { analyzedRules, clientScenario, RECORDINGS, startCli, until } from '../proxy-run';
import { connect, runV2, type V2Driver } from '../v2/runs';

const TIMEOUT = 30_000;

function replayArgs(name: string, ...more: string[]): string[] {
  const dir = fixtureDir(name);
  return ['replay', join(dir, 'capture.har'), '--chunks', join(dir, 'chunks.ndjson'), '--port', '0', ...more];
}

function recordingPath(file: string): string {
  mkdirSync(RECORDINGS, { recursive: true });
  return join(RECORDINGS, file);
}

describe.concurrent('mcp-stream-inspector replay', () => {
  it(
    'serves cut-mid-event to the SDK 1.32 client at speed 0: the same torn event, no divergence, the recording says so',
    async () => {
      const file = recordingPath('replay-cut-mid-event.json');
      const cli = await startCli(replayArgs('cut-mid-event', '--speed', '0', '--record', file));
      expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const result = await runScenario(clientScenario('cut-mid-event'), {
        baseUrl: new URL(cli.url).origin,
        selectScenario: false,
      });
      await until(() => cli.lines().filter((l) => /^ {0,2}\d+ {2}[A-Z]+ {2}/.test(l)).length >= 5);
      expect(await cli.stop()).toBe(0);
      expect(result.verdict, result.detail).toBe('ok');
      expect(cli.lines().filter((line) => line.startsWith('divergence '))).toEqual([]);
      expect(cli.lines().some((line) => line.includes('torn-event-reconnect'))).toBe(true);
      expect(await analyzedRules(file)).toEqual(['torn-event-reconnect']);
    },
    TIMEOUT,
  );

  it(
    'prints each divergence as it happens: a 2026-07-28 call re-issued where the recorded client gave up',
    async () => {
      const cli = await startCli(replayArgs('v2-cut-not-reissued', '--speed', '0'));
      const lab: V2Driver = { url: cli.url, plans: { push: () => undefined }, toolsChanged: () => undefined };
      const run = await runV2('v2-cut-reissued', lab);
      expect(await cli.stop()).toBe(0);
      expect(run.verdict).toBe('error'); // the re-issued call got the replay's 400: nothing was recorded to answer it
      const divergences = cli.lines().filter((line) => line.startsWith('divergence '));
      expect(divergences).toHaveLength(1);
      expect(divergences[0]).toMatch(/^divergence reissued-request {2}POST \/mcp tools\/call #\d+: refused 400: /);
    },
    TIMEOUT,
  );

  it(
    "--fault overlays the proxy's faults: clean cut 60 bytes into an event, resumed from the recorded stream",
    async () => {
      const file = recordingPath('replay-clean-cut.json');
      const cli = await startCli(replayArgs('clean', '--fault', 'cut-mid-event:60', '--record', file));
      const lab: V2Driver = { url: cli.url, plans: { push: () => undefined }, toolsChanged: () => undefined };
      const client = await connect(lab, '2025');
      const progress: number[] = [];
      try {
        await client.callTool(
          { name: 'stream_progress', arguments: { count: 5, delayMs: 60 } },
          { onprogress: (p) => progress.push(p.progress) },
        );
      } finally {
        await client.close();
      }
      expect(await cli.stop()).toBe(0);
      expect(cli.lines().some((line) => /^fault cut-mid-event:60 {2}cut/.test(line))).toBe(true);
      const divergences = cli.lines().filter((line) => line.startsWith('divergence '));
      expect(divergences).toHaveLength(1);
      expect(divergences[0]).toMatch(
        /^divergence resumed-where-recorded-gave-up {2}GET \/mcp Last-Event-ID .*continued/,
      );
      expect(progress).toEqual([1, 2, 3, 4, 5]);
      expect(await analyzedRules(file)).toEqual(['torn-event-reconnect']);
    },
    TIMEOUT,
  );

  it('refuses an input it cannot read, with the reason', async () => {
    const cli = await startCli(['replay', join(fixtureDir('clean'), 'expected.json')]);
    expect(await cli.stop()).toBe(2);
    expect(cli.err()).toMatch(/expected\.json: /);
  });
});
