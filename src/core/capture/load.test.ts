import { describe, expect, it } from 'vitest';
import { InputError } from './errors';
import { serializeCapture } from './format';
import { loadInput, MAX_JSON_FILE_BYTES } from './load';
import { analyze } from '../analyze';
import { sampleCapture } from './samples.fixture';
import { fixtureEntries, readFixture } from '../fixtures-dir.fixture';

const enc = new TextEncoder();
const torn = readFixture('cut-mid-event');
const tornHar = enc.encode(torn.har);
const tornNdjson = torn.ndjson;
const tornEntries = fixtureEntries('cut-mid-event');

function loadError(bytes: Uint8Array, name: string, options?: { chunksNdjson?: string }): InputError {
  try {
    loadInput(bytes, name, options);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected loadInput to fail');
}

describe('loadInput sniffs the content, not the name', () => {
  it('capture v1, whatever the file is called', () => {
    const bytes = enc.encode(serializeCapture(sampleCapture(), { revealSecrets: true }));
    expect(loadInput(bytes, 'capture.json')).toEqual(sampleCapture());
    expect(loadInput(bytes, 'saved.txt')).toEqual(sampleCapture());
  });

  it('HAR, with a BOM and leading whitespace, and with its chunks companion', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x0a, ...tornHar]);
    const methods = loadInput(withBom, 'export').connections.map((c) => c.method);
    expect(methods).toEqual(tornEntries.map((e) => e.method));
    expect(methods.sort()).toEqual(['GET', 'GET', 'POST', 'POST', 'POST']);
    const split = loadInput(tornHar, 'capture.har', { chunksNdjson: tornNdjson });
    const cut = tornEntries.findIndex((e) => e.streamState === 'failed');
    const recorded = tornNdjson
      .split('\n')
      .filter((l) => l.includes('"type":"chunk"') && l.includes(`"entry":${cut + 1},`));
    // The importer splits the body into the chunks the proxy wrote: priming, progress 1 and 2, the torn event.
    expect(recorded.length).toBeGreaterThanOrEqual(4);
    expect(split.connections[cut]!.chunks).toHaveLength(recorded.length);
    expect(loadInput(tornHar, 'capture.har').connections[cut]!.chunks).toHaveLength(1);
  });

  it('raw event streams, with or without a saved head, whatever the name', () => {
    expect(loadInput(enc.encode('\n: keepalive\nid: 1\ndata: {}\n\n'), 'stream.json').connections[0]!.source).toBe(
      'raw',
    );
    expect(loadInput(enc.encode('data: x\n\n'), 'a').connections[0]!.url).toBe('file://a');
    expect(
      loadInput(enc.encode('HTTP/1.1 200 OK\r\n\r\nevent: message\ndata: {}\n\n'), 'b').connections[0]!.status,
    ).toBe(200);
  });

  it('a .sse file of blank lines only (keep-alives) is a stream with no events, not an empty input', () => {
    const [record] = loadInput(enc.encode('\n\n\r\n'), 'idle.sse').connections;
    expect(record).toMatchObject({ source: 'raw', url: 'file://idle.sse' });
    expect(record!.chunks.map((c) => c.bytes.length)).toEqual([4]);
  });

  it('a stream whose first line is an unknown field is parsed (a parser ignores the field)', () => {
    const text = 'x-trace: 7\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n';
    for (const name of ['stream.sse', 'stream.txt']) {
      const capture = loadInput(enc.encode(text), name);
      expect(capture.connections[0]!.source).toBe('raw');
      expect(analyze(capture).events.length).toBe(1);
    }
  });

  it.each<[string, Uint8Array, string, RegExp]>([
    ['an empty file', new Uint8Array(0), 'x.sse', /^empty input/],
    ['blank lines not named .sse', enc.encode(' \n\n'), 'x.txt', /^empty input/],
    ['prose opening with a colon-word', enc.encode('Note: hello\nsecond line\n'), 'notes.txt', /^not a capture/],
    [
      'JSON that is neither',
      enc.encode('{"hello": "world"}'),
      'x.json',
      /^a JSON object that is neither an mcp-stream-inspector capture \(no "format" field\) nor a HAR \(no "log" field\)$/,
    ],
    ['a JSON array', enc.encode('[1, 2]'), 'x', /^JSON \(array\) that is neither/],
    [
      'a truncated .har',
      enc.encode('{"log": {"entries": [{'),
      'x.har',
      /^the file ends inside log\.entries\[0\] \(HAR entry 1\) at byte 22: it was cut short$/,
    ],
    ['a .har that is not JSON at all', enc.encode('hello'), 'x.har', /^malformed JSON at line 1, column 1/],
    [
      'plain text',
      enc.encode('hello world\nsecond line'),
      'notes.txt',
      /^not a capture, HAR or event stream: the first line \("hello world"\)/,
    ],
    [
      'invalid UTF-8 in JSON',
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      'x.json',
      /^invalid UTF-8 at byte offset 6$/,
    ],
  ])('rejects %s with a precise message', (_name, bytes, name, message) => {
    expect(loadError(bytes, name).message).toMatch(message);
  });

  it('rejects a chunks companion for input that is not a HAR', () => {
    const capture = enc.encode(serializeCapture(sampleCapture()));
    expect(loadError(capture, 'c.json', { chunksNdjson: '' }).message).toMatch(
      /applies to HAR input only, and this is a capture file/,
    );
    expect(loadError(enc.encode('data: x\n\n'), 's', { chunksNdjson: '' }).message).toMatch(
      /applies to HAR input only, and this is a raw event stream/,
    );
  });

  it('loads a 32 MiB capture whole', () => {
    const big = sampleCapture();
    const payload = new Uint8Array(4 * 1024 * 1024).fill(0x61);
    big.connections[0]!.chunks = Array.from({ length: 8 }, (_, i) => ({ t: i, bytes: payload }));
    const bytes = enc.encode(serializeCapture(big));
    const loaded = loadInput(bytes, 'big.json');
    expect(loaded.connections[0]!.chunks.map((c) => c.t)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(
      loaded.connections[0]!.chunks.every((c) => c.bytes.length === payload.length && c.bytes.every((b) => b === 0x61)),
    ).toBe(true);
  });
});

describe('loadInput on a JSON file too big to be one text', () => {
  it('says how big it is and what to do, instead of a JSON error at character 0', () => {
    // Zero pages cost nothing until written: only the first byte is.
    const bytes = new Uint8Array(MAX_JSON_FILE_BYTES + 1);
    bytes[0] = 0x7b; // {
    expect(() => loadInput(bytes, 'big.har')).toThrow(
      /the file is 512 MiB: a capture or HAR file is read as one JSON text, and the longest text this runtime makes is 512 MiB/,
    );
  });
});
