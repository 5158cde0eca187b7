// Runs anywhere (pure core): masks the string values of JSON fields named like credentials, in place of their bytes,
// wherever they are in a body (request JSON, response JSON, the JSON in SSE `data:` lines, at any depth, and in a
// torn tail cut inside the value). The mask has the value's byte length and only [0-9a-f*], so byte offsets, chunk
// boundaries and the JSON's validity stay as they were; it is a function of the value's own bytes up to each
// position, so the same secret gets the same mask, different ones differ, and a torn prefix of a value is masked
// into the prefix of that value's mask (the rules compare a torn tail with what a resume delivered).
import { TextDecoder } from '../../web/globals';
import { encodeUtf8 } from '../text';
import { hashStep, HASH_SEED } from './hash';

/** Field names, lower-cased without `_` and `-`: access_token, refresh_token, id_token, client_secret, apiKey, ... */
const SECRET_FIELDS = new Set([
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'clientsecret',
  'password',
  'passwd',
  'apikey',
  'authorization',
  'token',
  'secret',
  'privatekey',
]);
/** Longer keys are not credential names; they are not decoded. */
const MAX_KEY_BYTES = 32;
/** The mask starts with this, then one hex digit of the running hash per byte. */
const MARK = [0x2a, 0x2a, 0x2a];
const HEX = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The index of the closing quote of the string whose content starts at `from`, or, when it is cut (line end, end),
 * -1 - the index where it stops: a number, not an object, as this runs for every string of every body. A byte after
 * a backslash is escaped (a quote or a line break then does not end the string). Quotes and line breaks are found
 * with indexOf, then checked for a backslash run before them: a byte loop over every string was most of redacting
 * a stream whose events carry long text.
 */
function stringEnd(bytes: Uint8Array, from: number, breaks: LineBreaks): number {
  // Short strings (most keys and values of MCP messages) byte by byte: a native indexOf call costs more than that.
  const limit = Math.min(bytes.length, from + SHORT_STRING);
  for (let k = from; k < limit; k++) {
    const b = bytes[k] as number;
    if (b === QUOTE) return k;
    if (b === LF || b === CR) return -1 - k;
    // The byte after a backslash is escaped, whatever it is.
    if (b === BACKSLASH) k++;
  }
  if (limit === bytes.length && limit > from) return -1 - bytes.length;
  let quote = bytes.indexOf(QUOTE, from);
  while (quote !== -1 && escapedAt(bytes, from, quote)) quote = bytes.indexOf(QUOTE, quote + 1);
  const end = quote === -1 ? bytes.length : quote;
  const lineBreak = breaks.firstFrom(bytes, from, end);
  if (lineBreak !== -1) return -1 - lineBreak;
  return quote === -1 ? -1 - bytes.length : quote;
}

/** Strings up to this many bytes are read byte by byte, longer ones by indexOf. */
const SHORT_STRING = 24;

/** The next quote from `from`, or -1: near ones (between a key and its value) byte by byte, then by indexOf. */
function nextQuote(bytes: Uint8Array, from: number): number {
  const limit = Math.min(bytes.length, from + 8);
  for (let k = from; k < limit; k++) if (bytes[k] === QUOTE) return k;
  return limit === bytes.length ? -1 : bytes.indexOf(QUOTE, limit);
}

/** Whether the byte at `at` is escaped: an odd run of backslashes since `from` stands before it. */
function escapedAt(bytes: Uint8Array, from: number, at: number): boolean {
  let k = at - 1;
  while (k >= from && bytes[k] === BACKSLASH) k--;
  return ((at - 1 - k) & 1) === 1;
}

/** The next LF and CR of one body, each looked up again only once passed (bodies rarely hold a CR at all). */
class LineBreaks {
  private lf = -2;
  private cr = -2;

  /** The first unescaped LF or CR in [from, to), or -1. */
  firstFrom(bytes: Uint8Array, from: number, to: number): number {
    for (;;) {
      if (this.lf !== -1 && this.lf < from) this.lf = bytes.indexOf(LF, from);
      if (this.cr !== -1 && this.cr < from) this.cr = bytes.indexOf(CR, from);
      const next = this.lf === -1 ? this.cr : this.cr === -1 ? this.lf : Math.min(this.lf, this.cr);
      if (next === -1 || next >= to) return -1;
      if (!escapedAt(bytes, from, next)) return next;
      from = next + 1;
    }
  }
}

function skipBlanks(bytes: Uint8Array, from: number): number {
  let i = from;
  while (bytes[i] === 0x20 || bytes[i] === 0x09) i++;
  return i;
}

/** SECRET_FIELDS by their first char (an array by char code, not a Map: this is looked up for every key). */
const NAMES_BY_FIRST: (number[][] | undefined)[] = Array.from({ length: 128 }, () => undefined);
for (const name of SECRET_FIELDS) {
  const codes = Array.from({ length: name.length }, (_, i) => name.charCodeAt(i));
  const first = codes[0] as number;
  NAMES_BY_FIRST[first] = [...(NAMES_BY_FIRST[first] ?? []), codes];
}

/** The key's char at `i` as SECRET_FIELDS spell names: ASCII lower case. */
function lower(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
}

/**
 * Whether `bytes[from, to)`, lower-cased without `_` and `-`, is one of SECRET_FIELDS. Compared in place, no
 * string made: making one per key (and, before that, lower-casing it with a regular expression) was most of
 * redacting a stream of small events.
 */
function isSecretKey(bytes: Uint8Array, from: number, to: number): boolean {
  if (to - from > MAX_KEY_BYTES) return false;
  let start = from;
  while (start < to && (bytes[start] === UNDERSCORE || bytes[start] === DASH)) start++;
  const first = lower(bytes[start] as number);
  const names = first < 128 ? NAMES_BY_FIRST[first] : undefined;
  if (!names) return false;
  for (const name of names) {
    let k = 0;
    let i = start;
    for (; i < to; i++) {
      const b = bytes[i] as number;
      if (b === UNDERSCORE || b === DASH) continue;
      if (k === name.length || lower(b) !== name[k]) break;
      k++;
    }
    if (i === to && k === name.length) return true;
  }
  return false;
}

const UNDERSCORE = 0x5f;
const DASH = 0x2d;

/** One hex digit of the running hash, through murmur3's finalizer: a change in the last byte changes it too. */
function digitOf(hash: number): number {
  let x = hash ^ (hash >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) & 15;
}

/** The mask of `bytes[from, to)`, written into `out` at the same place. */
function writeMask(bytes: Uint8Array, out: Uint8Array, from: number, to: number): void {
  let hash = HASH_SEED;
  for (let i = from; i < to; i++) {
    hash = hashStep(hash, bytes[i] as number);
    const p = i - from;
    out[i] = p < MARK.length ? (MARK[p] as number) : (HEX[digitOf(hash)] as number);
  }
}

/** The mask of `bytes`, as maskJsonSecrets writes it over a value: same length, only [0-9a-f*], a function of them. */
export function maskOf(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  writeMask(bytes, out, 0, bytes.length);
  return out;
}

/** Whether `bytes[from, to)` is already a mask (redacting twice changes nothing). */
function isMask(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = bytes[i] as number;
    if (i - from < MARK.length ? b !== MARK[i - from] : !HEX.includes(b)) return false;
  }
  return true;
}

/**
 * Whether `bytes` may hold a field maskJsonSecrets masks: a colon with a quote before and after it (blanks aside),
 * the quote before it closing at most MAX_KEY_BYTES of a credential name. A superset of what the mask finds (a
 * credential key holds no quote or backslash, so the nearest quote before its end is its start), read with one
 * loop over the bytes and a few compares per colon: visiting every string of every body was most of redacting
 * a stream of small events that hold no credential, which is nearly every stream.
 */
export function mayHoldSecrets(bytes: Uint8Array): boolean {
  for (let c = bytes.indexOf(COLON); c !== -1; c = bytes.indexOf(COLON, c + 1)) {
    let keyEnd = c - 1;
    while (bytes[keyEnd] === 0x20 || bytes[keyEnd] === 0x09) keyEnd--;
    if (bytes[keyEnd] !== QUOTE) continue;
    if (bytes[skipBlanks(bytes, c + 1)] !== QUOTE) continue;
    const limit = Math.max(0, keyEnd - 1 - MAX_KEY_BYTES);
    let open = keyEnd - 1;
    while (open >= limit && bytes[open] !== QUOTE) open--;
    if (open >= limit && isSecretKey(bytes, open + 1, keyEnd)) return true;
  }
  return false;
}

/**
 * mayHoldSecrets for a part of a text, whatever lies around it: true also where a colon's look back or ahead runs
 * off either end of the part. So when no part of a text may hold secrets, the text does not either: each of its
 * colons is looked at within one part, as mayHoldSecrets looks at it in the whole. A body masker asks this of the
 * parts of a line cut by piece boundaries before it joins them into one buffer.
 */
export function mayHoldSecretsInPart(bytes: Uint8Array): boolean {
  for (let c = bytes.indexOf(COLON); c !== -1; c = bytes.indexOf(COLON, c + 1)) {
    let keyEnd = c - 1;
    while (bytes[keyEnd] === 0x20 || bytes[keyEnd] === 0x09) keyEnd--;
    if (keyEnd < 0) return true;
    if (bytes[keyEnd] !== QUOTE) continue;
    const value = skipBlanks(bytes, c + 1);
    if (value >= bytes.length) return true;
    if (bytes[value] !== QUOTE) continue;
    const limit = keyEnd - 1 - MAX_KEY_BYTES;
    let open = keyEnd - 1;
    while (open >= 0 && open >= limit && bytes[open] !== QUOTE) open--;
    if (open < 0 && limit < 0) return true;
    if (open >= limit && isSecretKey(bytes, open + 1, keyEnd)) return true;
  }
  return false;
}

/** A masked value: where it is and what it was, for callers that scrub other text of the same secret. */
export interface MaskedSpan {
  from: number;
  to: number;
}

/**
 * The bytes with every credential-named field's string value masked; the same array when there was none.
 * @param spans collects where masks were written (positions in the returned array).
 */
export function maskJsonSecrets(given: Uint8Array, spans?: MaskedSpan[]): Uint8Array {
  // A plain Uint8Array view of a Node Buffer: the loops below then see one kind of array (a Buffer and a Uint8Array
  // mixed made every byte read polymorphic), and slice() copies (Buffer's slice is a view).
  const bytes =
    Object.getPrototypeOf(given) === Uint8Array.prototype
      ? given
      : new Uint8Array(given.buffer, given.byteOffset, given.byteLength);
  return mayHoldSecrets(bytes) ? maskEveryString(bytes, given, spans) : given;
}

/** maskJsonSecrets without the prefilter: every string of `bytes` (a plain view of `given`) looked at. */
export function maskEveryString(bytes: Uint8Array, given: Uint8Array = bytes, spans?: MaskedSpan[]): Uint8Array {
  let out: Uint8Array | undefined;
  const breaks = new LineBreaks();
  let i = bytes.indexOf(QUOTE);
  while (i !== -1) {
    const keyEnd = stringEnd(bytes, i + 1, breaks);
    if (keyEnd < 0) {
      i = nextQuote(bytes, -keyEnd);
      continue;
    }
    const colon = skipBlanks(bytes, keyEnd + 1);
    const open = skipBlanks(bytes, colon + 1);
    if (bytes[colon] !== COLON || bytes[open] !== QUOTE || !isSecretKey(bytes, i + 1, keyEnd)) {
      i = nextQuote(bytes, keyEnd + 1);
      continue;
    }
    const valueEnd = stringEnd(bytes, open + 1, breaks);
    const end = valueEnd < 0 ? -1 - valueEnd : valueEnd;
    if (end > open + 1 && !isMask(bytes, open + 1, end)) {
      out ??= bytes.slice();
      writeMask(bytes, out, open + 1, end);
      spans?.push({ from: open + 1, to: end });
    }
    i = nextQuote(bytes, end + 1);
  }
  return out ?? given;
}

/** {@link maskJsonSecrets} over text (a request body): the same text when it holds no credential field. */
export function maskJsonSecretsInText(text: string): string {
  const bytes = encodeUtf8(text);
  const masked = maskJsonSecrets(bytes);
  return masked === bytes ? text : new TextDecoder().decode(masked);
}
