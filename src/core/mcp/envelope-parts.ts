// Runs anywhere (pure core): the envelopes of JSON-RPC text given as the parts it arrived in (a long SSE data line,
// see SseParser.dataPartsOf), read without joining the parts into one string. The text is copied into a skeleton
// where every long string literal is checked here (closing quote, escapes, no raw control character) and stands as
// `"\\"`, then the skeleton goes to scanEnvelopes. A valid string swapped for another keeps the text's validity and
// structure; the stand-in holds an escape, so where the scanner would read the string (a member name of a message,
// its jsonrpc, id or method) it leaves the text to the exact path, as it does for any escaped one there.
import { scanEnvelopes } from './envelope-scan';
import type { JsonRpcEnvelope } from './types';

/** String literals longer than this (in UTF-16 units, quotes excluded) are checked here and left out. */
const LONG_STRING = 1024;
/** Parts shorter than this (but the last) make the reader give up: an escape could span more than two of them. */
const MIN_PART = 16;
const STAND_IN = '"\\\\"';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Inside a string: plain characters (not a quote, a backslash or a raw control character) and valid escapes. */
// eslint-disable-next-line no-control-regex -- JSON forbids exactly these raw in strings
const STRING_RUN = /[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*/y;

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The length of the JSON escape at `at` of `text` (its backslash), or -1 when it is not one. */
function escapeLength(text: string, at: number): number {
  const c = text.charCodeAt(at + 1);
  // " \ / b f n r t
  if (c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74)
    return 2;
  if (c !== 0x75) return -1;
  for (let k = at + 2; k < at + 6; k++) if (!isHex(text.charCodeAt(k))) return -1;
  return 6;
}

/**
 * The envelopes of `parts.join('')`, as scanEnvelopes gives them for that text, or undefined where it would, or
 * where this reader is not sure (the caller then reads the joined text).
 */
export function scanEnvelopeParts(parts: readonly string[]): JsonRpcEnvelope[] | undefined {
  const skeleton = skeletonOf(parts);
  return skeleton === undefined ? undefined : scanEnvelopes(skeleton);
}

/** The text with its long string literals replaced by a stand-in; undefined when one is not valid JSON or unsure. */
export function skeletonOf(parts: readonly string[]): string | undefined {
  for (let i = 0; i < parts.length - 1; i++) if ((parts[i] as string).length < MIN_PART) return undefined;
  let out = '';
  let inString = false;
  /** The current string literal so far (from its opening quote), while it is short. */
  let literal = '';
  let literalLength = 0;
  let carry = 0; // chars of the next part that an escape at the end of the last one used
  for (let pi = 0; pi < parts.length; pi++) {
    const part = parts[pi] as string;
    let k = carry;
    carry = 0;
    while (k < part.length) {
      if (!inString) {
        const open = part.indexOf('"', k);
        if (open === -1) {
          out += k === 0 ? part : part.slice(k);
          break;
        }
        out += part.slice(k, open);
        inString = true;
        literal = '"';
        literalLength = 0;
        k = open + 1;
        continue;
      }
      // The run of plain characters and whole valid escapes: irregexp's loop, ~0.7 ms per MiB here (a part is at
      // most a decode slice, 64 KiB, so its backtracking stack stays small).
      STRING_RUN.lastIndex = k;
      STRING_RUN.test(part);
      const end = STRING_RUN.lastIndex;
      literalLength += end - k;
      if (literalLength <= LONG_STRING) literal += part.slice(k, end);
      if (end === part.length) break;
      const stop = part.charCodeAt(end);
      if (stop === QUOTE) {
        out += literalLength <= LONG_STRING ? `${literal}"` : STAND_IN;
        inString = false;
        literal = '';
        k = end + 1;
        continue;
      }
      if (stop !== BACKSLASH) return undefined; // a raw control character
      // An escape, maybe cut by the end of the part (then read from its rest and the next part's start).
      const whole = end + 6 <= part.length;
      const escape = whole ? part : part.slice(end) + (parts[pi + 1] ?? '').slice(0, 6);
      const length = escapeLength(escape, whole ? end : 0);
      if (length < 0) return undefined;
      literalLength += length;
      if (literalLength <= LONG_STRING) literal += whole ? part.slice(end, end + length) : escape.slice(0, length);
      if (end + length <= part.length) k = end + length;
      else {
        carry = end + length - part.length;
        break;
      }
    }
  }
  if (inString) out += literal; // unterminated: the scanner sees the same and gives up
  return out;
}
