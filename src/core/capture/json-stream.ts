// Runs anywhere (pure core): a capture or HAR file read as a stream of JSON tokens, entry by entry, in bounded pieces.
//
// Why @streamparser/json: it has no dependencies, is written in TypeScript, takes Uint8Array pieces and does its own
// UTF-8 decoding (so no text of the whole file is ever made), reports every token's byte offset (for precise
// messages), and with `keepStack: false` forgets each element of a list once it has been handed over. Its buffered
// strings (`stringBufferSize`) read long bodies at about JSON.parse's speed here. stream-json, the other
// well-kept choice, needs Node streams and stream-chain and hands out one object per token.
import { Tokenizer, TokenParser, TokenType, type ParsedElementInfo, type ParsedTokenInfo } from '@streamparser/json';
import { BodyStringBuilder, type StringBuilder } from './body-string';
import { cutShortMessage, type CutPlace } from './cut-short';
import { concatBytes } from './bytes';
import { InputError } from './errors';
import { MAX_JSON_DEPTH, nestedTooDeep } from './json-depth';
import { firstInvalidUtf8 } from './text';
import { CaptureConnectionReader, checkCaptureHeader } from './format';
import { HarEntryReader } from './har';
import type { Capture, ConnectionRecord } from './model';
import { optObject, reqArray, reqObject, type JsonObject } from './read';

/**
 * The largest single element of `log.entries` or `connections` the CLI holds (its body is decoded whole, and V8's
 * longest string is 512 MiB): 256 MiB, with room for the decoded copy.
 */
export const MAX_ENTRY_BYTES = 256 * 2 ** 20;

/**
 * Bytes of input kept behind the piece being read: a string's decoder refuses invalid UTF-8 when its buffer (64 KiB
 * at most) is decoded, which can be many pieces after the byte; within this much, the byte is found.
 */
const RECENT_BYTES = 2 * 2 ** 20;

/** What a JSON input gave: its capture, the list its connections came from, and where each element opens. */
export interface JsonStreamResult {
  capture: Capture;
  list: 'log.entries' | 'connections';
  /** The 1-based line where each element of the list opens (only when asked for). */
  lines: number[];
}

/** The top-level fields a capture file and a HAR's `log` are read from (their lists come element by element). */
const PATHS = [
  '$.log.entries.*',
  '$.connections.*',
  '$.log.creator',
  '$.log.pages',
  '$.log._createdAt',
  '$.log._observedUntil',
  '$.format',
  '$.version',
  '$.tool',
  '$.createdAt',
  '$.observedUntil',
  '$.page',
];

/** Where the tokens stand: the open containers, each with the key its next value goes under. */
interface Open {
  array: boolean;
  key: string | undefined;
  expectingKey: boolean;
}

/**
 * Reads a JSON input piece by piece. A document with a `format` field is a capture file, else one with `log` a HAR
 * (as loadInput decides); both lists are read as they come and the other's reader is dropped at the end, so an
 * element's problem is reported only for the kind the file turns out to be.
 */
export class JsonInputStream {
  private readonly tokenizer = new Tokenizer({ stringBufferSize: STRING_BUFFER });
  /** The tokenizer's strings, a HAR body's kept as bytes; undefined if this version of the library has no place for it. */
  private readonly strings = installStrings(this.tokenizer);
  /** The body bytes of the HAR entry being read, when its content.text was kept as bytes. */
  private entryBody: Uint8Array | undefined;
  private readonly parser = new TokenParser({ paths: PATHS, keepStack: false });
  private readonly har: Reading<HarEntryReader>;
  private readonly capture: Reading<CaptureConnectionReader>;
  private readonly top: JsonObject = {};
  private readonly log: JsonObject = {};
  private readonly open: Open[] = [];
  private rootType: string | undefined;
  /** The JSON type of `log`, `log.entries` and `connections`, as their first token tells. */
  private readonly types = new Map<string, string>();
  private error: unknown;
  private lastOffset = 0;
  /** Bytes of the file before the tokenizer's first token offset: the tokenizer skips a UTF-8 BOM. */
  private readonly shift: number;
  private base = 0;
  private piece: Uint8Array = new Uint8Array(0);
  /** The pieces read last, oldest first, with their offsets (RECENT_BYTES): where invalid UTF-8 is looked for. */
  private readonly recent: { start: number; bytes: Uint8Array }[] = [];
  private recentBytes = 0;
  /** Where the list element being read opened, while one is. */
  private elementStart: { offset: number; list: JsonStreamResult['list'] } | undefined;
  private readonly elementLines: Record<JsonStreamResult['list'], number[]> = { 'log.entries': [], connections: [] };
  private line = 1;
  private countedTo = 0;

  /** Where the first error was met (the tokenizer goes on emitting tokens after it). */
  private errorAt = 0;
  /** Elements of each list seen (counted as they open, whether their reader takes them or not). */
  private readonly started: Record<JsonStreamResult['list'], number> = { 'log.entries': 0, connections: 0 };

  /**
   * @param wantLines note the line each list element opens on.
   * @param bom the file starts with a UTF-8 BOM.
   * @param keep what is kept of each record read (see BodySpill).
   */
  constructor(
    private readonly wantLines: boolean,
    bom: boolean,
    keep?: (record: ConnectionRecord) => ConnectionRecord,
  ) {
    this.har = new Reading(new HarEntryReader(undefined, keep));
    this.capture = new Reading(new CaptureConnectionReader(keep));
    this.shift = bom ? 3 : 0;
    this.tokenizer.onToken = (info) => {
      this.see(info);
      this.parser.write(info);
    };
    this.parser.onValue = (info) => this.value(info);
    this.tokenizer.onError = (error) => this.fail(error);
    this.parser.onError = (error) => this.fail(error);
    this.parser.onEnd = () => undefined;
  }

  /** Elements of the input's list read so far. */
  get elements(): number {
    return Math.max(this.started['log.entries'], this.started.connections);
  }

  private fail(error: unknown): void {
    if (this.error !== undefined) return;
    this.error = error;
    this.errorAt = this.lastOffset;
  }

  /** Reads the next piece (kept only while it is read). */
  write(bytes: Uint8Array): void {
    this.piece = bytes;
    this.keepRecent(bytes);
    try {
      this.tokenizer.write(bytes);
    } catch (error) {
      this.fail(error);
    }
    this.raise(false);
    if (this.wantLines) this.countLines(this.base + bytes.length);
    this.base += bytes.length;
    const open = this.elementStart;
    if (open && this.base - open.offset > MAX_ENTRY_BYTES) {
      const index = this.started[open.list] - 1;
      const what = open.list === 'log.entries' ? 'HAR entry' : 'capture connection';
      throw new InputError(
        `${open.list}[${index}]`,
        `this ${what}, from byte ${open.offset}, is over ${MAX_ENTRY_BYTES / 2 ** 20} MiB: larger than one entry the CLI holds (its body is decoded whole); split the file or save the stream raw with curl -N`,
      );
    }
  }

  /** The capture, once the whole input has been written. */
  end(): JsonStreamResult {
    if (this.error === undefined && this.rootType === 'object' && this.open.length > 0) {
      throw new InputError('', cutShortMessage(this.cutPlace(), this.base));
    }
    try {
      this.tokenizer.end();
    } catch (error) {
      this.fail(error);
    }
    this.raise(true);
    if (this.rootType !== 'object') throw notCaptureNorHar(`JSON (${this.rootType ?? 'nothing'})`);
    if ('format' in this.top) {
      // The checks in the order captureFromJson makes them, the elements' own where it reads the list.
      const doc = this.documentOf('connections');
      checkCaptureHeader(doc);
      reqObject(doc, 'tool', '');
      optObject(doc, 'page', '');
      reqArray(doc, 'connections', '');
      const capture = this.capture.check().finish(doc);
      return { capture, list: 'connections', lines: this.linesOf('connections') };
    }
    if ('log' in this.top) {
      const doc = this.documentOf('log');
      const log = reqObject(doc, 'log', '');
      const entries = this.types.get('log.entries');
      if (entries !== undefined) log.entries = placeholder(entries);
      reqArray(log, 'entries', 'log');
      const capture = this.har.check().finish(log);
      return { capture, list: 'log.entries', lines: this.linesOf('log.entries') };
    }
    throw notCaptureNorHar('a JSON object');
  }

  private linesOf(list: JsonStreamResult['list']): number[] {
    return this.wantLines ? this.elementLines[list] : [];
  }

  /** The document as the core's readers check it: the fields read, and a stand-in of the right type for the rest. */
  private documentOf(kind: 'log' | 'connections'): JsonObject {
    const doc: JsonObject = { ...this.top };
    const type = this.types.get(kind);
    if (type !== undefined) doc[kind] = type === 'object' && kind === 'log' ? this.log : placeholder(type);
    return doc;
  }

  /** Turns the tokenizer's or parser's complaint into an InputError with the byte it concerns. */
  private raise(ended: boolean): void {
    const error = this.error;
    if (error === undefined) return;
    if (error instanceof InputError) throw error;
    if (error instanceof RangeError) {
      throw new InputError('', `a value near byte ${this.errorAt} is too large to hold (${error.message})`);
    }
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    if (ended && /ended in the middle|ended in mid/i.test(message)) {
      throw new InputError('', cutShortMessage(this.cutPlace(), this.base));
    }
    if (error instanceof TypeError && /encod/i.test(message)) {
      // As when the whole file is decoded first (decodeUtf8OrThrow): the byte itself, not the token before its string.
      const invalid = this.invalidUtf8At();
      throw new InputError(
        '',
        invalid !== undefined
          ? `invalid UTF-8 at byte offset ${invalid}`
          : `invalid UTF-8 in the string after byte ${this.errorAt}`,
      );
    }
    const position = /absolute position "(\d+)"/.exec(message)?.[1];
    const at = position === undefined ? this.errorAt : Number(position);
    const reason = message.replace(/ at chunk position .*$/, '').replace(/ in state \w+$/, '');
    throw new InputError('', `malformed JSON at byte ${at}: ${reason}`);
  }

  private keepRecent(bytes: Uint8Array): void {
    this.recent.push({ start: this.base, bytes });
    this.recentBytes += bytes.length;
    while (
      this.recent.length > 1 &&
      this.recentBytes - (this.recent[0] as { bytes: Uint8Array }).bytes.length >= RECENT_BYTES
    )
      this.recentBytes -= (this.recent.shift() as { bytes: Uint8Array }).bytes.length;
  }

  /**
   * The offset of the first invalid UTF-8 sequence from the token before the string the decoder refused, or, when
   * that string began before the bytes kept, from the first sequence start in them: the decoders here (the
   * tokenizer's string buffer, BodyStringBuilder) decode buffer by buffer, 64 KiB at most, so the byte they refused
   * lies within RECENT_BYTES of where they refused it. Undefined when none is found.
   */
  private invalidUtf8At(): number | undefined {
    const first = this.recent[0];
    if (first === undefined) return undefined;
    const bytes = concatBytes(this.recent.map((p) => p.bytes));
    let from = Math.max(0, this.errorAt - first.start);
    if (first.start > this.errorAt) while (from < 3 && ((bytes[from] ?? 0) & 0xc0) === 0x80) from++;
    const at = firstInvalidUtf8(bytes.subarray(from));
    return at === -1 ? undefined : first.start + from + at;
  }

  /** Follows the structure token by token: the root's type, the keys, where each element of a list opens and ends. */
  private see(info: ParsedTokenInfo): void {
    const { token, value } = info;
    const offset = info.offset + this.shift;
    this.lastOffset = offset;
    const top = this.open.at(-1);
    if (token === TokenType.COMMA || token === TokenType.COLON) {
      if (top && !top.array && token === TokenType.COMMA) top.expectingKey = true;
      else if (token === TokenType.COLON && this.strings && this.atBodyText()) this.strings.keepNextAsBytes(true);
      return;
    }
    if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      this.open.pop();
      if (this.elementStart && this.open.length === this.listDepth(this.elementStart.list))
        this.elementStart = undefined;
      return;
    }
    if (top && !top.array && top.expectingKey && token === TokenType.STRING) {
      top.key = String(value);
      top.expectingKey = false;
      if (this.open.length === 1) this.top[top.key] ??= undefined;
      return;
    }
    // A value starts here.
    if (this.strings) {
      if (token === TokenType.STRING) this.entryBody = this.strings.takeBytes() ?? this.entryBody;
      else this.strings.keepNextAsBytes(false);
    }
    const type = tokenType(token);
    if (top === undefined) this.rootType ??= type;
    const path = this.pathHere();
    if (path === 'log' || path === 'connections' || path === 'log.entries') this.types.set(path, type);
    const list = path === 'log.entries[]' ? 'log.entries' : path === 'connections[]' ? 'connections' : undefined;
    if (list) {
      this.entryBody = undefined;
      this.started[list]++;
      this.elementStart = { offset, list };
      if (this.wantLines) {
        this.countLines(offset);
        this.elementLines[list].push(this.line);
      }
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      // Refused before the parser sees it: its cost per closing bracket grows with the depth (json-depth.ts).
      if (this.open.length >= MAX_JSON_DEPTH) throw nestedTooDeep(offset);
      this.open.push({ array: token === TokenType.LEFT_BRACKET, key: undefined, expectingKey: true });
    } else if (list) this.elementStart = undefined;
  }

  /** Which element of which list the input ended inside or after (the core's loadInput says the same). */
  private cutPlace(): CutPlace | undefined {
    const path = this.pathHere();
    const list =
      this.elementStart?.list ??
      (path === 'log.entries[]' ? 'log.entries' : path === 'connections[]' ? 'connections' : undefined);
    if (list === undefined) return undefined;
    return { list, index: this.started[list] - 1, inside: this.elementStart !== undefined };
  }

  /** How many containers are open while an element of the list is read (the list's own included). */
  private listDepth(list: JsonStreamResult['list']): number {
    return list === 'log.entries' ? 3 : 2;
  }

  /** The path of the value starting now, as far as it matters: `log`, `log.entries`, `log.entries[]`, ... */
  private pathHere(): string {
    const [root, second, third] = this.open;
    if (!root || root.array) return '';
    if (this.open.length === 1) return root.key ?? '';
    if (root.key === 'connections' && second?.array && this.open.length === 2) return 'connections[]';
    if (root.key !== 'log' || !second || second.array) return '';
    if (this.open.length === 2) return `log.${second.key ?? ''}`;
    return second.key === 'entries' && third?.array && this.open.length === 3 ? 'log.entries[]' : '';
  }

  /** Whether the value after this colon is a HAR entry's `response.content.text`. */
  private atBodyText(): boolean {
    const open = this.open;
    if (open.length !== 6) return false;
    const [log, entries, list, entry, response, content] = open as [Open, Open, Open, Open, Open, Open];
    return (
      content.key === 'text' &&
      !content.array &&
      response.key === 'content' &&
      !response.array &&
      entry.key === 'response' &&
      !entry.array &&
      list.array &&
      entries.key === 'entries' &&
      !entries.array &&
      log.key === 'log' &&
      !log.array
    );
  }

  private value({ value, key, stack }: ParsedElementInfo): void {
    const parentKey = stack.at(-1)?.key;
    if (stack.length === 3 && parentKey === 'entries') {
      this.har.read(value, this.entryBody);
      this.entryBody = undefined;
    } else if (stack.length === 2 && parentKey === 'connections') this.capture.read(value);
    else if (stack.length === 2 && parentKey === 'log' && typeof key === 'string') this.log[key] = value;
    else if (stack.length === 1 && typeof key === 'string') this.top[key] = value;
  }

  /** Counts the line feeds of the current piece up to byte `offset` of the file. */
  private countLines(offset: number): void {
    const piece = this.piece;
    const end = offset - this.base;
    for (let at = piece.indexOf(LF, this.countedTo - this.base); at !== -1 && at < end; at = piece.indexOf(LF, at + 1))
      this.line++;
    this.countedTo = offset;
  }
}

const LF = 0x0a;
/** The tokenizer's string buffer: long bodies are read at about JSON.parse's speed with it. */
const STRING_BUFFER = 64 * 1024;

/**
 * Puts a BodyStringBuilder in the tokenizer's place for strings (a private field of @streamparser/json 0.0.x, so
 * reached through a cast, and checked: a version without it reads bodies as text, as before, only slower).
 */
function installStrings(tokenizer: Tokenizer): BodyStringBuilder | undefined {
  const fields = tokenizer as unknown as { bufferedString?: StringBuilder };
  if (typeof fields.bufferedString?.appendBuf !== 'function') return undefined;
  const strings = new BodyStringBuilder(STRING_BUFFER);
  fields.bufferedString = strings;
  return strings;
}

/** One list's reader, and the first problem it met (raised only if the file turns out to be of its kind). */
class Reading<R extends HarEntryReader | CaptureConnectionReader> {
  private problem: unknown;
  constructor(readonly reader: R) {}

  read(value: unknown, body?: Uint8Array): void {
    if (this.problem !== undefined) return;
    try {
      if (this.reader instanceof HarEntryReader) this.reader.entry(value, body);
      else this.reader.connection(value);
    } catch (error) {
      this.problem = error;
    }
  }

  /** Throws the first problem an element had. */
  check(): R {
    if (this.problem !== undefined) throw this.problem;
    return this.reader;
  }
}

function tokenType(token: TokenType): string {
  switch (token) {
    case TokenType.LEFT_BRACE:
      return 'object';
    case TokenType.LEFT_BRACKET:
      return 'array';
    case TokenType.STRING:
      return 'string';
    case TokenType.NUMBER:
      return 'number';
    case TokenType.TRUE:
    case TokenType.FALSE:
      return 'boolean';
    default:
      return 'null';
  }
}

/** A value of the JSON type named, for the core's type checks of fields not kept. */
function placeholder(type: string): unknown {
  switch (type) {
    case 'object':
      return {};
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function notCaptureNorHar(what: string): InputError {
  return new InputError(
    '',
    `${what} that is neither an mcp-stream-inspector capture (no "format" field) nor a HAR (no "log" field)`,
  );
}
