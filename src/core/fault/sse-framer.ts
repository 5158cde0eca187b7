// Runs anywhere (pure core): finds SSE frame boundaries in a byte stream as it passes, so a fault proxy can
// count events and cut at an exact byte. It reads the fields it needs (id, event, the head of data) and never
// holds more than a capped copy of a line. Unlike sse/parser.ts it keeps no events: it only marks where they are.
import { concatBytes } from '../capture/bytes';
import { TextDecoder } from '../web/globals';

/** How much of a frame's data is kept for classification (the rest is only counted). */
const DATA_CAP = 64 * 1024;
/** How much of a frame's raw bytes is kept so it can be sent again. */
const RAW_CAP = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
/** `data` as bytes: the one field name the framer must recognize before its line ends. */
const DATA_NAME = [0x64, 0x61, 0x74, 0x61];
const utf8 = new TextDecoder();

export interface Frame {
  /** 0-based position among the frames of this response. */
  index: number;
  /** Byte offset of the frame in the response body, and its length with its blank line. */
  offset: number;
  length: number;
  id?: string;
  event?: string;
  hasData: boolean;
  /** Data lines joined with LF, at most DATA_CAP characters. */
  dataHead: string;
  dataBytes: number;
  dataTruncated: boolean;
  /** The frame's bytes, when it is at most RAW_CAP long. */
  raw?: Uint8Array;
  /** A frame with an id or data: something the client's parser dispatches or remembers. */
  isEvent: boolean;
}

export interface ScanResult {
  /** Position in the chunk where scanning stopped. */
  stop: number;
  /** The frame that ended at `stop`, if one did. */
  ended?: Frame;
  /** Scanning stopped because the first data value of the frame starts at `stop`. */
  atDataValue: boolean;
}

export class SseFramer {
  private index = 0;
  private offset = 0;
  private frameLength = 0;
  private afterCR = false;
  /** Bytes of the current line: its field name, then (after the colon) its value, both capped. */
  private name: number[] = [];
  private value: number[] = [];
  private lineLength = 0;
  private sawColon = false;
  private spaceChecked = false;
  private inDataLine = false;
  /** The current frame has reached the first byte of a data value. */
  private dataValueReached = false;
  private id: string | undefined;
  private event: string | undefined;
  private data: string[] = [];
  private dataLength = 0;
  private dataBytes = 0;
  private truncated = false;
  private raw: Uint8Array[] = [];
  private rawLength = 0;

  /** Bytes of the current, unfinished frame seen so far. */
  get bytesIntoFrame(): number {
    return this.frameLength;
  }

  /** The id field of the current, unfinished frame, once its line has passed. */
  get currentId(): string | undefined {
    return this.id;
  }

  /**
   * Consumes bytes from `from` up to the end of the current frame, or (when `stopAtDataValue`)
   * up to the first byte of its first data value, or to the end of the chunk.
   */
  scan(chunk: Uint8Array, from: number, stopAtDataValue = false): ScanResult {
    let pos = from;
    while (pos < chunk.length) {
      const byte = chunk[pos] as number;
      if (stopAtDataValue && this.isDataValueByte(byte)) {
        this.keepRaw(chunk, from, pos);
        return { stop: pos, atDataValue: true };
      }
      pos += 1;
      this.frameLength += 1;
      if (this.afterCR && byte === LF) {
        // Second half of a CRLF: the line already ended at the CR.
        this.afterCR = false;
        continue;
      }
      this.afterCR = byte === CR;
      if (byte === CR || byte === LF) {
        if (this.endLine()) {
          if (byte === CR && chunk[pos] === LF) {
            // Keep a CRLF blank line whole in this frame when its LF is already here.
            pos += 1;
            this.frameLength += 1;
            this.afterCR = false;
          }
          this.keepRaw(chunk, from, pos);
          return { stop: pos, ended: this.finishFrame(), atDataValue: false };
        }
        continue;
      }
      this.addToLine(byte);
    }
    this.keepRaw(chunk, from, pos);
    return { stop: pos, atDataValue: false };
  }

  /** Whether `byte`, about to be consumed, is the first byte of the frame's first data value. */
  private isDataValueByte(byte: number): boolean {
    if (this.dataValueReached || !this.inDataLine || byte === CR || byte === LF) return false;
    return this.spaceChecked || byte !== SPACE;
  }

  private addToLine(byte: number): void {
    this.lineLength += 1;
    if (!this.sawColon) {
      if (byte === COLON) {
        this.sawColon = true;
        this.inDataLine = this.lineLength === 5 && DATA_NAME.every((byte, i) => this.name[i] === byte);
      } else if (this.name.length < 64) {
        this.name.push(byte);
      }
      return;
    }
    if (!this.spaceChecked) {
      this.spaceChecked = true;
      if (byte === SPACE) return;
    }
    if (this.inDataLine) {
      this.dataValueReached = true;
      this.dataBytes += 1;
    }
    if (this.value.length < DATA_CAP) this.value.push(byte);
    else if (this.inDataLine) this.truncated = true;
  }

  /** Ends the current line; returns true when it was the blank line that ends a frame. */
  private endLine(): boolean {
    if (this.lineLength === 0) return true;
    this.applyField();
    this.name = [];
    this.value = [];
    this.lineLength = 0;
    this.sawColon = false;
    this.spaceChecked = false;
    this.inDataLine = false;
    return false;
  }

  private applyField(): void {
    if (this.lineLength > 0 && this.name.length === 0 && this.sawColon) return; // a comment
    const name = utf8.decode(Uint8Array.from(this.name));
    const value = utf8.decode(Uint8Array.from(this.value));
    if (name === 'data') this.addData(value);
    else if (name === 'id' && !value.includes('\u0000')) this.id = value;
    else if (name === 'event') this.event = value;
  }

  private addData(value: string): void {
    const piece = this.data.length > 0 ? `\n${value}` : value;
    if (this.data.length > 0) this.dataBytes += 1;
    const room = DATA_CAP - this.dataLength;
    if (piece.length > room) this.truncated = true;
    this.data.push(piece.slice(0, Math.max(0, room)));
    this.dataLength += Math.min(piece.length, Math.max(0, room));
  }

  private keepRaw(chunk: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    this.rawLength += to - from;
    if (this.rawLength <= RAW_CAP)
      // A copy (never a view: the chunk may be a Node Buffer, whose slice() shares memory).
      this.raw.push(new Uint8Array(chunk.subarray(from, to)));
  }

  private finishFrame(): Frame {
    const hasData = this.data.length > 0;
    const frame: Frame = {
      index: this.index,
      offset: this.offset,
      length: this.frameLength,
      id: this.id,
      event: this.event,
      hasData,
      dataHead: this.data.join(''),
      dataBytes: this.dataBytes,
      dataTruncated: this.truncated,
      raw: this.rawLength <= RAW_CAP ? copyOf(this.raw) : undefined,
      isEvent: hasData || this.id !== undefined,
    };
    this.index += 1;
    this.offset += this.frameLength;
    this.frameLength = 0;
    this.dataValueReached = false;
    this.id = undefined;
    this.event = undefined;
    this.data = [];
    this.dataLength = 0;
    this.dataBytes = 0;
    this.truncated = false;
    this.raw = [];
    this.rawLength = 0;
    return frame;
  }
}

/** One fresh buffer of the parts (concatBytes hands a single part back as is: the raw copy must be ours). */
function copyOf(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(parts);
}
