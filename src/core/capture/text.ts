// Runs anywhere (pure core): UTF-8 and JSON decoding that reports where input goes wrong.
import { TextDecoder, TextEncoder } from '../web/globals';
import { InputError } from './errors';
import { cutPlace, cutShortMessage, utf8Length } from './cut-short';
import { jsonErrorOffset } from './json-position';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The text when `bytes` is valid UTF-8, else undefined. A leading BOM is kept (it is body content). */
export function tryDecodeUtf8(bytes: Uint8Array): string | undefined {
  // The fatal decoder reports failure by throwing; undefined is the answer here, not an error.
  try {
    return strictDecoder.decode(bytes);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** Decodes UTF-8 or throws an InputError naming the byte offset of the first invalid sequence. */
export function decodeUtf8OrThrow(bytes: Uint8Array, path = ''): string {
  const text = tryDecodeUtf8(bytes);
  if (text !== undefined) return text;
  const offset = firstInvalidUtf8(bytes);
  throw new InputError(path, `invalid UTF-8 at byte offset ${offset}`);
}

/** Offset of the first byte that starts an invalid UTF-8 sequence, or -1 when all is valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * JSON.parse with an InputError that says where: line, column and character position
 * (engines word their messages differently; the position is recovered where the engine gives it).
 */
export function parseJsonText(text: string, path = ''): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new InputError(path, describeJsonSyntaxError(text, error.message, false));
  }
}

/**
 * parseJsonText for a whole capture or HAR file: one cut short says which entry or connection it ends in, and at
 * which byte (the CLI's streamed reading says the same).
 */
export function parseJsonFile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new InputError('', describeJsonSyntaxError(text, error.message, true));
  }
}

function describeJsonSyntaxError(text: string, engineMessage: string, file: boolean): string {
  const position = jsonErrorPosition(text, engineMessage);
  const reason = engineMessage
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s*in JSON at position \d+/, '')
    .replace(/^JSON\.parse: /, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/, ".*" is not valid JSON$/s, '');
  if (position === undefined) return `malformed JSON: ${reason}`;
  // A file cut short: where it ends (which entry, which byte) says more than the token the engine missed.
  if (file && position >= text.length) return cutShortMessage(cutPlace(text), utf8Length(text));
  const { line, column } = lineAndColumn(text, position);
  const where = position >= text.length ? 'at end of input' : `at line ${line}, column ${column}`;
  return `malformed JSON ${where} (character ${position}): ${reason}`;
}

function jsonErrorPosition(text: string, message: string): number | undefined {
  const pos = /position (\d+)/.exec(message);
  if (pos) return Number(pos[1]);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return offsetOf(text, Number(lc[1]), Number(lc[2]));
  const scanned = jsonErrorOffset(text);
  return scanned === -1 ? undefined : scanned;
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(position, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset + column - 1;
}
