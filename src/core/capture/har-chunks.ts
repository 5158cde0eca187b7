// Runs anywhere (pure core): reads the chunks.ndjson companion of a HAR (per-chunk times and byte
// offsets, one JSON record a line, `entry` = 1-based HAR entry index) into per-entry timelines.
import type { EndReason } from './model';
import { childPath, InputError } from './errors';
import { expectObject, optNumber, optString, reqInteger, reqString, type JsonObject } from './read';
import { parseJsonText } from './text';

export interface TimedSlice {
  t: number;
  offset: number;
  length: number;
  /** Where it was declared (for error messages), e.g. "line 12". */
  path: string;
}

/** What the companion says about one HAR entry; times are epoch ms. */
export interface EntryTimeline {
  startTime?: number;
  responseTime?: number;
  endTime?: number;
  end?: EndReason;
  chunks: TimedSlice[];
}

/**
 * Parses the companion. Records carry `t` (ISO, ms) and usually `tMs` (a finer monotonic clock);
 * `tMs` is mapped onto wall-clock time through the first request record, anchored at its entry's
 * `startedDateTime`, so every time shares one clock with sub-millisecond order preserved.
 */
export function parseChunkTimeline(text: string, entryStartTimes: readonly number[]): Map<number, EntryTimeline> {
  const records = parseLines(text);
  const anchor = clockAnchor(records, entryStartTimes);
  const timelines = new Map<number, EntryTimeline>();
  for (const { record, path } of records) {
    const type = reqString(record, 'type', path);
    if (!KNOWN_TYPES.has(type)) continue; // later companion versions may add record types
    const entry = reqInteger(record, 'entry', path);
    if (entry < 1 || entry > entryStartTimes.length) {
      throw new InputError(
        childPath(path, 'entry'),
        `entry ${entry} does not exist (the HAR has ${entryStartTimes.length} entries)`,
      );
    }
    let timeline = timelines.get(entry - 1);
    if (!timeline) {
      timeline = { chunks: [] };
      timelines.set(entry - 1, timeline);
    }
    const t = recordTime(record, path, anchor);
    if (type === 'request') timeline.startTime = t;
    else if (type === 'response-headers') timeline.responseTime = t;
    else if (type === 'end') {
      timeline.endTime = t;
      const reason = optString(record, 'reason', path);
      if (reason !== undefined) timeline.end = endReasonFromStreamState(reason);
    } else {
      const offset = reqInteger(record, 'offset', path);
      const length = reqInteger(record, 'length', path);
      if (offset < 0) throw new InputError(childPath(path, 'offset'), 'must not be negative');
      if (length < 0) throw new InputError(childPath(path, 'length'), 'must not be negative');
      timeline.chunks.push({ t, offset, length, path });
    }
  }
  return timelines;
}

const KNOWN_TYPES = new Set(['request', 'response-headers', 'chunk', 'end']);

interface NdjsonRecord {
  record: JsonObject;
  path: string;
}

function parseLines(text: string): NdjsonRecord[] {
  const out: NdjsonRecord[] = [];
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    if (line.trim() === '') continue;
    const path = `line ${lineNo}`;
    out.push({ record: expectObject(parseJsonText(line, path), path), path });
  }
  return out;
}

/** Offset to add to `tMs` to get epoch ms, or undefined when records carry no `tMs`. */
function clockAnchor(records: readonly NdjsonRecord[], entryStartTimes: readonly number[]): number | undefined {
  for (const { record, path } of records) {
    const tMs = optNumber(record, 'tMs', path);
    if (tMs === undefined) continue;
    const entry = record.entry;
    const start = typeof entry === 'number' ? entryStartTimes[entry - 1] : undefined;
    if (record.type === 'request' && start !== undefined) return start - tMs;
  }
  for (const { record, path } of records) {
    const tMs = optNumber(record, 'tMs', path);
    const iso = optString(record, 't', path);
    const wall = iso === undefined ? NaN : Date.parse(iso);
    if (tMs !== undefined && !Number.isNaN(wall)) return wall - tMs;
  }
  return undefined;
}

function recordTime(record: JsonObject, path: string, anchor: number | undefined): number {
  const tMs = optNumber(record, 'tMs', path);
  if (tMs !== undefined && anchor !== undefined) return tMs + anchor;
  const iso = reqString(record, 't', path);
  const wall = Date.parse(iso);
  if (Number.isNaN(wall)) throw new InputError(childPath(path, 't'), `not an ISO 8601 date: ${JSON.stringify(iso)}`);
  return wall;
}

/**
 * Maps a recorder's stream state to an end reason. Known spellings from HAR writers and our own
 * companion; anything else is undefined (the caller falls back to the response's own evidence).
 */
export function endReasonFromStreamState(state: string): EndReason | undefined {
  switch (state.toLowerCase()) {
    case 'complete':
    case 'completed':
    case 'finished':
      return 'complete';
    case 'failed':
    case 'error':
    case 'network-error':
      return 'network-error';
    case 'aborted':
    case 'canceled':
    case 'cancelled':
      return 'aborted';
    case 'open':
    case 'pending':
    case 'streaming':
      return 'open';
    default:
      return undefined;
  }
}
