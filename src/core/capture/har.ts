// Runs anywhere (pure core): HAR 1.2 import (as Chrome, Firefox, Playwright and proxies write it).
// Our own exports add `_`-prefixed fields (`_chunks`, `_streamState`, exact times) so they round-trip.
import { decodeBase64At, RECORD_SOURCES } from './format';
import { childPath, indexPath, InputError } from './errors';
import { endReasonFromStreamState, parseChunkTimeline, type EntryTimeline, type TimedSlice } from './har-chunks';
import type { BodyChunk, Capture, ConnectionRecord, EndReason, HttpHeader, RecordSource } from './model';
import {
  assignDefined,
  checkTime,
  expectObject,
  isJsonObject,
  optArray,
  optDuration,
  optInteger,
  optNumber,
  optObject,
  optSize,
  optString,
  optTime,
  reqArray,
  reqNumber,
  reqObject,
  reqString,
  type JsonObject,
} from './read';
import { encodeUtf8, parseJsonFile } from './text';
import { TextDecoder } from '../web/globals';

export { exportHar } from './har-export';

/** Options of {@link importHar} and {@link loadInput}. */
export interface HarImportOptions {
  /** The chunks.ndjson companion: splits each entry's body into the chunks it arrived in, with their times. */
  chunksNdjson?: string;
}

/**
 * Reads a HAR file (a browser's export, or this tool's, which restores chunks and their times exactly).
 * @param text the HAR file's text.
 * @param options `chunksNdjson`: the companion file that splits each body into the chunks it arrived in.
 * @returns one connection record per HAR entry.
 * @throws InputError naming the HAR path (`log.entries[3].response`) of what is wrong.
 */
export function importHar(text: string, options?: HarImportOptions): Capture {
  return captureFromHar(parseJsonFile(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), options);
}

/** Reads an already parsed HAR document (used by loadInput, which parses once to sniff). */
export function captureFromHar(value: unknown, options?: HarImportOptions): Capture {
  const doc = expectObject(value, '');
  const log = reqObject(doc, 'log', '');
  const list = reqArray(log, 'entries', 'log');
  let timelines: Map<number, EntryTimeline> | undefined;
  if (options?.chunksNdjson) {
    // The companion's clock is anchored on the entries' start times: every head is read before any entry.
    const heads = list.map((e, i) =>
      readHead(expectObject(e, indexPath('log.entries', i)), indexPath('log.entries', i)),
    );
    timelines = parseChunkTimeline(
      options.chunksNdjson,
      heads.map((h) => h.startTime),
    );
  }
  const reader = new HarEntryReader(timelines);
  list.forEach((entry) => reader.entry(entry));
  return reader.finish(log);
}

/**
 * A HAR read entry by entry, in file order (the CLI streams a file of any size through it): each entry becomes its
 * connection record as soon as it is given, so only the records are held, never the file's text.
 */
export class HarEntryReader {
  private readonly connections: ConnectionRecord[] = [];
  private readonly usedIds = new Set<string>();

  /**
   * @param timelines the chunks.ndjson companion's timelines, by 0-based entry index.
   * @param keep what is kept of each record read (the CLI moves big bodies out of memory); the record itself if absent.
   */
  constructor(
    private readonly timelines?: ReadonlyMap<number, EntryTimeline>,
    private readonly keep: (record: ConnectionRecord) => ConnectionRecord = (record) => record,
  ) {}

  /** The number of entries read. */
  get count(): number {
    return this.connections.length;
  }

  /**
   * Reads the next element of `log.entries`.
   * @param body the bytes of its `response.content.text` when the reader kept them instead of the text.
   */
  entry(value: unknown, body?: Uint8Array): void {
    const index = this.connections.length;
    const path = indexPath('log.entries', index);
    const entry = expectObject(value, path);
    const record = readEntry(entry, path, readHead(entry, path), this.timelines?.get(index), index, body);
    if (this.usedIds.has(record.id)) {
      throw new InputError(childPath(path, '_id'), `duplicate connection id ${JSON.stringify(record.id)}`);
    }
    this.usedIds.add(record.id);
    this.connections.push(this.keep(record));
  }

  /** The capture, from the entries read and the rest of `log` (its creator, pages, `_createdAt`, `_observedUntil`). */
  finish(log: JsonObject): Capture {
    const { connections } = this;
    const capture: Capture = {
      tool: readCreator(log),
      createdAt: optNumber(log, '_createdAt', 'log') ?? earliestStart(connections),
      connections,
    };
    const observed = optNumber(log, '_observedUntil', 'log');
    if (observed !== undefined) capture.observedUntil = observed;
    const page = readPage(log);
    if (page) capture.page = page;
    return capture;
  }
}

interface EntryHead {
  startTime: number;
  /** Exact times written by our own export; authoritative when present. */
  exact: boolean;
}

function readHead(entry: JsonObject, path: string): EntryHead {
  const exactStart = optTime(entry, '_startTime', path);
  if (exactStart !== undefined) return { startTime: exactStart, exact: true };
  const iso = reqString(entry, 'startedDateTime', path);
  const startTime = Date.parse(iso);
  if (Number.isNaN(startTime)) {
    throw new InputError(childPath(path, 'startedDateTime'), `not an ISO 8601 date: ${JSON.stringify(iso)}`);
  }
  return { startTime, exact: false };
}

function readEntry(
  entry: JsonObject,
  path: string,
  head: EntryHead,
  timeline: EntryTimeline | undefined,
  index: number,
  keptBody: Uint8Array | undefined,
): ConnectionRecord {
  const request = reqObject(entry, 'request', path);
  const requestPath = childPath(path, 'request');
  const response = optObject(entry, 'response', path);
  const responsePath = childPath(path, 'response');
  const status = response ? optInteger(response, 'status', responsePath) : undefined;
  // HAR writers put 0 when no response arrived; anything else must be an HTTP status.
  if (status !== undefined && status !== 0 && (status < 100 || status > 599))
    throw new InputError(childPath(responsePath, 'status'), `${status} is not an HTTP status (100 to 599; 0: none)`);
  const hasHead = status !== undefined && status > 0;
  checkSizes(request, requestPath);
  if (response) checkSizes(response, responsePath);
  const body = response ? readBody(response, responsePath, keptBody) : new Uint8Array(0);
  const times = readTimes(entry, path, head, hasHead, timeline);
  // DevTools writes `_error`, Playwright `_failureText`.
  const error = response
    ? (optString(response, '_error', responsePath) ?? optString(response, '_failureText', responsePath))
    : undefined;
  const postData = optObject(request, 'postData', requestPath);
  const record: ConnectionRecord = {
    id: optString(entry, '_id', path) ?? `e${index + 1}`,
    source: readSource(entry),
    method: reqString(request, 'method', requestPath),
    url: reqString(request, 'url', requestPath),
    requestHeaders: readHeaders(request, requestPath),
    startTime: times.startTime,
    chunks: readChunks(entry, path, body, times, timeline),
    end: readEnd(entry, path, timeline, error, hasHead),
  };
  return assignDefined(record, {
    requestBody: postData && optString(postData, 'text', childPath(requestPath, 'postData')),
    status: hasHead ? status : undefined,
    statusText: hasHead && response ? (optString(response, 'statusText', responsePath) ?? '') : undefined,
    responseHeaders: hasHead && response ? readHeaders(response, responsePath) : undefined,
    responseTime: times.responseTime,
    endTime: times.endTime,
    error,
    documentUrl: optString(entry, '_documentUrl', path),
    bodyMissing: bodyDropped(response, hasHead) || undefined,
    chunkTimesUnknown: (body.length > 0 && !hasChunkTimes(entry, timeline)) || undefined,
  });
}

function readSource(entry: JsonObject): RecordSource {
  const source = entry._source;
  return RECORD_SOURCES.find((s) => s === source) ?? 'har';
}

function readHeaders(message: JsonObject, path: string): HttpHeader[] {
  const list = optArray(message, 'headers', path) ?? [];
  const listPath = childPath(path, 'headers');
  return list.map((h, i) => {
    const at = indexPath(listPath, i);
    const o = expectObject(h, at);
    return { name: reqString(o, 'name', at), value: reqString(o, 'value', at) };
  });
}

/**
 * A response the HAR has no body for, though it had one: an event stream (DevTools and Playwright drop the bodies of
 * cut and aborted streams) or a size above 0. A body-less 202 or 204 has neither.
 */
function bodyDropped(response: JsonObject | undefined, hasHead: boolean): boolean {
  const content = response && isJsonObject(response.content) ? response.content : undefined;
  if (!hasHead || !content || typeof content.text === 'string') return false;
  const mime = typeof content.mimeType === 'string' ? content.mimeType : '';
  const header = (Array.isArray(response?.headers) ? response.headers : []).some(
    (h) =>
      isJsonObject(h) &&
      typeof h.name === 'string' &&
      h.name.toLowerCase() === 'content-type' &&
      typeof h.value === 'string' &&
      h.value.toLowerCase().includes('text/event-stream'),
  );
  const size = typeof content.size === 'number' ? content.size : 0;
  return header || mime.toLowerCase().includes('text/event-stream') || size > 0;
}

/**
 * The response body bytes: content.text as UTF-8, or decoded when `encoding: "base64"`.
 * @param kept content.text's UTF-8 bytes, when the reader kept them in place of the text (which is then '').
 */
function readBody(response: JsonObject, path: string, kept: Uint8Array | undefined): Uint8Array {
  const content = optObject(response, 'content', path);
  if (!content) return new Uint8Array(0);
  const contentPath = childPath(path, 'content');
  const text = optString(content, 'text', contentPath);
  if (text === undefined) {
    // Playwright's recordHar `content: 'attach'` keeps bodies outside the HAR: say so rather than read nothing.
    const file = content._file;
    if (typeof file === 'string') {
      throw new InputError(
        childPath(contentPath, '_file'),
        `the body is in a separate file (${JSON.stringify(file)}); record the HAR with embedded content`,
      );
    }
    return new Uint8Array(0);
  }
  // The bytes stand for the text only where the text is their placeholder.
  if (text !== '') kept = undefined;
  const encoding = optString(content, 'encoding', contentPath);
  if (encoding === undefined || encoding === '') return kept ?? encodeUtf8(text);
  if (encoding.toLowerCase() === 'base64') {
    return decodeBase64At(kept ? new TextDecoder().decode(kept) : text, childPath(contentPath, 'text'));
  }
  const problem = `unsupported encoding ${JSON.stringify(encoding)} (only "base64")`;
  throw new InputError(childPath(contentPath, 'encoding'), problem);
}

/** HAR 1.2's timing phases. */
const TIMING_KEYS = ['blocked', 'dns', 'connect', 'send', 'wait', 'receive', 'ssl'] as const;

/** The sizes a HAR message and its content state: whole numbers, 0 or more, or -1 for unknown. */
function checkSizes(message: JsonObject, path: string): void {
  optSize(message, 'headersSize', path);
  optSize(message, 'bodySize', path);
  const content = optObject(message, 'content', path);
  if (content) optSize(content, 'size', childPath(path, 'content'));
}

interface Times {
  startTime: number;
  responseTime?: number;
  endTime?: number;
}

function readTimes(
  entry: JsonObject,
  path: string,
  head: EntryHead,
  hasHead: boolean,
  timeline: EntryTimeline | undefined,
): Times {
  let times: Times;
  if (head.exact) {
    times = {
      startTime: head.startTime,
      responseTime: optTime(entry, '_responseTime', path),
      endTime: optTime(entry, '_endTime', path),
    };
  } else {
    // Every duration is checked where it is written; their sum must still end within a Date's range.
    optDuration(entry, 'time', path);
    const timings = optObject(entry, 'timings', path);
    const timingsPath = childPath(path, 'timings');
    for (const key of TIMING_KEYS) if (timings) optDuration(timings, key, timingsPath);
    times = harTimes(entry, head.startTime, hasHead, isOpenState(entry._streamState));
    if (times.endTime !== undefined) checkTime(times.endTime, childPath(path, 'time'), 'the end it gives');
    if (times.responseTime !== undefined)
      checkTime(times.responseTime, timingsPath, 'the response time its phases give');
  }
  if (timeline) {
    times = {
      startTime: timeline.startTime ?? times.startTime,
      responseTime: hasHead ? (timeline.responseTime ?? times.responseTime) : undefined,
      endTime: timeline.endTime ?? times.endTime,
    };
  }
  return times;
}

/**
 * Standard HAR timing: the response head arrives after blocked + dns + connect + send + wait (each
 * counted only when >= 0, since -1 means "does not apply"; ssl is part of connect); the body ends at
 * start + time. Missing or negative totals fall back to the phases that are known.
 */
function harTimes(entry: JsonObject, start: number, hasHead: boolean, open: boolean): Times {
  const timings = isJsonObject(entry.timings) ? entry.timings : {};
  const phase = (key: string): number => {
    const v = timings[key];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
  };
  const toHead = phase('blocked') + phase('dns') + phase('connect') + phase('send') + phase('wait');
  const responseTime = hasHead ? start + toHead : undefined;
  if (open) return { startTime: start, responseTime };
  const total = entry.time;
  const fromTotal = typeof total === 'number' && Number.isFinite(total) && total >= 0 ? start + total : undefined;
  const fromPhases = start + toHead + phase('receive');
  const endTime = Math.max(fromTotal ?? fromPhases, responseTime ?? start);
  return { startTime: start, responseTime, endTime };
}

function isOpenState(state: unknown): boolean {
  return typeof state === 'string' && endReasonFromStreamState(state) === 'open';
}

function readEnd(
  entry: JsonObject,
  path: string,
  timeline: EntryTimeline | undefined,
  error: string | undefined,
  hasHead: boolean,
): EndReason {
  const state = optString(entry, '_streamState', path);
  const fromState = state === undefined ? undefined : endReasonFromStreamState(state);
  if (fromState) return fromState;
  if (timeline?.end) return timeline.end;
  if (error !== undefined) return /abort|cancel/i.test(error) ? 'aborted' : 'network-error';
  return hasHead ? 'complete' : 'network-error';
}

/** Our own `_chunks`, or the chunks.ndjson companion's records, say when each byte came; a plain HAR does not. */
function hasChunkTimes(entry: JsonObject, timeline: EntryTimeline | undefined): boolean {
  return entry._chunks !== undefined || (timeline !== undefined && timeline.chunks.length > 0);
}

/**
 * Splits the body into chunks: by our own `_chunks` field, else by the companion's records, else
 * as one chunk at the end of the response (all a plain HAR can say).
 */
function readChunks(
  entry: JsonObject,
  path: string,
  body: Uint8Array,
  times: Times,
  timeline: EntryTimeline | undefined,
): BodyChunk[] {
  const own = optArray(entry, '_chunks', path);
  if (own) {
    const listPath = childPath(path, '_chunks');
    const slices = own.map((c, i) => {
      const at = indexPath(listPath, i);
      const o = expectObject(c, at);
      const t = reqNumber(o, 't', at);
      return { t, offset: readCount(o, 'offset', at), length: readCount(o, 'length', at), path: at };
    });
    return sliceBody(body, slices, listPath);
  }
  if (timeline && (timeline.chunks.length > 0 || body.length === 0)) {
    return sliceBody(body, timeline.chunks, timeline.chunks.at(-1)?.path ?? path);
  }
  if (body.length === 0) return [];
  return [{ t: times.endTime ?? times.responseTime ?? times.startTime, bytes: body }];
}

function readCount(o: JsonObject, key: string, path: string): number {
  const v = optInteger(o, key, path);
  if (v === undefined || v < 0) throw new InputError(childPath(path, key), 'expected a non-negative integer');
  return v;
}

/** Cuts the body at the recorded slices; they must be contiguous from 0 and cover it exactly. */
function sliceBody(body: Uint8Array, slices: readonly TimedSlice[], wholePath: string): BodyChunk[] {
  let expected = 0;
  const chunks = slices.map((s) => {
    if (s.offset !== expected) {
      const problem = `expected offset ${expected}: chunks must be contiguous from 0`;
      throw new InputError(childPath(s.path, 'offset'), problem);
    }
    expected += s.length;
    if (expected > body.length) {
      throw new InputError(s.path, `chunk ends at byte ${expected} but the response body has ${body.length} bytes`);
    }
    return { t: s.t, bytes: body.subarray(s.offset, expected) };
  });
  if (expected !== body.length) {
    throw new InputError(wholePath, `chunks cover ${expected} bytes but the response body has ${body.length}`);
  }
  return chunks;
}

function readCreator(log: JsonObject): Capture['tool'] {
  const creator = optObject(log, 'creator', 'log');
  if (!creator) return { name: 'unknown', version: '' };
  return {
    name: optString(creator, 'name', 'log.creator') ?? 'unknown',
    version: optString(creator, 'version', 'log.creator') ?? '',
  };
}

/**
 * The first page. Browsers write the page URL as its title; our export adds `_url`, so a title that
 * differs from `_url` is a real title.
 */
function readPage(log: JsonObject): Capture['page'] {
  const pages = optArray(log, 'pages', 'log');
  const first = pages?.[0];
  if (first === undefined) return undefined;
  const page = expectObject(first, 'log.pages[0]');
  const title = optString(page, 'title', 'log.pages[0]');
  const url = optString(page, '_url', 'log.pages[0]');
  if (url === undefined) return title === undefined ? undefined : { url: title };
  return title !== undefined && title !== url ? { url, title } : { url };
}

function earliestStart(connections: ConnectionRecord[]): number {
  let min = Infinity;
  for (const c of connections) min = Math.min(min, c.startTime);
  return Number.isFinite(min) ? min : 0;
}
