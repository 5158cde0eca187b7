// Runs anywhere (pure core): decides what an input file is by its content and imports it.
import { TextDecoder } from '../web/globals';
import { InputError } from './errors';
import { captureFromJson } from './format';
import { captureFromHar, type HarImportOptions } from './har';
import { depthExceededAt, nestedTooDeep } from './json-depth';
import type { Capture } from './model';
import { isJsonObject, jsonTypeName } from './read';
import { importRawStream, startsWithStatusLine } from './raw';
import { decodeUtf8OrThrow, parseJsonFile } from './text';

/** The kinds of input {@link loadInput} reads: capture v1 JSON, HAR, or a raw event stream (`curl -N`). */
export type InputKind = 'capture' | 'har' | 'raw';

/** Options of {@link loadInput} (those of HAR import: the other kinds take none). */
export type LoadOptions = HarImportOptions;

/**
 * Loads a capture v1 file, a HAR, or a raw event stream (optionally with a saved response head).
 * The content decides; the name only chooses the error message for content that is none of them
 * (a `.json` or `.har` file gets the JSON parser's complaint). Anything else is an InputError that says why.
 * @param bytes the file's content.
 * @param name the file's name (for messages, and for a raw stream's URL).
 * @param options HAR import options, e.g. the chunks.ndjson companion.
 * @returns the capture, ready for `analyze`.
 * @throws InputError when the content is none of the kinds, naming where and why.
 * @example
 * const capture = loadInput(readFileSync('session.har'), 'session.har');
 */
export function loadInput(bytes: Uint8Array, name: string, options?: LoadOptions): Capture {
  if (sniffInput(bytes, name) === 'json') return loadJson(bytes, options);
  if (options?.chunksNdjson !== undefined) {
    throw new InputError('', 'a chunks.ndjson companion applies to HAR input only, and this is a raw event stream');
  }
  return importRawStream(bytes, name);
}

/**
 * What a file is by its opening bytes (the first kilobytes suffice): JSON (a capture or a HAR; which one, its
 * parse tells) or a raw event stream. A `.json` or `.har` file that starts like neither is JSON, so that its
 * parser's complaint says what is wrong.
 * @throws InputError when the file is empty or starts like none of them.
 */
export function sniffInput(opening: Uint8Array, name: string): 'json' | 'raw' {
  const first = firstSignificantByte(opening);
  // A `.sse` file is an event stream by its name: blank lines only (keep-alives) or an unknown first field included.
  const sseByName = /\.sse$/i.test(name) && opening.length > 0;
  if (first === undefined && !sseByName) throw new InputError('', 'empty input: no capture, HAR or event stream in it');
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return 'json';
  if (sseByName || startsWithStatusLine(opening) || looksLikeEventStream(opening)) return 'raw';
  if (/\.(json|har)$/i.test(name)) return 'json';
  const line = JSON.stringify(firstLine(opening));
  const problem = `the first line (${line}) is neither JSON, an HTTP status line nor an SSE field`;
  throw new InputError('', `not a capture, HAR or event stream: ${problem}`);
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * The longest string V8 makes (Chromium and Node; 2^29 - 24 UTF-16 units). A capture or HAR file is parsed as one
 * JSON text, and a text never has more units than its UTF-8 bytes: a file within this decodes whole. Past it, the
 * decoder throws (Node) or hands back an empty text (which JSON.parse called "unexpected end of input at 0").
 */
export const MAX_JSON_FILE_BYTES = 0x1fffffe8;

function loadJson(bytes: Uint8Array, options: LoadOptions | undefined): Capture {
  if (bytes.length > MAX_JSON_FILE_BYTES) {
    const size = `${(bytes.length / 2 ** 20).toFixed(0)} MiB`;
    throw new InputError(
      '',
      `the file is ${size}: a capture or HAR file is read as one JSON text, and the longest text this runtime makes is 512 MiB (save the stream raw with curl -N, or split the capture)`,
    );
  }
  // As the streaming reader refuses it (read-stream.ts), whatever else is wrong after that byte.
  const tooDeep = depthExceededAt(bytes);
  if (tooDeep !== -1) throw nestedTooDeep(tooDeep);
  let text = decodeUtf8OrThrow(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const doc = parseJsonFile(text);
  if (isJsonObject(doc) && 'format' in doc) {
    if (options?.chunksNdjson !== undefined) {
      throw new InputError('', 'a chunks.ndjson companion applies to HAR input only, and this is a capture file');
    }
    return captureFromJson(doc);
  }
  if (isJsonObject(doc) && 'log' in doc) return captureFromHar(doc, options);
  const what = isJsonObject(doc) ? 'a JSON object' : `JSON (${jsonTypeName(doc)})`;
  throw new InputError(
    '',
    `${what} that is neither an mcp-stream-inspector capture (no "format" field) nor a HAR (no "log" field)`,
  );
}

/** The first byte after a UTF-8 BOM and ASCII whitespace, or undefined when there is none. */
function firstSignificantByte(bytes: Uint8Array): number | undefined {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i];
}

const KNOWN_FIELD = /^(?::|(?:data|id|event|retry)(?::|$))/;
const ANY_FIELD = /^[^\s:{[]+:/;

/**
 * Event streams open with a comment or one of the four fields (servers often start with a blank line). A parser
 * ignores unknown fields, so a stream may open with one (`x-trace: 1`) too: then a known field must follow it among
 * the first lines, so that prose is not taken for a stream.
 */
function looksLikeEventStream(bytes: Uint8Array): boolean {
  const lines = firstLines(bytes, 16);
  if (KNOWN_FIELD.test(lines[0] ?? '')) return true;
  if (!ANY_FIELD.test(lines[0] ?? '')) return false;
  return (
    lines.every((line) => line === '' || ANY_FIELD.test(line) || KNOWN_FIELD.test(line)) &&
    lines.some((line) => KNOWN_FIELD.test(line))
  );
}

/** Up to `count` lines from the first non-blank one (each at most 200 characters), blank ones included. */
function firstLines(bytes: Uint8Array, count: number): string[] {
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .replace(/^[\r\n]+/, '');
  return head
    .split(/\r\n|\r|\n/)
    .slice(0, count)
    .map((line) => line.slice(0, 200));
}

/** The first non-blank line (at most 200 characters, BOM stripped), decoded leniently for messages. */
function firstLine(bytes: Uint8Array): string {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  let end = i;
  while (end < bytes.length && end - i < 200 && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
  return new TextDecoder().decode(bytes.subarray(i, end));
}
