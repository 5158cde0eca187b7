import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeRead, type Analysis } from '../core/analyze';
import { InputError } from '../core/capture/errors';
import { serializeCapture } from '../core/capture/format';
import { loadInput } from '../core/capture/load';
import { createRedactor, redactCapture } from '../core/capture/redact/capture';
import { FIXTURES_DIR } from '../core/fixtures-dir.fixture';
import { toJsonReport } from './json-report';
import { MAX_ENTRY_BYTES } from '../core/capture/json-stream';
import { elementLines } from './locate';
import type { RangeReader } from './file-chunks';
import { readInput, type ReadInput } from './stream-input';

const encoder = new TextEncoder();
const scenarios = readdirSync(FIXTURES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The bytes in pieces of `size` (each its own copy, as the real reads give them). */
async function* piecesOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

/** What the CLI prints from an analysis: the JSON report and the findings. */
function outcome(capture: ReturnType<typeof loadInput>) {
  return outcomeOf(analyze(capture));
}

function outcomeOf(analysis: Analysis) {
  return { report: toJsonReport(analysis), findings: analysis.findings };
}

/** The analysis the CLI makes of what it read: raw bodies were parsed while they were read. */
function outcomeRead(read: ReadInput) {
  return outcomeOf(read.bodies ? analyzeRead(read.capture, read.bodies) : analyze(read.capture));
}

/** Streamed in pieces of several sizes (1 byte splits every token and UTF-8 sequence), and whole. */
async function expectSameAsWhole(bytes: Uint8Array, name: string): Promise<void> {
  const whole = outcome(loadInput(bytes, name));
  for (const size of [1, 7, 4096, 1 << 20]) {
    const read = await readInput(piecesOf(bytes, size), name, { lines: true });
    expect(outcome(read.capture), `${name} in pieces of ${size}`).toEqual(whole);
    const lines = read.source.kind === 'json' ? read.source.lines : undefined;
    expect(lines).toEqual(read.source.kind === 'json' ? elementLines(bytes) : undefined);
    // Read from a file, a raw stream's chunks keep no bytes: they read the file again, and analyze the same.
    const again =
      read.source.kind === 'raw'
        ? outcome((await readInput(piecesOf(bytes, size), name, { lines: true, ranges: rangesOf(bytes) })).capture)
        : whole;
    expect(again, `${name} in pieces of ${size}, read again`).toEqual(whole);
    // As the CLI analyzes it: a raw body parsed while it was read, from memory and from the file.
    expect(outcomeRead(read), `${name} in pieces of ${size}, parsed as read`).toEqual(whole);
    const fromFile = await readInput(piecesOf(bytes, size), name, { lines: true, ranges: rangesOf(bytes) });
    expect(fromFile.bodies?.size ?? 0, name).toBe(read.source.kind === 'raw' ? 1 : 0);
    expect(outcomeRead(fromFile), `${name} in pieces of ${size}, parsed as read from the file`).toEqual(whole);
  }
}

/** A file held in memory as a RangeReader, counting the reads. */
function rangesOf(bytes: Uint8Array): RangeReader & { reads: number } {
  return {
    reads: 0,
    read(offset, length) {
      this.reads++;
      return bytes.slice(offset, offset + length);
    },
    close() {},
  };
}

/** The SSE bodies of a fixture's HAR, read with plain JSON.parse. */
function sseBodies(har: string): string[] {
  const doc = JSON.parse(har) as { log: { entries: { response: { content: { text?: string } } }[] } };
  return doc.log.entries.flatMap((e) => {
    const text = e.response.content.text;
    return text !== undefined && /^(id|data|event|:)/m.test(text) ? [text] : [];
  });
}

describe('streamed input equals the whole-file path on every committed fixture', () => {
  it.each(scenarios)('%s: its HAR, the capture file made from it, and its SSE bodies as raw streams', async (name) => {
    const har = readFileSync(join(FIXTURES_DIR, name, 'capture.har'));
    await expectSameAsWhole(har, 'capture.har');
    const capture = encoder.encode(serializeCapture(loadInput(har, 'capture.har'), { revealSecrets: true }));
    await expectSameAsWhole(capture, 'capture.json');
    const bodies = sseBodies(har.toString('utf8'));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      await expectSameAsWhole(encoder.encode(body), 'stream.sse');
      const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n';
      await expectSameAsWhole(encoder.encode(head + body), 'stream.sse');
    }
  });

  it('a BOM, key orders that differ from our writers, and every cut of a HAR: the same capture or an InputError', async () => {
    const har = readFileSync(join(FIXTURES_DIR, 'resume-404', 'capture.har'), 'utf8');
    const doc = JSON.parse(har) as { log: Record<string, unknown> };
    const { entries, ...rest } = doc.log;
    const reordered = JSON.stringify({ extra: [1, { a: 'b' }], log: { entries, ...rest } }, null, 1);
    await expectSameAsWhole(encoder.encode(`\uFEFF${reordered}`), 'capture.har');
    const bytes = encoder.encode(har);
    for (let cut = 0; cut < bytes.length; cut += Math.ceil(bytes.length / 60)) {
      const part = bytes.subarray(0, cut);
      const streamed = readInput(piecesOf(part, 4096), 'capture.har', { lines: false });
      await expect(streamed, `cut at ${cut}`).rejects.toBeInstanceOf(InputError);
      expect(() => loadInput(part, 'capture.har')).toThrow(InputError);
    }
  });
});

describe('a raw stream read from a file', () => {
  it('keeps no bytes: the report reads every event from the file again, and the analysis is the same', async () => {
    // 11 MB of progress (more than the 8 MiB of chunks kept), then the stream repeats event 2 and ends torn: the
    // JSON report holds every event's data, long evicted from the chunks kept.
    const progress = (n: number) =>
      `id: ${n}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n}}}\n\n`;
    const events = Array.from({ length: 100_000 }, (_, i) => progress(i + 1)).join('');
    const bytes = encoder.encode(`${events}${progress(2)}id: 100001\ndata: {"jsonrpc":"2.0","id":1,"res`);
    const whole = outcome(loadInput(bytes, 'long.sse'));
    expect(whole.report.sessions[0]?.streams[0]?.events).toHaveLength(100_001);
    const file = rangesOf(bytes);
    const read = await readInput(piecesOf(bytes, 1 << 20), 'long.sse', { lines: true, ranges: file });
    expect(outcome(read.capture)).toEqual(whole);
    expect(file.reads).toBeGreaterThan(0);
  });
});

describe('a raw stream masked as it is read', () => {
  it('gives the analysis redactCapture gives, its masks patched into the chunks read again from the file', async () => {
    // 12 MB: events with a credential field each, some lines cut by the 1 MiB pieces (a value across a boundary),
    // one 2 MB line over three pieces with secrets at both ends; more than the 8 MiB of chunks kept.
    const secret = (n: number) => `tok-${n.toString(36)}-${'s'.repeat(n % 50)}`;
    const event = (n: number) =>
      `id: ${n}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"access_token":"${secret(n)}","n":${n}}}\n\n`;
    const long = `id: long\ndata: {"jsonrpc":"2.0","id":1,"result":{"Api-Key":"${secret(7)}","text":"${'x'.repeat(2 << 20)}","password":"${secret(8)}"}}\n\n`;
    const lead = Array.from({ length: 5_000 }, (_, i) => event(i + 1)).join('');
    // Not JSON (its parse error quotes it), cut by the first piece boundary inside its secret; a torn tail at the end.
    const pad = `:${'p'.repeat(2 ** 20 - lead.length - 30)}\n`;
    const bad = `data: {"access_token":"${secret(424_242)}","oops"}\n\n`;
    const events = Array.from({ length: 85_000 }, (_, i) => event(i + 5_001)).join('');
    const torn = `id: tail\ndata: {"jsonrpc":"2.0","id":2,"result":{"password":"${secret(99)}`;
    const bytes = encoder.encode(`${lead}${pad}${bad}${events}${long}${event(90_001)}${torn}`);
    const expected = redactCapture(loadInput(bytes, 'creds.sse'));
    const redactor = createRedactor();
    const file = rangesOf(bytes);
    const read = await readInput(piecesOf(bytes, 1 << 20), 'creds.sse', { lines: true, ranges: file, redactor });
    const reads = file.reads;
    const redacted = redactor.redact(read.capture, read.bodyMasked);
    // Masking needed no read of the file; the chunks of the redacted capture are the file-backed ones.
    expect(file.reads).toBe(reads);
    expect(redacted.capture.connections[0]?.chunks).toBe(read.capture.connections[0]?.chunks);
    const got = outcome(redacted.capture);
    expect(got).toEqual(outcome(expected.capture));
    // Parsed while it was read, each piece once its masks were final: the same analysis, no secret in it.
    const asRead = outcomeRead({ ...read, capture: redacted.capture });
    expect(asRead).toEqual(got);
    for (const hidden of [secret(424_242), secret(99)]) expect(JSON.stringify(asRead)).not.toContain(hidden);
    expect(JSON.stringify(asRead)).toContain('incomplete');
    const text = JSON.stringify(got.report);
    expect(text).not.toContain(secret(7));
    expect(text).not.toContain(secret(90_001));
    expect(file.reads).toBeGreaterThan(reads);
    // What the masks hid is known to the scrub of free text, as redactCapture's is.
    expect(redacted.scrub(`saw ${secret(8)}`)).toBe(expected.scrub(`saw ${secret(8)}`));
    expect(redacted.scrub(`saw ${secret(8)}`)).not.toContain(secret(8));
  });
});

describe('input errors of streamed JSON', () => {
  const read = (text: string, name = 'x.har') => readInput(piecesOf(encoder.encode(text), 3), name, { lines: false });
  /** Expects the streamed read to fail with the whole-file path's message. */
  const expectSame = async (text: string, name = 'x.har') => {
    const whole = (() => {
      try {
        loadInput(encoder.encode(text), name);
        return 'no error';
      } catch (error) {
        return (error as InputError).message;
      }
    })();
    await expect(read(text, name)).rejects.toThrow(whole);
  };

  it('says what the whole-file path says about the document and its entries', async () => {
    await expectSame('{"hello": 1}');
    await expectSame('[1, 2]');
    await expectSame('{"log": []}');
    await expectSame('{"log": {"entries": {"a": {}}}}');
    await expectSame('{"log": {"creator": {}}}');
    await expectSame('{"log": {"entries": [1]}}');
    await expectSame('{"log": {"entries": [{"startedDateTime": "x", "request": {}}]}}');
    await expectSame('{"format": "other", "connections": []}');
    await expectSame('{"format": "mcp-stream-inspector/capture", "version": "1", "connections": []}');
    await expectSame('{"format": "mcp-stream-inspector/capture", "version": 1, "connections": [{"id": 3}]}');
  });

  it('says what the whole-file path says of every truncation and of absurd values', async () => {
    const har = readFileSync(join(FIXTURES_DIR, 'cut-mid-event', 'capture.har'), 'utf8');
    const step = Math.floor(har.length / 60);
    for (let cut = 1; cut < har.length; cut += step) await expectSame(har.slice(0, cut));
    const capture = serializeCapture(loadInput(encoder.encode(har), 'x.har'));
    for (let cut = 1; cut < capture.length; cut += Math.floor(capture.length / 40))
      await expectSame(capture.slice(0, cut), 'x.json');
    const doc = JSON.parse(har) as { log: { entries: Record<string, Record<string, unknown>>[] } };
    const edits: ((entry: Record<string, Record<string, unknown>>) => void)[] = [
      (e) => (e.response!.status = 99999),
      (e) => ((e as Record<string, unknown>).time = 1e17),
      (e) => (e.timings!.wait = -5),
      (e) => (e.response!.bodySize = -5),
    ];
    for (const edit of edits) {
      const copy = structuredClone(doc);
      edit(copy.log.entries[1]!);
      await expectSame(JSON.stringify(copy));
    }
  });

  it('names the byte of a syntax error and of an unfinished file', async () => {
    await expect(read('{"log": {"entries": [}]}}')).rejects.toThrow(/^malformed JSON at byte 21: /);
    await expect(read('{"log": {"entries": [')).rejects.toThrow(
      'the file ends before its JSON is complete, at byte 21: it was cut short',
    );
    await expect(read('{"log": {"entries": [{"a": 1}, {"b": [')).rejects.toThrow(
      'the file ends inside log.entries[1] (HAR entry 2) at byte 38: it was cut short',
    );
    await expect(read('{"log": {"entries": [{"a": 1}, {"b": 2}')).rejects.toThrow(
      'the file ends after log.entries[1] (HAR entry 2) at byte 39: it was cut short',
    );
  });

  it('refuses an entry over 256 MiB with its index and first byte, without reading it whole', async () => {
    const opening = encoder.encode('{"log": {"entries": [{"a": 1}, {"request": {"url": "');
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield opening;
      const filler = new Uint8Array(1 << 20).fill(0x61);
      for (let sent = 0; sent <= MAX_ENTRY_BYTES; sent += filler.length) yield filler;
    }
    await expect(readInput(huge(), 'big.har', { lines: false })).rejects.toThrow(
      'log.entries[1]: this HAR entry, from byte 31, is over 256 MiB',
    );
  });

  it('refuses a raw event over 256 MiB with the byte it starts at', async () => {
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield encoder.encode('id: 1\ndata: small\n\nid: 2\ndata: ');
      const filler = new Uint8Array(1 << 20).fill(0x61);
      for (let sent = 0; sent <= MAX_ENTRY_BYTES; sent += filler.length) yield filler;
    }
    await expect(readInput(huge(), 'big.sse', { lines: false })).rejects.toThrow(
      'the event starting at byte 19 runs past 256 MiB',
    );
  });
});

describe('a raw event that grows past the limit is found whatever its line ends', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s: the blank line before it is seen, even cut between two pieces', async (_name, eol) => {
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield encoder.encode(`id: 1${eol}data: small${eol}`);
      yield encoder.encode(`${eol}data: `); // the blank line ends here, across the pieces' seam for LF
      const filler = new Uint8Array(1 << 20).fill(0x61);
      for (let sent = 0; sent <= MAX_ENTRY_BYTES; sent += filler.length) yield filler;
    }
    const start = encoder.encode(`id: 1${eol}data: small${eol}${eol}`).length;
    await expect(readInput(huge(), 'big.sse', { lines: false })).rejects.toThrow(
      `the event starting at byte ${start} runs past 256 MiB`,
    );
  });
});
