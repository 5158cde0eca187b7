// Runs anywhere (pure core): the envelopes of JSON-RPC text, read without building its JSON. Every SSE event is
// classified when its connection is read; JSON.parse there builds params and results the model drops at once, and
// then collects them. This scanner checks the whole text against the JSON grammar, so it accepts exactly what
// JSON.parse accepts, and reads only the top-level members a classification needs (`jsonrpc`, `id`, `method`,
// whether `result` or `error` exist). Short strings are read char by char, long ones hopped over with indexOf.
// Anything it is not sure of (escaped keys or values, a cancellation, deep nesting) it leaves to the exact path,
// parseMessages, which also words the errors. One function and module state, no object per token: that is what
// made it faster than JSON.parse on small events, where an earlier object-per-scan version was slower.
import { envelopeOfMembers } from './jsonrpc';
import type { JsonRpcEnvelope } from './types';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Deeper texts take the exact path. */
const MAX_DEPTH = 64;
/** Strings are read char by char up to this many chars, then by indexOf. */
const SHORT_STRING = 32;

// The long strings' searches, for one text at a time (never re-entered: nothing here calls out). The text itself is
// passed to every helper: read from a module variable, it made the char loops twice as slow.
/** The first quote / backslash / raw control character at or after the last search's start (Infinity: none left). */
let quoteAt = -1;
let slashAt = -1;
let controlAt = -1;
// eslint-disable-next-line no-control-regex -- JSON forbids exactly these raw in strings: the search is for them
const CONTROL = /[\u0000-\u001f]/g;

function nextQuote(text: string, from: number): number {
  if (quoteAt < from) {
    const found = text.indexOf('"', from);
    quoteAt = found === -1 ? Infinity : found;
  }
  return quoteAt;
}

function nextSlash(text: string, from: number): number {
  if (slashAt < from) {
    const found = text.indexOf('\\', from);
    slashAt = found === -1 ? Infinity : found;
  }
  return slashAt;
}

function nextControl(text: string, from: number): number {
  if (controlAt < from) {
    CONTROL.lastIndex = from;
    const found = CONTROL.exec(text);
    controlAt = found ? found.index : Infinity;
  }
  return controlAt;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The index after the escape at `slash`, or -1 when it is not one JSON allows. */
function escapeEnd(text: string, slash: number): number {
  const c = text.charCodeAt(slash + 1);
  // " \ / b f n r t
  if (c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74)
    return slash + 2;
  if (c !== 0x75) return -1;
  for (let k = slash + 2; k < slash + 6; k++) if (!isHex(text.charCodeAt(k))) return -1;
  return slash + 6;
}

/**
 * The closing quote of the string whose content starts at `from`; -2 - that index when the string holds an escape;
 * -1 when it is not a valid JSON string. A number, not an object: this runs for every string.
 */
function closingQuote(text: string, from: number): number {
  let escaped = false;
  let k = from;
  const limit = Math.min(text.length, from + SHORT_STRING);
  while (k < limit) {
    const c = text.charCodeAt(k);
    if (c === QUOTE) return escaped ? -2 - k : k;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      escaped = true;
      k = escapeEnd(text, k);
      if (k < 0) return -1;
    } else k++;
  }
  // The closing quote is searched for once, not again after each escape: a long string with many escapes and no
  // quote (a source file's lines, each ending in \n) was read again to its end per escape, 65 ms per MiB.
  for (;;) {
    const close = nextQuote(text, k);
    if (close === Infinity || nextControl(text, k) < close) return -1;
    const slash = nextSlash(text, k);
    if (slash > close) return escaped ? -2 - close : close;
    escaped = true;
    k = escapeEnd(text, slash);
    if (k < 0) return -1;
  }
}

/** The end of the number token at `from`, or -1. */
function numberEnd(text: string, from: number): number {
  let k = from;
  if (text.charCodeAt(k) === MINUS) k++;
  const first = text.charCodeAt(k);
  if (first === ZERO) k++;
  else if (isDigit(first)) while (isDigit(text.charCodeAt(k))) k++;
  else return -1;
  if (text.charCodeAt(k) === 0x2e) {
    k++;
    if (!isDigit(text.charCodeAt(k))) return -1;
    while (isDigit(text.charCodeAt(k))) k++;
  }
  const e = text.charCodeAt(k);
  if (e === 0x65 || e === 0x45) {
    k++;
    const sign = text.charCodeAt(k);
    if (sign === 0x2b || sign === MINUS) k++;
    if (!isDigit(text.charCodeAt(k))) return -1;
    while (isDigit(text.charCodeAt(k))) k++;
  }
  return k;
}

function blanks(text: string, from: number): number {
  let k = from;
  let c = text.charCodeAt(k);
  // Compact JSON has no blanks: one compare settles it.
  if (c > 0x20) return k;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++k);
  return k;
}

// The members classification reads, as codes: the key just read, whose value comes next.
const NONE = 0;
const JSONRPC = 1;
const ID = 2;
const METHOD = 3;

/** Marks an id or method whose value is neither a string, a number nor null. */
const OTHER = Symbol('other');

const VALUE = 0;
const AFTER_VALUE = 1;
const KEY = 2;

/** Where a scan may resume: after a comma between members of an object in the message, and the state there. */
interface ResumePoint {
  at: number;
  /** The open containers there (1: an object), as in `stack`. */
  objects: Uint8Array;
  jsonrpc: boolean;
  id: unknown;
  method: unknown;
  hasResult: boolean;
  hasError: boolean;
}

// Consecutive events of a stream are alike up to a value that changes (a progress count, an id, a message): the
// scanner's state after a prefix depends on that prefix only, so a text that starts with the prefix of the last
// resume point is read from there on. The last text scanned, the resume point learnt from it and its prefix:
let previous = '';
let resume: ResumePoint | undefined;
let resumePrefix = '';
/** While scanning: the last text's length in common with this one (-1: not learning), and the point learnt. */
let learnUpTo = -1;
let learnt: ResumePoint | undefined;
/** Shorter prefixes spare too little to be worth the compare. */
const MIN_RESUME = 16;

/**
 * The envelopes of `source` when it is one JSON-RPC 2.0 message or a batch of them, exactly as
 * `parseMessages(source).messages.map(envelopeOf)` gives them; undefined for everything else (not JSON, not
 * JSON-RPC, an empty batch, a cancellation whose params must be read, escaped members), which the caller reads with
 * parseMessages.
 */
export function scanEnvelopes(text: string): JsonRpcEnvelope[] | undefined {
  quoteAt = slashAt = controlAt = -1;
  const from = resume && text.length > resume.at && text.lastIndexOf(resumePrefix, 0) === 0 ? resume : undefined;
  // lastIndexOf from 0 compares at 0 only, about 3x faster than startsWith here (Node 20) on an 80-char prefix.
  // A new resume point is learnt where the last did not spare half of this text: up to where it is like the last.
  learnUpTo = from && from.at * 2 >= text.length ? -1 : sharedLength(text, previous);
  // The point it resumed from stays, unless one further on is learnt.
  learnt = from;
  const envelopes = scan(text, from);
  if (learnUpTo !== -1) {
    resume = learnt;
    resumePrefix = learnt ? text.slice(0, learnt.at) : '';
  }
  previous = text;
  return envelopes;
}

/** Whether `text` has `word` at `at`: a char loop, as startsWith costs a call of its own for these short words. */
function spells(text: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (text.charCodeAt(at + k) !== word.charCodeAt(k)) return false;
  return true;
}

function sharedLength(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let k = 0;
  while (k < end && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  return k;
}

/** Per open container, outermost first: 1 for an object, 0 for an array (module state: a scan is never re-entered). */
const stack = new Uint8Array(MAX_DEPTH);

function scan(text: string, from: ResumePoint | undefined): JsonRpcEnvelope[] | undefined {
  let depth = 0;
  let i = blanks(text, 0);
  const top = from ? OPEN_OBJECT : text.charCodeAt(i);
  if (top !== OPEN_OBJECT && top !== OPEN_ARRAY) return undefined;
  // Message objects are the top value, or the items of a top-level array (a 2025-03-26 batch).
  const messageDepth = top === OPEN_ARRAY ? 2 : 1;
  const envelopes: JsonRpcEnvelope[] = [];
  let jsonrpc = false;
  let id: unknown;
  let method: unknown;
  let hasResult = false;
  let hasError = false;
  let pending = NONE;
  let state = VALUE;
  if (from) {
    ({ jsonrpc, id, method, hasResult, hasError } = from);
    stack.set(from.objects);
    depth = from.objects.length;
    i = blanks(text, from.at);
    state = KEY;
  }
  for (;;) {
    if (state === VALUE) {
      const c = text.charCodeAt(i);
      const tracked = pending;
      pending = NONE;
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const isObject = c === OPEN_OBJECT;
        if (depth === MAX_DEPTH) return undefined;
        stack[depth++] = isObject ? 1 : 0;
        if (tracked === JSONRPC) jsonrpc = false;
        else if (tracked === ID) id = OTHER;
        else if (tracked === METHOD) method = OTHER;
        if (depth === messageDepth) {
          if (!isObject) return undefined;
          jsonrpc = hasResult = hasError = false;
          id = method = undefined;
        }
        i = blanks(text, i + 1);
        state = isObject ? KEY : VALUE;
        if (text.charCodeAt(i) === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          // Empty: closed by AFTER_VALUE.
          state = AFTER_VALUE;
        }
        continue;
      }
      // A scalar: never a message, nor an item of a batch.
      if (depth === messageDepth - 1) return undefined;
      if (c === QUOTE) {
        let close = closingQuote(text, i + 1);
        if (close === -1) return undefined;
        const escaped = close < 0;
        if (escaped) close = -2 - close;
        if (tracked !== NONE) {
          if (escaped) return undefined;
          if (tracked === JSONRPC) jsonrpc = close - i === 4 && spells(text, i + 1, '2.0');
          else if (tracked === ID) id = text.slice(i + 1, close);
          else method = text.slice(i + 1, close);
        }
        i = close + 1;
      } else if (c === MINUS || isDigit(c)) {
        const end = numberEnd(text, i);
        if (end < 0) return undefined;
        if (tracked === JSONRPC) jsonrpc = false;
        else if (tracked === ID) id = Number(text.slice(i, end));
        else if (tracked === METHOD) method = OTHER;
        i = end;
      } else {
        const word = c === 0x6e ? 'null' : c === 0x74 ? 'true' : c === 0x66 ? 'false' : '';
        if (word === '' || !spells(text, i, word)) return undefined;
        if (tracked === JSONRPC) jsonrpc = false;
        else if (tracked === ID) id = word === 'null' ? null : OTHER;
        else if (tracked === METHOD) method = OTHER;
        i += word.length;
      }
      state = AFTER_VALUE;
    } else if (state === AFTER_VALUE) {
      i = blanks(text, i);
      if (depth === 0) return i === text.length && envelopes.length > 0 ? envelopes : undefined;
      const isObject = stack[depth - 1] === 1;
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        if (isObject && i < learnUpTo && messageDepth === 1 && i + 1 >= MIN_RESUME)
          learnt = { at: i + 1, objects: stack.slice(0, depth), jsonrpc, id, method, hasResult, hasError };
        i = blanks(text, i + 1);
        state = isObject ? KEY : VALUE;
      } else if (c === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        i++;
        if (depth-- === messageDepth) {
          const envelope = envelopeOfMembers(jsonrpc, id, method, hasResult, hasError);
          if (!envelope || envelope.method === 'notifications/cancelled') return undefined;
          envelopes.push(envelope);
        }
      } else return undefined;
    } else {
      if (text.charCodeAt(i) !== QUOTE) return undefined;
      let close = closingQuote(text, i + 1);
      if (close === -1) return undefined;
      const escaped = close < 0;
      if (escaped) close = -2 - close;
      if (depth === messageDepth) {
        // A member of a message: an escaped key may spell one that counts; the exact path reads it.
        if (escaped) return undefined;
        // The first char picks the one name to compare: a startsWith per name was a fifth of the scan.
        const length = close - i - 1;
        const first = text.charCodeAt(i + 1);
        if (first === 0x6a) {
          if (length === 7 && spells(text, i + 1, 'jsonrpc')) pending = JSONRPC;
        } else if (first === 0x69) {
          if (length === 2 && text.charCodeAt(i + 2) === 0x64) pending = ID;
        } else if (first === 0x6d) {
          if (length === 6 && spells(text, i + 1, 'method')) pending = METHOD;
        } else if (first === 0x72) {
          if (length === 6 && spells(text, i + 1, 'result')) hasResult = true;
        } else if (first === 0x65) {
          if (length === 5 && spells(text, i + 1, 'error')) hasError = true;
        }
      }
      i = blanks(text, close + 1);
      if (text.charCodeAt(i) !== COLON) return undefined;
      i = blanks(text, i + 1);
      state = VALUE;
    }
  }
}
