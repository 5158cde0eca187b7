// Runs anywhere (pure core): incremental SSE parser over bytes; touches no DOM, no Node APIs.
/*
 * WHATWG HTML "interpreting an event stream", written by hand instead of wrapping eventsource-parser
 * because the inspector needs what a text parser cannot give: the byte range and chunks of every
 * event, and the undispatched tail (its bytes and parsed fields) at any moment.
 *
 * Speed: each chunk is decoded once, whole, and lines are found with String#indexOf (SIMD in V8;
 * measured ~50x faster than Uint8Array#indexOf or a JS byte loop); field values are cheap slices.
 * Pure-ASCII chunks (the usual JSON-RPC case) go through Node's fast UTF-8 path, and there string
 * index = byte offset. Other chunks go through one ICU decoder in stream mode, so a UTF-8 sequence
 * cut by a chunk boundary is completed by the next chunk, exactly as in the spec's whole-stream
 * decoding; a line's byte offset is then found from a lower bound (a line never has fewer bytes than
 * UTF-16 units). Lines are independent of each other's decoding because CR and LF are ASCII: a
 * sequence cut short by one of them yields one U+FFFD either way.
 *
 * Offsets: an event spans from the start of the first line after the previous blank line (comments
 * and ignored lines included) to just past the first terminator byte of its dispatching blank line.
 * For a CRLF blank line the LF is left out, so events are identical however the stream is chunked.
 * Chunks are kept by reference (not copied) while they hold undispatched bytes: do not reuse a
 * buffer after pushing it.
 */
import { TextDecoder, type TextDecodeOptions } from '../web/globals';
import { copyRange, isBlankText } from './bytes';
import type { SseEvent, SseTail } from './types';

// Module-local on purpose: imported bindings can compile to getter calls (CJS interop) in the hot loop.
const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
/** The UTF-8 byte order mark, stripped once at stream start. */
const BOM: readonly number[] = [0xef, 0xbb, 0xbf];
const STREAM: TextDecodeOptions = { stream: true };
/** The most bytes decoded at once (see push). */
const DECODE_SLICE = 64 * 1024;
/** A data line at least this long, cut by slices, is kept as its decoded parts (see longData). */
const LONG_DATA = 256 * 1024;

/**
 * An incremental WHATWG event-stream parser over bytes: push chunks as they arrive, get the events each one
 * dispatched with their byte ranges, and see the undispatched tail at any moment.
 * @example
 * const parser = new SseParser();
 * for await (const chunk of response.body) for (const event of parser.push(chunk)) console.log(event.lastEventId, event.data);
 * const torn = parser.finish(); // bytes of an event the stream ended in the middle of, if any
 */
export class SseParser {
  /**
   * V8 holds object shapes (maps) reached by field-adding transitions weakly: once every parser is
   * garbage-collected, their shape dies and all optimized parser code is thrown away, so each new
   * connection started in slow code (measured: 25-40% slower runs after a full GC with 1 KiB chunks).
   * One instance held by the class keeps the shape, hence the optimized code, alive.
   */
  private static readonly shapeKeeper: SseParser = new SseParser();

  // Node decodes ASCII fastest with a TextDecoder never used in stream mode, and non-ASCII fastest
  // through ICU, which a TextDecoder switches to for good once used with `stream: true`. Both keep a
  // BOM as U+FEFF: the parser strips the leading one itself.
  private readonly asciiDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly decoder = primedIcuDecoder();
  /** The last chunk was pure ASCII: try the fast decoder first. */
  private lastExact = true;
  /** The ICU decoder may hold the first bytes of an unfinished sequence: the next chunk must go through it. */
  private icuHeld = false;
  private chunkCount = 0;
  private byteCount = 0;
  private finished = false;
  /** BOM bytes matched at stream start; -1 once decided. */
  private bomMatched = 0;
  /** The previous chunk ended with CR: a LF opening the next chunk completes that CRLF. */
  private skipLf = false;
  /** Index of the chunk being parsed, and the events it dispatched. */
  private current = 0;
  private out: SseEvent[] = [];
  /** The event's data as the decoded parts of one long line (see longData), while it has no other data line. */
  private dataParts: string[] | undefined = undefined;
  private readonly partsOfEvent = new WeakMap<SseEvent, readonly string[]>();

  // The spec's buffers.
  private eventType = '';
  /** Data lines joined with LF, and how many (values hold no LF, so split('\n') gives the lines back). */
  private data = '';
  private dataCount = 0;
  private idBuffer = '';
  private lastEventIdString = '';
  private retryMs: number | undefined = undefined;
  private eventHasId = false;
  private eventRetry: number | undefined = undefined;

  /** Start offset of the lines read since the last blank line (the undispatched region); -1 if none. */
  private regionStart = -1;
  private regionFirstChunk = 0;
  /** A complete line of the region is a field (not a comment, not whitespace only). */
  private regionHasField = false;
  /** The region's bytes, as views of the pushed chunks. */
  private regionViews: Uint8Array[] = [];

  /** Start offset of the incomplete last line; -1 if none. */
  private pendingStart = -1;
  /** Its decoded fragments, joined once the line is complete (bytes held by the ICU decoder excepted). */
  private pendingTexts: string[] = [];
  /** After resync(): lines are skipped up to the next blank line. */
  private awaitingBlank = false;

  /**
   * The bytes pushed next do not follow those pushed so far (the recorder lost bytes between them: a capture gap).
   * What was undispatched is dropped, and everything up to the next blank line is skipped: it may be the rest of an
   * event whose start was lost, and joining it to what came before would make an event no server sent. The last
   * event ID stays what it was (nothing after the gap has set it yet).
   */
  resync(): void {
    this.resetEvent();
    this.regionViews = [];
    this.pendingStart = -1;
    this.pendingTexts = [];
    this.skipLf = false;
    this.bomMatched = -1;
    if (this.icuHeld) this.decoder.decode(); // flushes the unfinished sequence: its bytes' end was lost
    this.icuHeld = false;
    this.lastExact = true;
    this.awaitingBlank = true;
  }

  /**
   * Parses one chunk; returns the events it dispatched. With `continues`, the bytes are the next part of the last
   * chunk pushed (a caller cutting a big chunk into slices): events and tails name that chunk, not a new one.
   */
  push(chunk: Uint8Array, continues = false): SseEvent[] {
    if (this.finished) throw new Error('SseParser: push() after finish()');
    const index = continues && this.chunkCount > 0 ? this.chunkCount - 1 : this.chunkCount++;
    const base = this.byteCount;
    this.byteCount += chunk.length;
    if (chunk.length === 0) return [];
    this.current = index;
    const out: SseEvent[] = [];
    this.out = out;
    let start = 0;
    if (this.bomMatched >= 0) {
      start = this.checkBom(chunk, base);
      if (start < 0) {
        this.keepRegion(chunk, base);
        return out;
      }
    }
    // A big chunk is decoded and parsed in slices, each as if it were a chunk of its own (the parser takes any
    // chunking) but keeping this chunk's index: V8 makes a string of more than about 128 KiB in its large-object
    // space, and here decoding 50 MB in 1 MiB pieces took 280 ms where 64 KiB pieces took 8 ms.
    while (start < chunk.length) {
      if (this.skipLf) {
        this.skipLf = false;
        if (chunk[start] === LF) start++;
        if (start === chunk.length) break;
      }
      const end = Math.min(chunk.length, start + DECODE_SLICE);
      this.parseChunk(start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end), base + start);
      start = end;
    }
    this.keepRegion(chunk, base);
    return out;
  }

  /** Ends the stream; returns what was left undispatched (an event without its blank line is not dispatched). */
  finish(): SseTail | undefined {
    this.finished = true;
    return this.tail;
  }

  /** The undispatched region as it stands, or undefined when it holds no field. */
  get tail(): SseTail | undefined {
    if (this.regionStart < 0) return undefined;
    // Bytes that may still turn out to be a BOM are not content until the stream says so.
    if (this.bomMatched > 0 && !this.finished) return undefined;
    const pendingLine = this.pendingStart < 0 ? '' : this.pendingText();
    const pendingIsField = pendingLine !== '' && pendingLine.charCodeAt(0) !== COLON && !isBlankText(pendingLine);
    if (!this.regionHasField && !pendingIsField) return undefined;
    const tail: SseTail = {
      start: this.regionStart,
      bytes: copyRange(this.regionViews, this.regionStart, this.regionStart, this.byteCount),
      dataLines: this.dataCount === 0 ? [] : this.data.split('\n'),
      pendingLine,
      hasData: this.dataCount > 0 || pendingLine === 'data' || pendingLine.startsWith('data:'),
    };
    if (this.eventType !== '') tail.type = this.eventType;
    if (this.eventHasId) tail.id = this.idBuffer;
    if (this.eventRetry !== undefined) tail.retry = this.eventRetry;
    return tail;
  }

  /** Bytes pushed so far. */
  get bytesRead(): number {
    return this.byteCount;
  }

  /**
   * The data of an event this parser dispatched, as the decoded parts that make it up in order, when it was one data
   * line long enough to arrive in many slices (a 1 MiB result): its `data` is then their concatenation, not yet made
   * flat. A reader that can take the parts spares making one string of them (V8 allocates a string over ~128 KiB in
   * its large-object space, fresh memory each time: ~4 ms per MiB on this machine, most of such an event's cost).
   */
  dataPartsOf(event: SseEvent): readonly string[] | undefined {
    return this.partsOfEvent.get(event);
  }

  /** The stream's last event ID string: the id buffer as of the last blank line (what a reconnect sends). */
  get lastEventId(): string {
    return this.lastEventIdString;
  }

  /** The reconnection time set by the last valid `retry` field, if any. */
  get reconnectionTime(): number | undefined {
    return this.retryMs;
  }

  /** Decodes `view` (stream offset `abs` onwards) and parses it. */
  private parseChunk(view: Uint8Array, abs: number): void {
    const length = view.length;
    if (this.lastExact && !this.icuHeld) {
      // Fast path. Up to 3 trailing non-ASCII bytes (maybe an unfinished sequence, surely no line end)
      // go to the ICU stream instead, so that the next chunk can complete them.
      let head = length;
      while (head > length - 3 && head > 0 && view[head - 1]! >= 0x80) head--;
      if (head === 0 || view[head - 1]! < 0x80) {
        const text = this.asciiDecoder.decode(head === length ? view : view.subarray(0, head));
        let trail = '';
        if (head < length) {
          trail = this.decoder.decode(view.subarray(head), STREAM);
          this.icuHeld = true;
        }
        this.lastExact = text.length === head && head === length;
        this.parseText(text, view, abs, text.length === head, false, trail);
        return;
      }
    }
    const shifted = this.icuHeld;
    const text = this.decoder.decode(view, STREAM);
    this.icuHeld = view[length - 1]! >= 0x80;
    this.lastExact = !shifted && !this.icuHeld && text.length === length;
    this.parseText(text, view, abs, this.lastExact, shifted, '');
  }

  /**
   * Parses `text`, the decoding of `bytes` (stream offset `abs` onwards); `trail` is the decoding of
   * bytes left out of `text` at its end (they hold no line end). When `exact`, string index = byte
   * index. When `shifted`, `text` opens with characters whose first bytes came in an earlier chunk.
   */
  private parseText(
    text: string,
    bytes: Uint8Array,
    abs: number,
    exact: boolean,
    shifted: boolean,
    trail: string,
  ): void {
    const len = text.length;
    const byteLength = bytes.length;
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    let pos = 0; // line start in text
    let bpos = 0; // the same place in bytes
    let carried = this.pendingStart >= 0;
    while (pos < len) {
      if (!carried && text.charCodeAt(pos) === LF) {
        // A blank LF line (every event ends with one): no search needed.
        this.blank(abs + bpos + 1);
        pos++;
        bpos++;
        continue;
      }
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
      const end = lf === -1 ? cr : cr === -1 || lf < cr ? lf : cr;
      if (end === -1) break;
      let bend = end;
      if (!exact) {
        const terminator = end === lf ? LF : CR;
        if (shifted && carried) {
          bend = bytes.indexOf(terminator); // the carried line holds no other line end
        } else {
          bend = bpos + (end - pos);
          if (bytes[bend] !== terminator) bend = findByte(bytes, terminator, bend + 1);
        }
      }
      if (carried) {
        carried = false;
        const lineStart = this.pendingStart;
        this.pendingTexts.push(text.slice(0, end));
        const parts = this.pendingTexts;
        this.pendingStart = -1;
        this.pendingTexts = [];
        if (!this.longData(parts)) {
          const line = parts.join(''); // one flat copy, even for a multi-megabyte line
          this.line(line, 0, line.length, lineStart);
        }
      } else if (end === pos) {
        this.blank(abs + bend + 1);
      } else {
        this.line(text, pos, end, abs + bpos);
      }
      pos = end + 1;
      bpos = bend + 1;
      if (end === cr) {
        if (bpos >= byteLength) this.skipLf = true;
        else if (bytes[bpos] === LF) {
          pos++;
          bpos++;
        }
      }
    }
    if (bpos >= byteLength) return;
    // The rest is an incomplete line.
    const rest = pos === 0 ? text : text.slice(pos);
    const fragment = trail === '' ? rest : rest + trail;
    if (carried) this.pendingTexts.push(fragment);
    else this.startPending(abs + bpos, fragment);
  }

  /** One complete, non-blank line text[from, to) starting at stream offset `lineStart`. */
  private line(text: string, from: number, to: number, lineStart: number): void {
    if (this.awaitingBlank) return;
    if (this.regionStart < 0) {
      this.regionStart = lineStart;
      this.regionFirstChunk = this.current;
    }
    const c = text.charCodeAt(from);
    if (c === COLON) return;
    // Fast paths for the fields every MCP event has: "data:", "event:", "id:".
    if (
      c === 100 &&
      text.charCodeAt(from + 1) === 97 &&
      text.charCodeAt(from + 2) === 116 &&
      text.charCodeAt(from + 3) === 97 &&
      text.charCodeAt(from + 4) === COLON
    ) {
      let v = from + 5;
      if (v < to && text.charCodeAt(v) === SPACE) v++;
      this.addData(text.slice(v, to));
      this.regionHasField = true;
      return;
    }
    if (
      c === 101 &&
      text.charCodeAt(from + 1) === 118 &&
      text.charCodeAt(from + 2) === 101 &&
      text.charCodeAt(from + 3) === 110 &&
      text.charCodeAt(from + 4) === 116 &&
      text.charCodeAt(from + 5) === COLON
    ) {
      let v = from + 6;
      if (v < to && text.charCodeAt(v) === SPACE) v++;
      this.eventType = text.slice(v, to);
      this.regionHasField = true;
      return;
    }
    if (c === 105 && text.charCodeAt(from + 1) === 100 && text.charCodeAt(from + 2) === COLON) {
      let v = from + 3;
      if (v < to && text.charCodeAt(v) === SPACE) v++;
      this.setId(text.slice(v, to));
      this.regionHasField = true;
      return;
    }
    // General case. Slice the line first so the colon search cannot run past it.
    const lineText = from === 0 && to === text.length ? text : text.slice(from, to);
    const colon = lineText.indexOf(':');
    if (colon === -1) {
      if (!isBlankText(lineText)) this.regionHasField = true;
      this.field(lineText, '');
      return;
    }
    this.regionHasField = true;
    let v = colon + 1;
    if (v < lineText.length && lineText.charCodeAt(v) === SPACE) v++;
    this.field(lineText.slice(0, colon), lineText.slice(v));
  }

  /**
   * A long `data:` line completed from its decoded parts: its value is kept as the parts (see dataPartsOf) and their
   * concatenation, which V8 leaves unflattened until something reads its characters. False (nothing done) for any
   * other line, which the caller then joins: what line() does with it is done here for a data line.
   */
  private longData(parts: readonly string[]): boolean {
    if (this.awaitingBlank || parts.length < 3) return false;
    let length = 0;
    for (const part of parts) length += part.length;
    const first = parts[0] as string;
    if (
      length < LONG_DATA ||
      first.length < 6 ||
      first.charCodeAt(0) !== 100 ||
      first.charCodeAt(1) !== 97 ||
      first.charCodeAt(2) !== 116 ||
      first.charCodeAt(3) !== 97 ||
      first.charCodeAt(4) !== COLON
    )
      return false;
    // startPending set the region's start when the line began (awaitingBlank was false then too: resync clears it).
    const value = [first.slice(first.charCodeAt(5) === SPACE ? 6 : 5), ...parts.slice(1)];
    let data = value[0] as string;
    for (let i = 1; i < value.length; i++) data += value[i] as string;
    this.addData(data);
    if (this.dataCount === 1) this.dataParts = value;
    this.regionHasField = true;
    return true;
  }

  private field(name: string, value: string): void {
    switch (name) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.addData(value);
        break;
      case 'id':
        this.setId(value);
        break;
      case 'retry':
        if (isAsciiDigits(value)) {
          const ms = parseInt(value, 10);
          this.retryMs = ms;
          this.eventRetry = ms;
        }
        break;
      default: // unknown fields are ignored (spec)
        break;
    }
  }

  private setId(value: string): void {
    if (value.indexOf('\0') !== -1) return; // spec: an id containing U+0000 is ignored
    this.idBuffer = value;
    this.eventHasId = true;
  }

  /** A blank line ending at stream offset `end`: dispatch if there is data, then reset the event buffers. */
  private blank(end: number): void {
    if (this.awaitingBlank) {
      // The end of what followed a gap: dispatch nothing, start afresh.
      this.awaitingBlank = false;
      this.resetEvent();
      return;
    }
    this.lastEventIdString = this.idBuffer;
    if (this.dataCount > 0) {
      const event: SseEvent = {
        type: this.eventType === '' ? 'message' : this.eventType,
        data: this.data,
        lastEventId: this.idBuffer,
        hasId: this.eventHasId,
        retry: this.eventRetry,
        start: this.regionStart,
        end,
        firstChunk: this.regionFirstChunk,
        lastChunk: this.current,
      };
      if (this.dataParts) this.partsOfEvent.set(event, this.dataParts);
      this.out.push(event);
    }
    this.resetEvent();
  }

  /** The event buffers and the region, empty again (after a blank line). */
  private resetEvent(): void {
    this.data = '';
    this.dataCount = 0;
    this.dataParts = undefined;
    this.eventType = '';
    this.eventHasId = false;
    this.eventRetry = undefined;
    this.regionStart = -1;
    this.regionHasField = false;
  }

  private addData(value: string): void {
    this.dataParts = undefined;
    this.data = this.dataCount === 0 ? value : `${this.data}\n${value}`;
    this.dataCount++;
  }

  private startPending(start: number, text: string): void {
    if (this.regionStart < 0 && !this.awaitingBlank) {
      this.regionStart = start;
      this.regionFirstChunk = this.current;
    }
    this.pendingStart = start;
    this.pendingTexts = [text];
  }

  /** The pending line as if the stream ended now (an unfinished UTF-8 sequence becomes U+FFFD). */
  private pendingText(): string {
    if (!this.icuHeld && this.bomMatched <= 0) return this.pendingTexts.join('');
    const bytes = copyRange(this.regionViews, this.regionStart, this.pendingStart, this.byteCount);
    return this.asciiDecoder.decode(bytes); // an isolated, flushing decode
  }

  /** Returns where parsing starts in `chunk` after a leading BOM, or -1 while a BOM is still possible. */
  private checkBom(chunk: Uint8Array, base: number): number {
    let i = 0;
    while (i < chunk.length && this.bomMatched < 3) {
      if (chunk[i] !== BOM[this.bomMatched]) {
        // Not a BOM. Bytes held from earlier chunks start the first line: decode them with what follows.
        if (this.pendingStart >= 0) {
          this.decoder.decode(copyRange(this.regionViews, this.regionStart, 0, base), STREAM);
          this.icuHeld = true;
        }
        this.bomMatched = -1;
        return 0;
      }
      this.bomMatched++;
      i++;
    }
    if (this.bomMatched === 3) {
      this.bomMatched = -1;
      this.pendingStart = -1;
      this.pendingTexts = [];
      this.regionStart = -1;
      this.regionViews = [];
      return i;
    }
    // The chunk ended inside what may be a BOM: hold its bytes as the start of the first line.
    if (this.pendingStart < 0) this.startPending(base, '');
    return -1;
  }

  /** Keeps views of the undispatched region (never the dispatched part) after each chunk. */
  private keepRegion(chunk: Uint8Array, base: number): void {
    if (this.regionStart < 0) {
      if (this.regionViews.length > 0) this.regionViews = [];
    } else if (this.regionFirstChunk === this.current) {
      this.regionViews = [this.regionStart === base ? chunk : chunk.subarray(this.regionStart - base)];
    } else {
      this.regionViews.push(chunk);
    }
  }
}

/** Index of `value` at or after `from` (known to exist): a short JS scan first, as the gap is usually a few bytes. */
function findByte(bytes: Uint8Array, value: number, from: number): number {
  const stop = Math.min(from + 64, bytes.length);
  for (let i = from; i < stop; i++) if (bytes[i] === value) return i;
  return bytes.indexOf(value, stop);
}

function primedIcuDecoder(): TextDecoder {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  decoder.decode(new Uint8Array(0), { stream: true });
  return decoder;
}

function isAsciiDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Parses a whole stream given as chunks. */
export function parseSse(chunks: Iterable<Uint8Array>): { events: SseEvent[]; tail?: SseTail } {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (const chunk of chunks) {
    for (const event of parser.push(chunk)) events.push(event);
  }
  const tail = parser.finish();
  return tail ? { events, tail } : { events };
}
