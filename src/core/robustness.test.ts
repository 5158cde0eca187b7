// Hostile and broken input: every failure is an InputError with a precise message, and analysis never throws.
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { InputError } from './capture/errors';
import { serializeCapture } from './capture/format';
import { loadInput } from './capture/load';
import type { Capture, ConnectionRecord } from './capture/model';
import { readFixture } from './fixtures-dir.fixture';

const encoder = new TextEncoder();
const harText = readFixture('cut-mid-event').har;

/** A small seeded generator so every failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomBytes(next: () => number, length: number, alphabet?: string): Uint8Array {
  if (alphabet)
    return encoder.encode(Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
  return Uint8Array.from({ length }, () => Math.floor(next() * 256));
}

function sseConnection(id: string, chunks: Uint8Array[], extra: Partial<ConnectionRecord> = {}): ConnectionRecord {
  return {
    id,
    source: 'fetch',
    method: 'GET',
    url: 'http://127.0.0.1:1/mcp',
    requestHeaders: [{ name: 'mcp-session-id', value: 's' }],
    startTime: 1,
    status: 200,
    responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }],
    chunks: chunks.map((bytes, i) => ({ t: 2 + i, bytes })),
    end: 'network-error',
    ...extra,
  };
}

function capture(connections: ConnectionRecord[]): Capture {
  return { tool: { name: 't', version: '0' }, createdAt: 0, connections };
}

function loadOrError(bytes: Uint8Array, name: string): Capture | Error {
  try {
    return loadInput(bytes, name);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function analyzed(capture: Capture): 'analyzed' {
  analyze(capture);
  return 'analyzed';
}

describe('loading broken files', () => {
  it('reports every truncation of a HAR as an InputError, never anything else', () => {
    for (let cut = 0; cut < harText.length; cut += Math.max(1, Math.floor(harText.length / 300))) {
      expect(() => loadInput(encoder.encode(harText.slice(0, cut)), 'capture.har'), `cut at ${cut}`).toThrow(
        InputError,
      );
    }
    expect(() => loadInput(encoder.encode(harText.slice(0, 500)), 'capture.har')).toThrow(
      /^the file ends (before its JSON is complete|inside log\.entries\[0\] \(HAR entry 1\)), at byte 500: it was cut short$/,
    );
  });

  it('reports every truncation of a capture file as an InputError', () => {
    const text = serializeCapture(loadInput(encoder.encode(harText), 'capture.har'));
    for (let cut = 1; cut < text.length; cut += Math.max(1, Math.floor(text.length / 300))) {
      expect(() => loadInput(encoder.encode(text.slice(0, cut)), 'capture.json'), `cut at ${cut}`).toThrow(InputError);
    }
  });

  it('reads random bytes as a raw stream or refuses them with an InputError', () => {
    const next = random(7);
    for (let round = 0; round < 200; round += 1) {
      const bytes = randomBytes(next, 1 + Math.floor(next() * 400), round % 2 ? undefined : '{}[]":,ab\n\r ');
      const loaded = loadOrError(bytes, `f${round}`);
      // Refused with an InputError, or loaded and then analyzed without a throw: nothing else.
      const outcome = loaded instanceof InputError ? 'refused' : loaded instanceof Error ? loaded : analyzed(loaded);
      expect(['refused', 'analyzed'], `round ${round}`).toContain(outcome);
    }
  });
});

describe('analysing hostile streams', () => {
  it('never throws on random SSE-ish bytes in random chunkings, and every finding is well-formed', () => {
    const next = random(42);
    for (let round = 0; round < 150; round += 1) {
      const connections = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => {
        const chunks = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
          randomBytes(next, Math.floor(next() * 120), 'id: data:event:retry\n\r{}"jsonrpc2.0:,1 \u00e9'),
        );
        const headers =
          i > 0 && next() < 0.5
            ? [
                { name: 'mcp-session-id', value: 's' },
                { name: 'last-event-id', value: String(Math.floor(next() * 5)) },
              ]
            : undefined;
        return sseConnection(
          `c${i}`,
          chunks,
          headers ? { requestHeaders: headers, startTime: 1 + i * 10 } : { startTime: 1 + i * 10 },
        );
      });
      const analysis = analyze(capture(connections));
      for (const finding of analysis.findings) {
        expect(finding.rule).toMatch(/^[a-z-]+$/);
        expect(['error', 'warning', 'info']).toContain(finding.severity);
        expect(finding.message).not.toContain('could not run');
      }
    }
  });

  it('decodes invalid UTF-8 as U+FFFD and still classifies the event', () => {
    const bytes = Uint8Array.from([
      ...encoder.encode('id: 1\ndata: {"jsonrpc":"2.0","method":"x","params":{"t":"'),
      0xff,
      0xc3,
      ...encoder.encode('"}}\n\n'),
    ]);
    const analysis = analyze(capture([sseConnection('c1', [bytes], { end: 'complete' })]));
    expect(analysis.events.at(0)?.data).toContain('\ufffd');
    expect(analysis.events.at(0)?.messages[0]?.method).toBe('x');
  });

  it('handles one 8 MB event cut into 64 KiB chunks', () => {
    const body = encoder.encode(
      `id: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(8 * 1024 * 1024) } })}\n\n`,
    );
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < body.length; at += 65536) chunks.push(body.subarray(at, at + 65536));
    const analysis = analyze(capture([sseConnection('c1', chunks, { end: 'complete' })]));
    expect(analysis.events).toHaveLength(1);
    expect(analysis.events.at(0)).toMatchObject({
      start: 0,
      end: body.length,
      firstChunk: 0,
      lastChunk: chunks.length - 1,
    });
    expect(analysis.findings.filter((f) => f.rule === 'incomplete-json')).toEqual([]);
  });

  it('copes with records that carry almost nothing', () => {
    const bare: ConnectionRecord = {
      id: 'x',
      source: 'fetch',
      method: 'POST',
      url: 'not a url',
      requestHeaders: [],
      startTime: 0,
      chunks: [],
      end: 'network-error',
      requestBody: '{"jsonrpc":"2.0","id":"__proto__","method":"tools/call"}',
    };
    expect(() => analyze(capture([bare, { ...bare, id: 'y', requestBody: '[]' }]))).not.toThrow();
  });
});
