// Runs anywhere (pure core): a capture read as a replay script: each recorded exchange with what matching reads
// of its request, its response head, its body as one byte array with the recorded chunk boundaries and times
// (relative to the response head), how it ended, and the ids and URLs in it that a replay may rewrite.
import { concatBytes } from '../capture/bytes';
import { headerValue } from '../capture/headers';
import type { Capture, ConnectionRecord, EndReason, HttpHeader } from '../capture/model';
import { pathAndQuery } from '../fault/legacy-sse';
import { TextDecoder } from '../web/globals';
import { type BodySites, scanBody } from './body-sites';
import { type RequestShape, shapeOf } from './request-shape';

/** One recorded chunk: where it ends in the body, and when it came, in ms after the response head. */
export interface RecordedChunk {
  end: number;
  atMs: number;
}

export interface RecordedExchange {
  /** The connection's id in the capture. */
  id: string;
  /** Position in the capture (requests in the order they started). */
  order: number;
  shape: RequestShape;
  /** The session this exchange belongs to, for ids: the one its request named, or the one its answer issued. */
  conversation: string;
  /** Epoch ms the request started. */
  startTime: number;
  /**
   * Absent when no head arrived: after a network error the replay cuts the connection at once; where the client left
   * first (`aborted`, or `open` when the capture was taken), it holds the request unanswered until the client leaves.
   */
  status?: number;
  statusText: string;
  headers: HttpHeader[];
  /** Ms from the request to the response head. */
  headDelayMs: number;
  body: Uint8Array;
  chunks: RecordedChunk[];
  /** Ms from the response head to the end (absent while open). */
  endAtMs?: number;
  end: EndReason;
  /** The file had no body for this response (DevTools HARs drop cut streams' bodies): played head and end only. */
  bodyMissing: boolean;
  eventStream: boolean;
  sites: BodySites;
}

export interface ReplayScript {
  exchanges: RecordedExchange[];
  /** The exchanges whose body the input did not hold, for the replay to say so before it starts. */
  missingBodies: RecordedExchange[];
}

/** Headers a replay never sends as recorded: hop-by-hop, and the length and encoding of a body it re-frames. */
const DROPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
]);

/** Reads a capture as a replay script; requests keep the order they started in. */
export function replayScript(capture: Capture): ReplayScript {
  const records = [...capture.connections].sort((a, b) => a.startTime - b.startTime);
  const exchanges = records.map((record, order) => recordedExchange(record, order));
  return { exchanges, missingBodies: exchanges.filter((e) => e.bodyMissing) };
}

function recordedExchange(record: ConnectionRecord, order: number): RecordedExchange {
  const path = pathAndQuery(record.url, '/');
  const shape = shapeOf(record.method, path, record.requestHeaders, record.requestBody);
  const headTime = record.responseTime ?? record.startTime;
  const body = bodyOf(record.chunks.map((c) => c.bytes));
  let end = 0;
  const chunks = record.chunks.map((c): RecordedChunk => {
    end += c.bytes.length;
    return { end, atMs: Math.max(0, c.t - headTime) };
  });
  const lag = writtenWithHead(record) ? (chunks[0]?.atMs ?? 0) : 0;
  if (lag > 0) for (const chunk of chunks) chunk.atMs = Math.max(0, chunk.atMs - lag);
  const endAtMs = record.endTime === undefined ? undefined : Math.max(0, record.endTime - headTime - lag);
  const eventStream = /text\/event-stream/i.test(headerValue(record.responseHeaders, 'content-type') ?? '');
  const sites = scanBody(body, eventStream);
  const issued = headerValue(record.responseHeaders, 'mcp-session-id');
  return {
    id: record.id,
    order,
    shape,
    conversation: shape.session ?? issued ?? legacyEndpointSession(body, sites) ?? '',
    startTime: record.startTime,
    ...(record.status !== undefined && { status: record.status }),
    statusText: record.statusText ?? '',
    headers: (record.responseHeaders ?? []).filter((h) => !DROPPED_HEADERS.has(h.name.toLowerCase())),
    headDelayMs: Math.max(0, headTime - record.startTime),
    body,
    chunks,
    ...(endAtMs !== undefined && { endAtMs }),
    end: record.end,
    bodyMissing: record.bodyMissing === true,
    eventStream,
    sites,
  };
}

/**
 * The response declared a Content-Length that its first chunk fills: the server had the whole body when it wrote the
 * head (`res.end(json)`, one write). A recorder between them (a proxy forwarding the head, then the body) may stamp the
 * body some ms later; played that late, a client that cancels the body at the head (the SDKs on a `404` GET) would
 * leave before it, where the recorded one was sent the body with the head. Such a body is played with its head.
 */
function writtenWithHead(record: ConnectionRecord): boolean {
  const declared = headerValue(record.responseHeaders, 'content-length');
  const first = record.chunks[0];
  return first !== undefined && declared !== undefined && Number(declared) === first.bytes.length;
}

/**
 * The chunks as one body. Chunks that lie end to end in one buffer (a capture cut from one body, as a HAR's chunks
 * are split from its text, or a bench's) are that buffer's view: no copy of a long stream, and the bytes sent are the
 * capture's own (fresh copies cost the kernel more to send: ~150 ms of system time per 64 MB here, measured).
 */
function bodyOf(chunks: readonly Uint8Array[]): Uint8Array {
  const first = chunks[0];
  if (!first) return new Uint8Array(0);
  let end = first.byteOffset;
  for (const chunk of chunks) {
    if (chunk.buffer !== first.buffer || chunk.byteOffset !== end) return concatBytes(chunks);
    end += chunk.byteLength;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}

/** A 2024-11-05 GET stream belongs to the session its `endpoint` event names (`/messages?sessionId=...`). */
function legacyEndpointSession(body: Uint8Array, sites: BodySites): string | undefined {
  if (sites.frames.length === 0) return undefined;
  const first = new TextDecoder().decode(body.subarray(0, sites.frames[0]?.end ?? 0));
  if (!/^event: ?endpoint\r?$/m.test(first)) return undefined;
  const data = /^data: ?(.*?)\r?$/m.exec(first)?.[1];
  return data === undefined ? undefined : shapeOf('POST', pathAndQuery(data, '/'), []).session;
}
