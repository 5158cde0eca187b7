// Runs anywhere (pure core): the nesting limit of capture and HAR files, so that a broken or hostile file is refused
// in time linear in its size. The streaming reader's JSON library pays for every closing bracket in proportion to the
// depth (a 400 KB file of 200,000 nested arrays took 48 s); below the limit that cost is bounded.
import { InputError } from './errors';

/**
 * How deep a capture or HAR file may nest its arrays and objects. Their own structure is 6 levels deep at most; the
 * deepest real files are Chrome's HARs, whose `_initiator.stack.parent` chains follow at most 32 async frames (about
 * 40 levels). 512 is over ten times that, and keeps the streaming reader's per-bracket cost small.
 */
export const MAX_JSON_DEPTH = 512;

/** The error for a file whose `[` or `{` at byte `offset` opens level MAX_JSON_DEPTH + 1. */
export function nestedTooDeep(offset: number): InputError {
  return new InputError(
    '',
    `nested deeper than ${MAX_JSON_DEPTH} at byte ${offset}: no capture or HAR nests that deep (a broken or hostile file)`,
  );
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The byte offset of the first `[` or `{` (outside strings) that opens level `max + 1`, or -1. One pass over the
 * bytes; strings are skipped by indexOf, so base64 bodies cost little. Syntax is not checked here (JSON.parse does).
 */
export function depthExceededAt(bytes: Uint8Array, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return i;
    } else if (b === 0x5d || b === 0x7d) depth--;
    else if (b === QUOTE) i = stringEnd(bytes, i);
  }
  return -1;
}

/** The offset of the quote that closes the string opened at `open` (the input's last byte when none does). */
function stringEnd(bytes: Uint8Array, open: number): number {
  for (let at = bytes.indexOf(QUOTE, open + 1); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return bytes.length;
}
