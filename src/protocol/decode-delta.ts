// Runs anywhere (pure): the decoder of one ConnectionDelta, shared by every hop that receives deltas.
import { LIMITS, bytes, fail, headers, integer, list, optionalText, record, text, time } from './decode-fields';
import { parcelBytes } from './parcel';
import type { CaptureGap, ConnectionDelta, FaultMark, Parcel, ParcelDelta, WireConnectionStart } from './records';

export interface DeltaRules {
  /** Connection ids as this hop may see them. */
  id: RegExp;
  idChars: number;
}

// No '.' from a page: the background scopes subframe ids as `f<frameId>.<id>`, and the top frame must not pose as one.
const PAGE_ID = /^[\w:-]+$/;

/** What a tap (page -> bridge) or a bridge (-> background) may send: unscoped ids. */
export const FROM_PAGE: DeltaRules = { id: PAGE_ID, idChars: LIMITS.idChars };
/** Background -> panel: subframe ids scoped as `f<frameId>.<id>`. */
export const FROM_BACKGROUND: DeltaRules = { id: /^(?:f\d+\.)?[\w:-]+$/, idChars: LIMITS.idChars + 16 };

const METHOD = /^[A-Za-z-]{1,32}$/;
const END_REASONS = new Set(['complete', 'aborted', 'network-error']);
/** A page tap records fetch and EventSource only; 'har' and 'raw' come from files, never from a page. */
const SOURCES = new Set(['fetch', 'eventsource']);

function id(value: unknown, rules: DeltaRules): string {
  const s = text(value, rules.idChars, 'id');
  if (!rules.id.test(s)) fail('id');
  return s;
}

function start(value: unknown, rules: DeltaRules): WireConnectionStart {
  const c = record(value, 'conn');
  const source = text(c.source, 16, 'source');
  if (!SOURCES.has(source)) fail('source');
  const method = text(c.method, 32, 'method');
  if (!METHOD.test(method)) fail('method');
  const requestBody = optionalText(c.requestBody, LIMITS.bodyChars, 'requestBody');
  const documentUrl = optionalText(c.documentUrl, LIMITS.urlChars, 'documentUrl');
  if (c.withCredentials !== undefined && typeof c.withCredentials !== 'boolean') fail('withCredentials');
  return {
    id: id(c.id, rules),
    source: source as WireConnectionStart['source'],
    method,
    url: text(c.url, LIMITS.urlChars, 'url'),
    requestHeaders: headers(c.requestHeaders),
    ...(requestBody !== undefined ? { requestBody } : {}),
    startTime: time(c.startTime, 'startTime'),
    ...(documentUrl !== undefined ? { documentUrl } : {}),
    ...(typeof c.withCredentials === 'boolean' ? { withCredentials: c.withCredentials } : {}),
  };
}

export function decodeDelta(value: unknown, rules: DeltaRules): ConnectionDelta {
  const d = record(value, 'delta');
  switch (d.kind) {
    case 'start':
      return { kind: 'start', conn: start(d.conn, rules) };
    case 'response':
      return {
        kind: 'response',
        id: id(d.id, rules),
        status: integer(d.status, 0, 999, 'status'),
        statusText: text(d.statusText, LIMITS.textChars, 'statusText'),
        responseHeaders: headers(d.responseHeaders),
        responseTime: time(d.responseTime, 'responseTime'),
      };
    case 'chunk':
      return {
        kind: 'chunk',
        id: id(d.id, rules),
        t: time(d.t, 't'),
        bytes: bytes(d.bytes, LIMITS.chunkBytes, 'bytes'),
      };
    case 'end': {
      const end = text(d.end, 16, 'end');
      if (!END_REASONS.has(end)) fail('end');
      const error = optionalText(d.error, LIMITS.textChars, 'error');
      return {
        kind: 'end',
        id: id(d.id, rules),
        end: end as 'complete' | 'aborted' | 'network-error',
        endTime: time(d.endTime, 'endTime'),
        ...(error !== undefined ? { error } : {}),
      };
    }
    case 'fault':
      return { kind: 'fault', id: id(d.id, rules), mark: faultMark(d.mark) };
    case 'gap':
      return { kind: 'gap', id: id(d.id, rules), gap: gap(d.gap) };
    default:
      return fail('kind');
  }
}

function faultMark(value: unknown): FaultMark {
  const m = record(value, 'mark');
  return {
    t: time(m.t, 't'),
    arm: text(m.arm, 32, 'arm'),
    fault: text(m.fault, 64, 'fault'),
    action: text(m.action, 32, 'action'),
    offset: integer(m.offset, 0, Number.MAX_SAFE_INTEGER, 'offset'),
    note: text(m.note, LIMITS.textChars, 'note'),
  };
}

const GAP_CAUSES = new Set(['evicted', 'unacknowledged']);

function gap(value: unknown): CaptureGap {
  const g = record(value, 'gap');
  const cause = text(g.cause, 16, 'cause');
  if (!GAP_CAUSES.has(cause)) fail('cause');
  return {
    offset: integer(g.offset, 0, Number.MAX_SAFE_INTEGER, 'offset'),
    bytes: integer(g.bytes, 1, Number.MAX_SAFE_INTEGER, 'bytes'),
    t: time(g.t, 't'),
    cause: cause as CaptureGap['cause'],
  };
}

/** A delta of a parcel: a chunk says how many of the parcel's bytes are its own, in order. */
export function decodeParcelDelta(value: unknown, rules: DeltaRules): ParcelDelta {
  const d = record(value, 'delta');
  if (d.kind !== 'chunk') return decodeDelta(value, rules) as ParcelDelta;
  return { kind: 'chunk', id: id(d.id, rules), t: time(d.t, 't'), size: integer(d.size, 1, LIMITS.chunkBytes, 'size') };
}

/** Heads per parcel at most (a snapshot of a whole buffer is one parcel). */
const MAX_PARCEL_DELTAS = 200_000;

/** A parcel: checked heads, and a Blob exactly as big as its chunks say. */
export function decodeParcel(value: unknown, rules: DeltaRules): Parcel {
  const p = record(value, 'parcel');
  const deltas = list(p.deltas, MAX_PARCEL_DELTAS, 'deltas').map((d) => decodeParcelDelta(d, rules));
  if (!(p.bytes instanceof Blob) || p.bytes.size !== parcelBytes(deltas)) fail('parcel bytes');
  return { deltas, bytes: p.bytes };
}
