import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { FIXTURES_DIR, readFixture } from '../fixtures-dir.fixture';
import { InputError } from './errors';
import { loadInput } from './load';
import { blobPieces, readCaptureStream } from './read-stream';

/** What a user sees of an import: the connections and the findings. */
const outcome = (capture: ReturnType<typeof loadInput>) => {
  const { connections, events, findings } = analyze(capture);
  return {
    connections: connections.map((c) => [c.id, c.record.method, c.record.status, c.role, c.sessionKey]),
    events: events.length,
    findings: findings.map((f) => [f.rule, f.connectionId, f.message]),
  };
};

async function* piecesOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

const encode = (text: string) => new TextEncoder().encode(text);
const INPUTS: [string, Uint8Array][] = [
  ['capture.har', encode(readFixture('cut-mid-event').har)],
  ['inspector.capture.json', readFileSync(join(FIXTURES_DIR, 'mcp-inspector-cut-mid-event.capture.json'))],
  ['stream.sse', encode('id: 1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n: keep-alive\n\nid: 3\ndata: x\n\n')],
  ['bom.har', new Uint8Array([0xef, 0xbb, 0xbf, ...encode(readFixture('clean').har)])],
];

describe('readCaptureStream', () => {
  it.each(INPUTS)(
    'reads %s in pieces (1 byte, 7, 64 KiB, whole) to what loadInput makes of it whole',
    async (name, bytes) => {
      const whole = outcome(loadInput(bytes, name));
      expect(whole.connections.length).toBeGreaterThan(0);
      for (const size of [1, 7, 1 << 16, bytes.length]) {
        const capture = await readCaptureStream(piecesOf(bytes, size), name);
        expect(outcome(capture), `${name} in pieces of ${size}`).toEqual(whole);
      }
    },
  );

  it('reads a Blob slice by slice, telling each piece read', async () => {
    const bytes = encode(readFixture('clean').har);
    const told: number[] = [];
    const capture = await readCaptureStream(blobPieces(new Blob([bytes]), 5000), 'x.har', {
      onProgress: (n) => told.push(n),
    });
    expect(outcome(capture)).toEqual(outcome(loadInput(bytes, 'x.har')));
    expect(told).toEqual(
      Array.from({ length: Math.ceil(bytes.length / 5000) }, (_, i) => Math.min((i + 1) * 5000, bytes.length)),
    );
  });

  it('gives the same precise error as loadInput for a file cut short, and for one that is none of the kinds', async () => {
    const har = encode(readFixture('clean').har);
    const cut = har.slice(0, Math.floor(har.length / 2));
    const expected = (() => {
      try {
        loadInput(cut, 'cut.har');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(expected).toBeInstanceOf(InputError);
    await expect(readCaptureStream(piecesOf(cut, 4096), 'cut.har')).rejects.toThrow(InputError);
    await expect(readCaptureStream(piecesOf(cut, 4096), 'cut.har')).rejects.toThrow(/cut short|ends|end of/i);
    await expect(readCaptureStream(piecesOf(encode('hello there'), 3), 'notes.txt')).rejects.toThrow(
      /not a capture, HAR or event stream/,
    );
  });

  it('stops between two pieces when its signal is aborted, with the reason, reading no further', async () => {
    const bytes = encode(readFixture('clean').har);
    const abort = new AbortController();
    let given = 0;
    async function* pieces(): AsyncGenerator<Uint8Array> {
      for await (const piece of piecesOf(bytes, 1000)) {
        given++;
        // The user cancels once the opening is read (64 KiB) and the JSON reading is under way.
        if (given === 70) abort.abort(new Error('cancelled by the user'));
        yield piece;
      }
    }
    await expect(readCaptureStream(pieces(), 'x.har', { signal: abort.signal })).rejects.toThrow(
      'cancelled by the user',
    );
    expect(given).toBe(70);
    expect(bytes.length).toBeGreaterThan(70_000);
  });
});

describe('readCaptureStream on invalid UTF-8', () => {
  const harText = readFixture('cut-mid-event').har;
  /** The fixture with `bad` put in after the last of `needles`, each found after the one before. */
  const spoiled = (needles: string[], bad: number[]): Uint8Array => {
    const end = needles.reduce((from, needle) => {
      const at = harText.indexOf(needle, from);
      if (at === -1) throw new Error(`no ${needle} in the fixture`);
      return at + needle.length;
    }, 0);
    const bytes = encode(harText);
    const at = encode(harText.slice(0, end)).length;
    return new Uint8Array([...bytes.subarray(0, at), ...bad, ...bytes.subarray(at)]);
  };
  const body = ['"content": {', '"text": "'];
  const CASES: [string, Uint8Array][] = [
    ['a lone continuation byte in a response body', spoiled(body, [0x80])],
    ['a lead byte without its continuation in a body', spoiled(body, [0xc3, 0x28])],
    ['an overlong encoding in a URL', spoiled(['"url": "http://'], [0xc0, 0xaf])],
    ['an encoded surrogate in a header value', spoiled(['"headers": [', '"value": "'], [0xed, 0xa0, 0x80])],
    ['a bad byte in a request body', spoiled(['"postData": {', '"text": "'], [0xfe])],
    ['a 4-byte sequence cut short between two events of a body', spoiled([...body, '\\n\\n'], [0xf0, 0x9f, 0x98])],
    ['a valid 4-byte character, then a bad byte', spoiled(body, [0xf0, 0x9f, 0x98, 0x80, 0xff])],
  ];

  it.each(CASES)('says where %s is, to the byte, in pieces of any size', async (_name, bytes) => {
    const whole = (() => {
      try {
        loadInput(bytes, 'x.har');
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return 'no error';
    })();
    expect(whole).toMatch(/^invalid UTF-8 at byte offset \d+$/);
    const told: string[] = [];
    const sizes = [1, 2, 3, 5, 64, 4096, bytes.length];
    for (const size of sizes) {
      const error = await readCaptureStream(piecesOf(bytes, size), 'x.har').then(
        () => new Error('no error'),
        (e: unknown) => e,
      );
      told.push(error instanceof InputError ? error.message : String(error));
    }
    expect(told).toEqual(sizes.map(() => whole));
  });
});
