// The HAR reader keeps a body's bytes instead of its text (BodyStringBuilder in the tokenizer): the bytes must be
// exactly what encoding the decoded text gave, for every escape and character, cut into pieces anywhere.
import { Tokenizer } from '@streamparser/json';
import { describe, expect, it } from 'vitest';
import { concatBytes } from './bytes';
import { loadInput } from './load';
import { readCaptureStream } from './read-stream';

const encode = (text: string) => new TextEncoder().encode(text);

async function* piecesOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

/** A HAR of one SSE entry whose `content` members are `content` (JSON text), and a request body. */
function har(content: string): Uint8Array {
  const entry = `{"startedDateTime":"2026-12-01T10:00:00.000Z","time":5,"request":{"method":"POST","url":"http://127.0.0.1:3000/mcp","headers":[],"postData":{"mimeType":"application/json","text":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"tools/call\\"}"}},"response":{"status":200,"headers":[{"name":"content-type","value":"text/event-stream"}],"content":{${content}}},"timings":{"send":1,"wait":1,"receive":3}}`;
  return encode(`{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[${entry}]}}`);
}

const bodyOf = (capture: ReturnType<typeof loadInput>) =>
  Array.from(concatBytes(capture.connections.map((c) => concatBytes(c.chunks.map((k) => k.bytes)))));
const requestOf = (capture: ReturnType<typeof loadInput>) => capture.connections.map((c) => c.requestBody);

const BODIES: [string, string][] = [
  ['plain', '"text":"data: {\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{}}\\n\\n"'],
  ['escapes of every kind', '"text":"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00 end"'],
  ['lone surrogates', '"text":"x\\ud800y\\udc00z\\ud83d"'],
  ['multi-byte characters', `"text":"${'é€😀'.repeat(50)}${'a'.repeat(70_000)}${'€'.repeat(30_000)}"`],
  ['a body longer than the string buffer', `"text":"${'data: 0123456789\\n'.repeat(20_000)}"`],
  ['base64', `"encoding":"base64","text":"${btoa('data: {"jsonrpc":"2.0"}\n\n')}"`],
  ['two text members: the last counts', '"text":"first","mimeType":"text/event-stream","text":"second"'],
  ['an empty body', '"text":""'],
  ['a text that is not a string after one that is', '"text":"first","text":null'],
  ['a number where the text is, then strings', '"size":3,"text":7,"mimeType":"text/event-stream"'],
];

describe('HAR bodies kept as bytes', () => {
  it('has its place in the tokenizer (a private field of @streamparser/json: an upgrade without it is slower)', () => {
    const fields = new Tokenizer({ stringBufferSize: 65536 }) as unknown as {
      bufferedString?: { appendBuf?: unknown };
    };
    expect(typeof fields.bufferedString?.appendBuf).toBe('function');
  });

  it.each(BODIES)('%s: the same body bytes and request text as loadInput, in pieces of any size', async (_, c) => {
    const bytes = har(c);
    let whole: { body: number[]; request: unknown } | { error: string };
    try {
      const capture = loadInput(bytes, 'x.har');
      whole = { body: bodyOf(capture), request: requestOf(capture) };
    } catch (error) {
      whole = { error: String(error) };
    }
    for (const size of [1, 3, 1000, bytes.length]) {
      const streamed = await readCaptureStream(piecesOf(bytes, size), 'x.har').then(
        (capture) => ({ body: bodyOf(capture), request: requestOf(capture) }),
        (error: unknown) => ({ error: String(error) }),
      );
      expect(streamed, `pieces of ${size}`).toEqual(whole);
    }
  });

  it('keeps each of several long bodies whole, though their blocks are used again', async () => {
    const one = new TextDecoder().decode(har(`"text":"${'data: first\\n'.repeat(30_000)}"`));
    const entry = (text: string) => text.slice(text.indexOf('"entries":[') + 11, text.lastIndexOf(']}}'));
    const second = entry(new TextDecoder().decode(har(`"text":"${'data: second\\n'.repeat(20_000)}é"`)));
    const third = entry(new TextDecoder().decode(har('"text":"short"')));
    const bytes = encode(one.replace(/]}}$/, `,${second},${third}]}}`));
    const whole = loadInput(bytes, 'x.har');
    const streamed = await readCaptureStream(piecesOf(bytes, 4096), 'x.har');
    expect(streamed.connections.map((c) => concatBytes(c.chunks.map((k) => k.bytes)).length)).toEqual([
      360_000, 260_002, 5,
    ]);
    expect(streamed.connections.map((c) => Array.from(concatBytes(c.chunks.map((k) => k.bytes))))).toEqual(
      whole.connections.map((c) => Array.from(concatBytes(c.chunks.map((k) => k.bytes)))),
    );
  });

  it('says where invalid UTF-8 in a body is, as when the body was decoded', async () => {
    const [head, tail] = new TextDecoder().decode(har('"text":"ab@cd"')).split('@') as [string, string];
    const bytes = concatBytes([encode(head), new Uint8Array([0xc3, 0x28]), encode(tail)]);
    const whole = (() => {
      try {
        return loadInput(bytes, 'x.har') && 'no error';
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    })();
    expect(whole).toMatch(/^invalid UTF-8 at byte offset \d+$/);
    await expect(readCaptureStream(piecesOf(bytes, 5), 'x.har')).rejects.toThrow(whole);
  });

  it('finds the byte in a body or any other string of any length (both are decoded buffer by buffer)', async () => {
    const spoil = (text: string): [Uint8Array, number] => {
      const [head, tail] = text.split('@') as [string, string];
      return [concatBytes([encode(head), new Uint8Array([0xff]), encode(tail)]), encode(head).length];
    };
    const [longBody, badAt] = spoil(new TextDecoder().decode(har(`"text":"@${'data: x\\n'.repeat(300_000)}"`)));
    await expect(readCaptureStream(piecesOf(longBody, 65_536), 'x.har')).rejects.toThrow(
      `invalid UTF-8 at byte offset ${badAt}`,
    );
    // A 3 MB URL: the tokenizer's string, decoded each time its buffer fills.
    const url = '"url":"http://127.0.0.1:3000/mcp"';
    const [longUrl, urlBadAt] = spoil(
      new TextDecoder()
        .decode(har('"text":""'))
        .replace(url, `"url":"http://127.0.0.1:3000/mcp?q=${'a'.repeat(3e6)}@"`),
    );
    await expect(readCaptureStream(piecesOf(longUrl, 65_536), 'x.har')).rejects.toThrow(
      `invalid UTF-8 at byte offset ${urlBadAt}`,
    );
  });
});
