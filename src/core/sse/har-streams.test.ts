import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChunks, parseEveryWay } from './test-support';
import { EXAMPLES_DIR } from '../examples-dir.fixture';

// Real MCP SDK traffic recorded through a fault proxy: ../shared/examples beside the checkout (CI lays it there too).
const EXAMPLES = EXAMPLES_DIR;

interface HarEntry {
  request: { method: string };
  response: { content: { text?: string } };
}

function harBodies(example: string): string[] {
  const har = JSON.parse(readFileSync(`${EXAMPLES}/${example}/capture.har`, 'utf8')) as { log: { entries: HarEntry[] } };
  return har.log.entries.map((e) => e.response.content.text ?? '');
}

/** Chunk sizes as the proxy saw them for one HAR entry (1-based in chunks.ndjson). */
function chunkSizes(example: string, entry: number): number[] {
  return readFileSync(`${EXAMPLES}/${example}/chunks.ndjson`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; entry: number; length?: number })
    .filter((r) => r.type === 'chunk' && r.entry === entry)
    .map((r) => r.length ?? 0);
}

function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  let at = 0;
  return sizes.map((size) => bytes.slice(at, (at += size)));
}

describe('SDK streams from the torn-replay example', () => {
  const bodies = harBodies('torn-replay-boundary-sdk-inmemory');
  const torn = new TextEncoder().encode(bodies[3]); // the POST whose response the proxy cut mid-event

  it('gives the priming event and two progress notifications, then a torn tail', () => {
    const { result, problems } = parseEveryWay(torn);
    expect(problems).toEqual([]);
    expect(result.events.map((e) => e.data === '' ? '(priming)' : (JSON.parse(e.data) as { params: { progress: number } }).params.progress)).toEqual([
      '(priming)',
      1,
      2,
    ]);
    expect(result.events.every((e) => e.hasId && e.lastEventId.startsWith('db173ed2-'))).toBe(true);
    expect(result.events[0]).toMatchObject({ type: 'message', data: '', lastEventId: 'db173ed2-2e82-456d-a2d1-76c55b64efeb_1795967688308_5humigxl' });
    // The cut came 60 bytes into the event: after "event: message", inside its id line, before any data.
    expect(result.tail).toMatchObject({
      start: 520,
      type: 'message',
      dataLines: [],
      pendingLine: 'id: db173ed2-2e82-456d-a2d1-76c55b64efeb_1795',
      hasData: false,
    });
    expect(result.tail?.bytes.length).toBe(60);
  });

  it('maps events to the chunks the proxy delivered', () => {
    const sizes = chunkSizes('torn-replay-boundary-sdk-inmemory', 4);
    expect(sizes).toEqual([72, 224, 224, 60]);
    const parsed = parseChunks(cut(torn, sizes));
    expect(parsed.events.map(({ start, end, firstChunk, lastChunk }) => ({ start, end, firstChunk, lastChunk }))).toEqual([
      { start: 0, end: 72, firstChunk: 0, lastChunk: 0 },
      { start: 72, end: 296, firstChunk: 1, lastChunk: 1 },
      { start: 296, end: 520, firstChunk: 2, lastChunk: 2 },
    ]);
  });

  it('had the cut come inside the data line, the tail would hold data', () => {
    // The resumed GET re-sends the torn event whole; cutting it 120 bytes in puts the cut inside `data:`.
    const resent = new TextEncoder().encode(bodies[4]).slice(0, 120);
    const stream = new Uint8Array(520 + resent.length);
    stream.set(torn.slice(0, 520));
    stream.set(resent, 520);
    const { result, problems } = parseEveryWay(stream);
    expect(problems).toEqual([]);
    expect(result.events).toHaveLength(3);
    expect(result.tail).toMatchObject({
      start: 520,
      type: 'message',
      id: 'db173ed2-2e82-456d-a2d1-76c55b64efeb_1795967689061_m7kyhhpq',
      dataLines: [],
      hasData: true,
    });
    expect(result.tail?.pendingLine.startsWith('data: {"method":"notifications/progress"')).toBe(true);
  });

  it('the resumed GET stream is whole: five events, no tail', () => {
    const { result, problems } = parseEveryWay(new TextEncoder().encode(bodies[4]), [7]);
    expect(problems).toEqual([]);
    expect(result.events).toHaveLength(5);
    expect(result.tail).toBeUndefined();
  });
});

describe('SDK streams from the clean control example', () => {
  it('every response body parses to whole events; keepalive comments give none', () => {
    const bodies = harBodies('clean-control-sdk-inmemory');
    const counts = bodies.map((body) => {
      const parsed = parseChunks([new TextEncoder().encode(body)]);
      expect(parsed.tail).toBeUndefined();
      for (const event of parsed.events) if (event.data !== '') expect(() => JSON.parse(event.data)).not.toThrow();
      return parsed.events.length;
    });
    expect(counts[2]).toBe(0); // the GET stream carried only ": keepalive" comments
    expect(counts[4]).toBeGreaterThan(0); // a 300 kB tool result
  });
});
