// Runs in Node (vitest): the proxy's wire recorder and the HAR it becomes. A Node SDK client runs scenarios
// through the recording proxy; what the proxy says it delivered must be byte for byte what the client received.
import { describe, expect, it } from 'vitest';
import { importHar } from '../../src/core/capture/har';
import type { ConnectionRecord } from '../../src/core/capture/model';
import { recordingFetch, requestHeader } from './client/recording-fetch';
import { runScenario } from './client/run-scenario';
import { WireRecorder } from './proxy/wire-recorder';
import { findScenario, type ScenarioName } from './scenarios';
import { startLab } from './start-lab';
import { toChunksNdjson, toHar } from './wire-har';

const TIMEOUT = 15_000;

async function recorded(name: ScenarioName) {
  const scenario = findScenario(name)!;
  const recorder = new WireRecorder();
  const lab = await startLab({ build: 'never', scenario: name, recorder });
  try {
    const client = recordingFetch(undefined, (url) => !url.pathname.startsWith('/__lab/'));
    recorder.reset();
    const result = await runScenario(scenario, { baseUrl: lab.url, fetch: client.fetch, selectScenario: false });
    expect(await recorder.settled(5000)).toBe(true);
    const recording = { startedAt: recorder.startedAt, pageUrl: `${lab.url}/`, exchanges: recorder.exchanges() };
    const har = toHar(recording);
    const ndjson = toChunksNdjson(recording);
    return { result, har, ndjson, capture: importHar(har, { chunksNdjson: ndjson }), client: client.connections };
  } finally {
    await lab.close();
  }
}

const bytesOf = (record: ConnectionRecord): string =>
  Buffer.concat(record.chunks.map((c) => c.bytes)).toString('latin1');
const key = (record: ConnectionRecord): string =>
  `${record.method} ${record.requestBody ?? ''} ${requestHeader(record, 'last-event-id') ?? ''}`;

describe.concurrent('the lab proxy records what it delivered', () => {
  it(
    'cut-mid-event: every exchange, the bytes the client got, the cut ending failed 60 bytes into the data',
    async () => {
      const { result, capture, client, ndjson } = await recorded('cut-mid-event');
      expect(result.verdict).toBe('ok');
      expect(capture.connections.map(key).sort()).toEqual(client.map(key).sort());
      for (const record of capture.connections) {
        const seen = client.find((c) => key(c) === key(record))!;
        expect(bytesOf(record), key(record)).toBe(bytesOf(seen));
        expect(record.status).toBe(seen.status);
      }
      const cut = capture.connections.filter((c) => c.end === 'network-error');
      expect(cut.map((c) => JSON.parse(c.requestBody ?? '{}').method)).toEqual(['tools/call']);
      expect(cut[0]!.error).toMatch(/^cut by the lab proxy/);
      expect(Buffer.from(cut[0]!.chunks.at(-1)!.bytes).toString()).toBe(
        '{"method":"notifications/progress","params":{"progressToken"',
      );
      // The resume came after the cut ended, with the id of the last whole event.
      const resume = capture.connections.find((c) => requestHeader(c, 'last-event-id') !== undefined)!;
      expect(resume.startTime).toBeGreaterThanOrEqual(cut[0]!.endTime!);
      expect(bytesOf(cut[0]!)).toContain(
        `id: ${requestHeader(resume, 'last-event-id')}\ndata: {"method":"notifications/progress","params":{"progressToken":1,"progress":2,`,
      );
      // The companion is in time order and names each entry's request first.
      const lines = ndjson
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { tMs: number; type: string; entry: number });
      expect(lines.map((l) => l.tMs)).toEqual(lines.map((l) => l.tMs).sort((a, b) => a - b));
      capture.connections.forEach((_, i) => expect(lines.find((l) => l.entry === i + 1)?.type).toBe('request'));
    },
    TIMEOUT,
  );

  it(
    'resume-409: answers the proxy made up itself are recorded too, head and body',
    async () => {
      const { capture } = await recorded('resume-409');
      const refused = capture.connections.filter((c) => c.status === 409);
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const record of refused) {
        expect(record.end).toBe('complete');
        expect(record.responseHeaders).toContainEqual({ name: 'retry-after', value: '2' });
        expect(JSON.parse(bytesOf(record))).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      }
    },
    TIMEOUT,
  );
});
