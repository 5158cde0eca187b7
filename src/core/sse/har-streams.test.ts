import { describe, expect, it } from 'vitest';
import { parseChunks, parseEveryWay } from './test-support';
import { fixtureEntries, readFixture } from '../fixtures-dir.fixture';

// Real MCP SDK traffic the lab proxy recorded (fixtures/, npm run fixtures).
const enc = new TextEncoder();

/** Chunk sizes as the proxy wrote them for one HAR entry ("e4" is entry 4 in chunks.ndjson). */
function chunkSizes(fixture: string, id: string): number[] {
  const entry = Number(id.slice(1));
  return readFixture(fixture)
    .ndjson.split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; entry: number; length?: number })
    .filter((r) => r.type === 'chunk' && r.entry === entry)
    .map((r) => r.length ?? 0);
}

function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  let at = 0;
  return sizes.map((size) => bytes.slice(at, (at += size)));
}

const progressOf = (data: string): number | string =>
  data === '' ? '(priming)' : (JSON.parse(data) as { params: { progress: number } }).params.progress;

describe('SDK streams from the cut-mid-event recording', () => {
  const entries = fixtureEntries('cut-mid-event');
  const post = entries.find((e) => e.rpcMethod === 'tools/call')!;
  const resume = entries.find((e) => e.requestHeaders['last-event-id'] !== undefined)!;
  const torn = enc.encode(post.body); // the POST whose response the proxy cut mid-event
  const tornStart = post.body.lastIndexOf('event: message\n');
  const tornId = /^id: (.+)$/m.exec(post.body.slice(tornStart))![1]!;

  it('gives the priming event and two progress notifications, then a torn tail inside the data line', () => {
    expect(post.streamState).toBe('failed');
    const { result, problems } = parseEveryWay(torn);
    expect(problems).toEqual([]);
    expect(result.events.map((e) => progressOf(e.data))).toEqual(['(priming)', 1, 2]);
    const stream = tornId.split('_')[0]!;
    expect(result.events.every((e) => e.hasId && e.lastEventId.startsWith(`${stream}_`))).toBe(true);
    // The SDK server primes POST streams with an id, an empty data line and its retry hint.
    expect(result.events[0]).toMatchObject({
      type: 'message',
      data: '',
      lastEventId: /^id: (.+)$/m.exec(post.body)![1],
    });
    expect(result.events[2]!.lastEventId).toBe(resume.requestHeaders['last-event-id']);
    // The cut came 60 bytes into the data of progress 3: its event and id lines passed whole.
    expect(result.tail).toMatchObject({
      start: tornStart,
      type: 'message',
      id: tornId,
      dataLines: [],
      pendingLine: 'data: {"method":"notifications/progress","params":{"progressToken"',
      hasData: true,
    });
    expect(result.tail?.bytes.length).toBe(torn.length - tornStart);
    expect(result.tail?.bytes.length).toBe(`event: message\nid: ${tornId}\ndata: `.length + 60);
  });

  it('maps events to the chunks the proxy delivered; the cut itself is the last chunk', () => {
    const sizes = chunkSizes('cut-mid-event', post.id);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(torn.length);
    expect(sizes.at(-1)).toBe(60);
    const parsed = parseChunks(cut(torn, sizes));
    const bounds = sizes.map((_, i) => sizes.slice(0, i + 1).reduce((a, b) => a + b, 0));
    const chunkOf = (offset: number) => bounds.findIndex((end) => offset < end);
    expect(
      parsed.events.map(({ start, end, firstChunk, lastChunk }) => ({ start, end, firstChunk, lastChunk })),
    ).toEqual(
      parsed.events.map(({ start, end }) => ({ start, end, firstChunk: chunkOf(start), lastChunk: chunkOf(end - 1) })),
    );
    // Progress came 60 ms apart: every event ended at a chunk boundary, as the origin wrote them.
    expect(parsed.events.every((e) => bounds.includes(e.end))).toBe(true);
    expect(parsed.events.at(-1)?.end).toBe(tornStart);
    expect(parsed.tail?.start).toBe(tornStart);
  });

  it('had the cut come inside the id line, the tail would hold no data', () => {
    const resent = enc.encode(resume.body);
    const intoId = 'event: message\nid: '.length + 8;
    const stream = new Uint8Array(tornStart + intoId);
    stream.set(torn.slice(0, tornStart));
    stream.set(resent.slice(0, intoId), tornStart);
    const { result, problems } = parseEveryWay(stream);
    expect(problems).toEqual([]);
    expect(result.events).toHaveLength(3);
    expect(result.tail).toMatchObject({
      start: tornStart,
      type: 'message',
      dataLines: [],
      pendingLine: `id: ${tornId.slice(0, 8)}`,
      hasData: false,
    });
    expect(result.tail?.id).toBeUndefined();
  });

  it('the resumed GET stream is whole: progress 3 again under its id, 4 to 6, the answer; no tail', () => {
    const { result, problems } = parseEveryWay(enc.encode(resume.body), [7]);
    expect(problems).toEqual([]);
    expect(result.events).toHaveLength(5);
    expect(result.events[0]!.lastEventId).toBe(tornId);
    expect(result.events.slice(0, 4).map((e) => progressOf(e.data))).toEqual([3, 4, 5, 6]);
    expect(JSON.parse(result.events[4]!.data)).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
    expect(result.tail).toBeUndefined();
  });
});

describe('SDK streams from the clean control recording', () => {
  it('every response body parses to whole events; the standalone GET stream carried none', () => {
    const entries = fixtureEntries('clean');
    const counts = entries.map((entry) => {
      const parsed = parseChunks([enc.encode(entry.body)]);
      expect(parsed.tail).toBeUndefined();
      const withData = parsed.events.filter((e) => e.data !== '');
      expect(() => withData.forEach((e) => JSON.parse(e.data))).not.toThrow();
      return parsed.events.length;
    });
    const get = entries.findIndex((e) => e.method === 'GET');
    expect(counts[get]).toBe(0);
    // The big_result answer: one event holding the 64 KiB text, split over many chunks.
    const big = entries.find((e) => e.body.includes('big_result line 000001'))!;
    const [event] = parseChunks(cut(enc.encode(big.body), chunkSizes('clean', big.id))).events.filter((e) =>
      e.data.includes('big_result line'),
    );
    expect(event!.lastChunk).toBeGreaterThan(event!.firstChunk);
    expect(
      (JSON.parse(event!.data) as { result: { content: { text: string }[] } }).result.content[0]!.text,
    ).toHaveLength(64 * 1024);
  });
});
