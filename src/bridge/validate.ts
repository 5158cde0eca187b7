// Isolated world (pure): checks what the page posted. A page can post anything, so nothing is trusted: every field
// is type- and size-checked and copied into a fresh object; anything off rejects the whole message.
import type { TapToBridge } from '../protocol/messages';
import type { ConnectionDelta, HttpHeader, WireConnectionStart } from '../protocol/records';
import { TAP_SOURCE } from '../protocol/events';

export const LIMITS = {
  /** Characters of one event detail (JSON) before it is even parsed. */
  detailChars: 64 * 1024 * 1024,
  deltas: 20_000,
  idChars: 128,
  urlChars: 64 * 1024,
  headers: 256,
  headerNameChars: 256,
  headerValueChars: 16 * 1024,
  bodyChars: 1024 * 1024,
  textChars: 4 * 1024,
  b64Chars: 48 * 1024 * 1024,
} as const;

// No '.': the background scopes subframe ids as `f<frameId>.<id>`, and the top frame must not pose as one.
const ID = /^[\w:-]+$/;
const METHOD = /^[A-Za-z-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const END_REASONS = new Set(['complete', 'aborted', 'network-error']);
/** A page tap records fetch and EventSource only; 'har' and 'raw' come from files, never from a page. */
const SOURCES = new Set(['fetch', 'eventsource']);

class Invalid extends Error {}

function fail(what: string): never {
  throw new Invalid(what);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(what);
  return value as Record<string, unknown>;
}

function text(value: unknown, max: number, what: string): string {
  if (typeof value !== 'string' || value.length > max) fail(what);
  return value;
}

function optionalText(value: unknown, max: number, what: string): string | undefined {
  return value === undefined ? undefined : text(value, max, what);
}

function id(value: unknown): string {
  const s = text(value, LIMITS.idChars, 'id');
  if (!ID.test(s)) fail('id');
  return s;
}

/** Epoch milliseconds within a sane range (1970 .. 5138). */
function time(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1e14) fail(what);
  return value;
}

function headers(value: unknown): HttpHeader[] {
  if (!Array.isArray(value) || value.length > LIMITS.headers) fail('headers');
  return value.map((h) => {
    const o = record(h, 'header');
    return {
      name: text(o.name, LIMITS.headerNameChars, 'header name'),
      value: text(o.value, LIMITS.headerValueChars, 'header value'),
    };
  });
}

function start(value: unknown): WireConnectionStart {
  const c = record(value, 'conn');
  const source = text(c.source, 16, 'source');
  if (!SOURCES.has(source)) fail('source');
  const method = text(c.method, 32, 'method');
  if (!METHOD.test(method)) fail('method');
  const requestBody = optionalText(c.requestBody, LIMITS.bodyChars, 'requestBody');
  const documentUrl = optionalText(c.documentUrl, LIMITS.urlChars, 'documentUrl');
  if (c.withCredentials !== undefined && typeof c.withCredentials !== 'boolean') fail('withCredentials');
  return {
    id: id(c.id),
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

function delta(value: unknown): ConnectionDelta {
  const d = record(value, 'delta');
  switch (d.kind) {
    case 'start':
      return { kind: 'start', conn: start(d.conn) };
    case 'response': {
      const status = d.status;
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 999) fail('status');
      return {
        kind: 'response',
        id: id(d.id),
        status,
        statusText: text(d.statusText, LIMITS.textChars, 'statusText'),
        responseHeaders: headers(d.responseHeaders),
        responseTime: time(d.responseTime, 'responseTime'),
      };
    }
    case 'chunk': {
      const b64 = text(d.b64, LIMITS.b64Chars, 'b64');
      if (b64.length === 0 || b64.length % 4 !== 0 || !BASE64.test(b64)) fail('b64');
      return { kind: 'chunk', id: id(d.id), t: time(d.t, 't'), b64 };
    }
    case 'end': {
      const end = text(d.end, 16, 'end');
      if (!END_REASONS.has(end)) fail('end');
      const error = optionalText(d.error, LIMITS.textChars, 'error');
      return {
        kind: 'end',
        id: id(d.id),
        end: end as 'complete' | 'aborted' | 'network-error',
        endTime: time(d.endTime, 'endTime'),
        ...(error !== undefined ? { error } : {}),
      };
    }
    default:
      return fail('kind');
  }
}

/** The message, rebuilt from checked fields only, or null when anything is off. */
export function validateTapMessage(value: unknown): TapToBridge | null {
  try {
    const m = record(value, 'message');
    if (m.source !== TAP_SOURCE) return null;
    const instance = text(m.instance, 64, 'instance');
    if (!Array.isArray(m.deltas) || m.deltas.length > LIMITS.deltas) return null;
    return { source: TAP_SOURCE, instance, deltas: m.deltas.map(delta) };
  } catch (error) {
    if (error instanceof Invalid) return null;
    throw error;
  }
}

/** A tap event's detail: a JSON string within the size limit, holding a valid message. */
export function parseTapDetail(detail: unknown): TapToBridge | null {
  if (typeof detail !== 'string' || detail.length > LIMITS.detailChars) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return null;
  }
  return validateTapMessage(parsed);
}
