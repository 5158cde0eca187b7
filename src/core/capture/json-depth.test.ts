import { describe, expect, it } from 'vitest';
import { readFixture } from '../fixtures-dir.fixture';
import { InputError } from './errors';
import { depthExceededAt, MAX_JSON_DEPTH } from './json-depth';
import { loadInput } from './load';
import { readCaptureStream } from './read-stream';

// A broken or hostile file nested past the limit is refused at the bracket that goes too deep, by the whole-file
// reader (library, CLI with --chunks) and the streaming one (CLI, the panel's import) alike.
const encode = (text: string) => new TextEncoder().encode(text);

async function* piecesOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

function wholeError(bytes: Uint8Array, name: string): string {
  try {
    loadInput(bytes, name);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  return 'no error';
}

async function streamError(bytes: Uint8Array, name: string, size: number): Promise<string> {
  return readCaptureStream(piecesOf(bytes, size), name).then(
    () => 'no error',
    (error: unknown) => (error instanceof InputError ? error.message : String(error)),
  );
}

const tooDeep = (byte: number) => `nested deeper than ${MAX_JSON_DEPTH} at byte ${byte}`;

describe('nesting deeper than MAX_JSON_DEPTH', () => {
  it('refuses 200,000 nested arrays, in one piece or in many', async () => {
    const levels = 200_000;
    const bytes = encode('['.repeat(levels) + ']'.repeat(levels));
    expect(wholeError(bytes, 'deep.json')).toContain(tooDeep(MAX_JSON_DEPTH));
    expect(await streamError(bytes, 'deep.json', 1 << 20)).toContain(tooDeep(MAX_JSON_DEPTH));
    expect(await streamError(bytes, 'deep.json', 4096)).toContain(tooDeep(MAX_JSON_DEPTH));
  });

  it('names the byte of the bracket that goes too deep, inside a HAR entry, past strings with brackets', async () => {
    const har = JSON.parse(readFixture('clean').har) as { log: { entries: Record<string, unknown>[] } };
    (har.log.entries[0] as Record<string, unknown>)._deep = 'DEEP';
    // Each level holds a string with brackets and an escaped quote, which must not count.
    const level = '{"s":"[{\\"[","a":';
    const deep = level.repeat(MAX_JSON_DEPTH) + '1' + '}'.repeat(MAX_JSON_DEPTH);
    const text = `\uFEFF${JSON.stringify(har).replace('"DEEP"', deep)}`;
    const bytes = encode(text);
    // The entry opens level 4 (root, log, entries, entry), `_deep` level 5: level 513 is its 509th level.
    const at = encode(text.slice(0, text.indexOf(deep))).length + 508 * level.length;
    const expected = `${tooDeep(at)}: no capture or HAR nests that deep (a broken or hostile file)`;
    expect(wholeError(bytes, 'x.har')).toBe(expected);
    for (const size of [1, 7, 1 << 16]) expect(await streamError(bytes, 'x.har', size)).toBe(expected);
  });

  it('reads a file at the limit', async () => {
    const atLimit = encode('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH));
    expect(depthExceededAt(atLimit)).toBe(-1);
    // Within the limit, the file is judged as before: JSON that is no capture.
    expect(wholeError(atLimit, 'x.json')).toMatch(/neither an mcp-stream-inspector capture/);
    expect(await streamError(atLimit, 'x.json', 100)).toMatch(/neither an mcp-stream-inspector capture/);
  });

  it('skips brackets in strings, escaped quotes included', () => {
    const text = `["${'[\\\\'.repeat(600)}\\"[[[", [[]]]`;
    expect(JSON.parse(text)).toHaveLength(2);
    expect(depthExceededAt(encode(text), 2)).toBe(text.lastIndexOf('[[]') + 1);
    expect(depthExceededAt(encode(text), 3)).toBe(-1);
  });
});
