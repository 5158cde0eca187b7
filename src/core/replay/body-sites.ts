// Runs anywhere (pure core): what a replay must know of a recorded response body before playing it to another
// client: the JSON-RPC ids in it (json-sites.ts), where a 2024-11-05 `endpoint` event names an absolute URL (its
// origin must become the replay's), and where each complete SSE event ends with its id (a resume from that id
// continues after it).
import { TextDecoder } from '../web/globals';
import { findIdSites, type IdSite, type Span } from './json-sites';

/** A complete SSE frame: where it ends (after its blank line), and the id it set, if any. */
export interface FrameEnd {
  end: number;
  id?: string;
}

export interface BodySites {
  ids: IdSite[];
  /** The `scheme://host:port` part of absolute URLs in `endpoint` events. */
  endpointOrigins: Span[];
  /** Every complete frame, in body order. */
  frames: FrameEnd[];
}

const utf8 = new TextDecoder();
const LF = 0x0a;
const CR = 0x0d;

/** Scans a body as an event stream (SSE) or, for any other type, as one JSON-RPC message or batch. */
export function scanBody(bytes: Uint8Array, eventStream: boolean): BodySites {
  if (!eventStream) return { ids: findIdSites(bytes, 0, bytes.length), endpointOrigins: [], frames: [] };
  const sites: BodySites = { ids: [], endpointOrigins: [], frames: [] };
  let event: string | undefined;
  let id: string | undefined;
  let data: Span[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    let stop = pos;
    while (stop < bytes.length && bytes[stop] !== LF && bytes[stop] !== CR) stop += 1;
    const complete = stop < bytes.length;
    const next = !complete ? stop : bytes[stop] === CR && bytes[stop + 1] === LF ? stop + 2 : stop + 1;
    if (stop === pos && complete) {
      // A blank line ends the frame.
      sites.frames.push({ end: next, ...(id !== undefined && { id }) });
      if (event === 'endpoint') sites.endpointOrigins.push(...data.flatMap((span) => absoluteOrigin(bytes, span)));
      event = undefined;
      id = undefined;
      data = [];
    } else {
      const field = fieldOf(bytes, pos, stop);
      if (field.name === 'data') {
        data.push(field.value);
        sites.ids.push(...findIdSites(bytes, field.value.start, field.value.end));
      } else if (field.name === 'event' && complete) event = text(bytes, field.value);
      else if (field.name === 'id' && complete) id = text(bytes, field.value);
    }
    pos = next;
  }
  return sites;
}

function fieldOf(bytes: Uint8Array, start: number, end: number): { name: string; value: Span } {
  let colon = start;
  while (colon < end && bytes[colon] !== 0x3a) colon += 1;
  const name = text(bytes, { start, end: colon });
  let valueStart = Math.min(colon + 1, end);
  if (bytes[valueStart] === 0x20 && valueStart < end) valueStart += 1;
  return { name, value: { start: valueStart, end } };
}

function text(bytes: Uint8Array, span: Span): string {
  return utf8.decode(bytes.subarray(span.start, span.end));
}

/** The origin of an absolute http(s) URL that a data value holds whole. */
function absoluteOrigin(bytes: Uint8Array, span: Span): Span[] {
  const match = /^https?:\/\/[^/?#\s]+/i.exec(text(bytes, span));
  // The URL is ASCII up to its path: its characters are its bytes.
  return match ? [{ start: span.start, end: span.start + match[0].length }] : [];
}
