// Runs anywhere (pure core): fast standard base64 (RFC 4648, padded) without Buffer or atob/btoa.
// Table-driven over bytes so megabyte bodies decode in linear time with no per-char string building.
import { TextDecoder, TextEncoder } from '../web/globals';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = new Uint8Array(64);
/** Byte value -> 6-bit value; 255 = not in the alphabet. */
const DECODE = new Uint8Array(256).fill(255);
for (let i = 0; i < 64; i++) {
  ENCODE[i] = ALPHABET.charCodeAt(i);
  DECODE[ALPHABET.charCodeAt(i)] = i;
}
const PAD = 0x3d; // '='

const asciiEncoder = new TextEncoder();
const asciiDecoder = new TextDecoder();

/** Why a base64 string was rejected; `index` is the character position in the input. */
export class Base64Error extends Error {
  override readonly name = 'Base64Error';
  constructor(
    readonly index: number,
    reason: string,
  ) {
    super(`invalid base64 at character ${index}: ${reason}`);
  }
}

/** Encodes bytes as standard base64 with padding (how capture files store body chunks). */
export function encodeBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (const end = n - (n % 3); i < end; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENCODE[v >>> 18]!;
    out[o++] = ENCODE[(v >>> 12) & 63]!;
    out[o++] = ENCODE[(v >>> 6) & 63]!;
    out[o++] = ENCODE[v & 63]!;
  }
  if (n - i === 1) {
    const v = bytes[i]! << 16;
    out[o++] = ENCODE[v >>> 18]!;
    out[o++] = ENCODE[(v >>> 12) & 63]!;
    out[o++] = PAD;
    out[o++] = PAD;
  } else if (n - i === 2) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out[o++] = ENCODE[v >>> 18]!;
    out[o++] = ENCODE[(v >>> 12) & 63]!;
    out[o++] = ENCODE[(v >>> 6) & 63]!;
    out[o++] = PAD;
  }
  return asciiDecoder.decode(out);
}

/**
 * Decodes standard base64. Padding is optional; ASCII whitespace (line-wrapped base64 from some tools)
 * is skipped. Anything else outside the alphabet, or misplaced padding, throws a Base64Error naming the
 * character position.
 */
export function decodeBase64(text: string): Uint8Array {
  const src = asciiEncoder.encode(text);
  if (src.length !== text.length) throw nonAsciiError(text);
  // Count significant characters first so the output is allocated once.
  let significant = 0;
  let padStart = -1;
  let pads = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (DECODE[c] !== 255) {
      if (pads > 0) throw new Base64Error(i, 'data after padding');
      significant++;
    } else if (c === PAD) {
      if (pads === 0) padStart = i;
      pads++;
      if (pads > 2) throw new Base64Error(i, "more than two '=' padding characters");
    } else if (!isAsciiSpace(c)) {
      throw new Base64Error(i, `unexpected character ${JSON.stringify(text[i])}`);
    }
  }
  if (significant % 4 === 1) {
    throw new Base64Error(text.length, 'truncated: the last group has a single character');
  }
  if (pads > 0 && (significant + pads) % 4 !== 0) {
    throw new Base64Error(padStart, "wrong number of '=' padding characters");
  }
  const out = new Uint8Array(Math.floor((significant * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < src.length; i++) {
    const v = DECODE[src[i]!]!;
    if (v === 255) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  return out;
}

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c;
}

function nonAsciiError(text: string): Base64Error {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      return new Base64Error(i, `unexpected character ${JSON.stringify(text[i])}`);
    }
  }
  return new Base64Error(0, 'not ASCII');
}
