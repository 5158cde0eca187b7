// Runs anywhere (pure core): the string builder the JSON tokenizer gathers strings into, which keeps a HAR body's
// UTF-8 bytes instead of its text. @streamparser/json decodes every string it reads; a response body, the bulk of a
// HAR, was then encoded back to the bytes the model holds (TextEncoder over a 4 MB string of 64 KiB pieces: a
// seventh of reading a HAR, with the decode before it). The bytes the tokenizer appends are already the string's
// UTF-8 (escapes resolved), so for a string marked as a body they are kept as they come and no text is made.
import { TextDecoder } from '../web/globals';
import { concatBytes } from './bytes';

/** The tokenizer's StringBuilder (utils/bufferedString.d.ts; not exported by the package's index). */
export interface StringBuilder {
  byteLength: number;
  appendChar(char: number): void;
  appendBuf(buf: Uint8Array, start?: number, end?: number): void;
  appendCharCode(code: number): void;
  reset(): void;
  toString(): string;
}

/** Bytes gathered per block while a body is kept: a body is one allocation of its size plus one block at most. */
const BLOCK = 64 * 1024;
/** Spare buffers kept between bodies: 4 MiB at most. */
const MAX_SPARE = 64;
/** What TextEncoder writes for a lone surrogate (U+FFFD): what encoding the decoded text gave before. */
const REPLACEMENT = [0xef, 0xbf, 0xbd];

/**
 * Builds strings as the library's BufferedString does (bytes gathered in a buffer of `bufferSize`, decoded by a
 * fatal TextDecoder, so invalid UTF-8 throws the same error); the string that starts after `keepNextAsBytes()`
 * gives '' as its text and leaves its bytes in `takeBytes()`. Invalid UTF-8 in a kept body throws all the same.
 */
export class BodyStringBuilder implements StringBuilder {
  byteLength = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private buffer: Uint8Array;
  private bufferOffset = 0;
  private text = '';
  private keepNext = false;
  private keeping = false;
  /** The kept body so far, in order: filled buffers and runs too long for one. */
  private blocks: Uint8Array[] = [];
  /** Of those, the filled buffers: once the body is joined they serve the next (fresh 64 KiB blocks per body were most of what reading a HAR allocated, and made the collector run more). */
  private rotated: Uint8Array[] = [];
  private readonly spare: Uint8Array[] = [];
  private kept: Uint8Array | undefined;

  constructor(bufferSize: number) {
    this.buffer = new Uint8Array(Math.max(bufferSize, BLOCK));
  }

  /** The next string the tokenizer starts is a body: keep its bytes. Cleared by any string starting. */
  keepNextAsBytes(keep: boolean): void {
    this.keepNext = keep;
  }

  /** The bytes of the last kept string, once (undefined when none was kept since). */
  takeBytes(): Uint8Array | undefined {
    const kept = this.kept;
    this.kept = undefined;
    return kept;
  }

  appendChar(char: number): void {
    if (this.bufferOffset >= this.buffer.length) this.flush();
    this.buffer[this.bufferOffset++] = char;
    this.byteLength += 1;
  }

  appendBuf(buf: Uint8Array, start = 0, end = buf.length): void {
    const size = end - start;
    // The tokenizer appends runs of ASCII, or of multi-byte characters which it leaves the decoder to check.
    if (this.keeping && size > 0 && (buf[start] as number) >= 0x80) this.decoder.decode(buf.subarray(start, end));
    if (this.bufferOffset + size > this.buffer.length) this.flush();
    if (size > this.buffer.length) {
      if (this.keeping) this.blocks.push(buf.slice(start, end));
      else this.text += this.decoder.decode(buf.subarray(start, end));
    } else {
      this.buffer.set(buf.subarray(start, end), this.bufferOffset);
      this.bufferOffset += size;
    }
    this.byteLength += size;
  }

  /** A lone surrogate of a \u escape (the tokenizer counts it in no byte length). */
  appendCharCode(code: number): void {
    if (this.keeping) {
      for (const byte of REPLACEMENT) {
        if (this.bufferOffset >= this.buffer.length) this.flush();
        this.buffer[this.bufferOffset++] = byte;
      }
      return;
    }
    this.flush();
    this.text += String.fromCharCode(code);
  }

  reset(): void {
    this.text = '';
    this.bufferOffset = 0;
    this.byteLength = 0;
    this.blocks = [];
    this.keeping = this.keepNext;
    this.keepNext = false;
  }

  toString(): string {
    if (!this.keeping) {
      this.flush();
      return this.text;
    }
    this.keeping = false;
    this.blocks.push(this.buffer.subarray(0, this.bufferOffset));
    this.bufferOffset = 0;
    // A copy always: the blocks are the builder's to use again.
    this.kept = this.blocks.length === 1 ? (this.blocks[0] as Uint8Array).slice() : concatBytes(this.blocks);
    for (const block of this.rotated) if (this.spare.length < MAX_SPARE) this.spare.push(block);
    this.blocks = [];
    this.rotated = [];
    return '';
  }

  private flush(): void {
    if (this.bufferOffset === 0) return;
    const filled = this.buffer.subarray(0, this.bufferOffset);
    if (this.keeping) {
      // The filled buffer joins the body as it is; a spare one (or a new one) takes its place.
      this.blocks.push(filled);
      this.rotated.push(this.buffer);
      this.buffer = this.spare.pop() ?? new Uint8Array(this.buffer.length);
    } else this.text += this.decoder.decode(filled);
    this.bufferOffset = 0;
  }
}
