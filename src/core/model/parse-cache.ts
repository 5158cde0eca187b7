// Runs anywhere (pure core): remembers parsed connections between analyses of a growing capture (the live panel).
import type { BodyChunk, ConnectionRecord, EndReason, HttpHeader } from '../capture/model';
import { assembleConnection, parseHead, SseBodyReader, type ParsedConnection, type ParsedHead } from './connection';

/** What parsing a record depends on besides its chunks, copied by value (so a record mutated in place is noticed). */
interface HeadKey {
  method: string;
  source: ConnectionRecord['source'];
  status: number | undefined;
  requestBody: string | undefined;
  requestHeaders: HttpHeader[];
  responseHeaders: HttpHeader[] | undefined;
}

/** A finished parse of one record object, valid while its chunk count, end and head stay as they were. */
interface Done {
  head: HeadKey;
  chunkCount: number;
  end: EndReason;
  parsed: ParsedConnection;
}

/** A streaming SSE connection: its reader continues from the chunks it read when a newer copy of the record arrives. */
interface Live {
  head: HeadKey;
  parsedHead: ParsedHead;
  reader: SseBodyReader;
  /** The chunk objects the reader consumed, in order. */
  chunks: BodyChunk[];
}

function headKey(record: ConnectionRecord): HeadKey {
  const copy = (headers: readonly HttpHeader[]) => headers.map(({ name, value }) => ({ name, value }));
  return {
    method: record.method,
    source: record.source,
    status: record.status,
    requestBody: record.requestBody,
    requestHeaders: copy(record.requestHeaders),
    responseHeaders: record.responseHeaders && copy(record.responseHeaders),
  };
}

function sameHeaders(a: readonly HttpHeader[] | undefined, b: readonly HttpHeader[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((h, i) => h.name === b[i]?.name && h.value === b[i]?.value);
}

function sameHead(key: HeadKey, record: ConnectionRecord): boolean {
  return (
    key.method === record.method &&
    key.source === record.source &&
    key.status === record.status &&
    key.requestBody === record.requestBody &&
    sameHeaders(key.requestHeaders, record.requestHeaders) &&
    sameHeaders(key.responseHeaders, record.responseHeaders)
  );
}

/** The chunks a live reader consumed are still the first chunks of this record (appends only). */
function continues(record: ConnectionRecord, consumed: readonly BodyChunk[]): boolean {
  if (record.chunks.length < consumed.length) return false;
  for (let i = 0; i < consumed.length; i++) if (record.chunks[i] !== consumed[i]) return false;
  return true;
}

/**
 * Per-analyzer memory of parse results. A record object seen before with the same chunk count, end and head
 * is not parsed again; a streaming SSE connection (the panel copies a record when a chunk arrives) resumes
 * its parser and reads only the new chunks. Everything else is parsed from scratch, so results always equal
 * parseConnection(record).
 */
export class ConnectionParseCache {
  private readonly done = new WeakMap<ConnectionRecord, Done>();
  private readonly live = new Map<string, Live>();

  /** Parses records (an analysis's whole capture); forgets streaming state of connections no longer in it. */
  parseAll(records: readonly ConnectionRecord[]): ParsedConnection[] {
    const parsed = records.map((record) => this.parse(record));
    const present = new Set(records.map((record) => record.id));
    for (const id of this.live.keys()) if (!present.has(id)) this.live.delete(id);
    return parsed;
  }

  parse(record: ConnectionRecord): ParsedConnection {
    const known = this.done.get(record);
    if (
      known &&
      known.chunkCount === record.chunks.length &&
      known.end === record.end &&
      sameHead(known.head, record)
    ) {
      return known.parsed;
    }
    const parsed = this.read(record);
    this.done.set(record, { head: headKey(record), chunkCount: record.chunks.length, end: record.end, parsed });
    return parsed;
  }

  /**
   * Reads the chunks that arrived on a streaming SSE record since its reader last read, ahead of the next
   * parseAll, which then has only the newest chunks left. Records without a live reader are left to parseAll.
   */
  readAhead(record: ConnectionRecord): void {
    const live = this.live.get(record.id);
    if (!live || live.reader.finished || !sameHead(live.head, record) || !continues(record, live.chunks)) return;
    live.reader.read(record.chunks, record.gaps);
    for (let i = live.chunks.length; i < record.chunks.length; i++) live.chunks.push(record.chunks[i] as BodyChunk);
  }

  private read(record: ConnectionRecord): ParsedConnection {
    let live = this.live.get(record.id);
    if (!live || live.reader.finished || !sameHead(live.head, record) || !continues(record, live.chunks)) {
      this.live.delete(record.id);
      const parsedHead = parseHead(record);
      if (!parsedHead.isSse) return assembleConnection(parsedHead, undefined);
      live = { head: headKey(record), parsedHead, reader: new SseBodyReader(), chunks: [] };
    }
    live.reader.read(record.chunks, record.gaps);
    for (let i = live.chunks.length; i < record.chunks.length; i++) live.chunks.push(record.chunks[i] as BodyChunk);
    // The head parse is reused; the record it names is this one.
    const parsed = assembleConnection({ ...live.parsedHead, record }, live.reader);
    if (live.reader.finished) this.live.delete(record.id);
    else this.live.set(record.id, live);
    return parsed;
  }
}
