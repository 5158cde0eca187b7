// Runs anywhere (pure core): the MCP Inspector 2.x relay, decoded. Its web UI does not talk MCP itself: its backend
// runs the MCP client in Node and reports every fetch it makes to the MCP server on the UI's `/api/mcp/events` SSE
// stream (docs/relayed-traffic.md). This file turns those reports back into the exchanges they describe, so the
// backend's MCP traffic becomes sessions of what it is, marked relayed: the bytes the backend read are not visible.
import type { BodyChunk, ConnectionRecord, HttpHeader } from '../capture/model';
import { headerValue, mediaType } from '../mcp/headers';
import { parseMessages } from '../mcp/jsonrpc';
import { encodeUtf8 } from '../capture/text';
import { SseParser } from '../sse/parser';
import { isInspectorEvents } from '../capture/redact/relay';
import type { RelayOrigin } from './types';

/** The exchanges decoded from the relays in a capture, and which relay each came through (by record id). */
export interface RelayedRecords {
  records: ConnectionRecord[];
  origins: Map<string, RelayOrigin>;
  /**
   * Resumption GETs (record id) and the POST whose stream each continues (record id): the relayed POST carries no
   * event ids (its body never came), so the cursor cannot find it; the messages the decoder placed on the GET as
   * the rest of that POST's answer say which stream it resumed.
   */
  resumed: Map<string, string>;
}

/** One envelope as the backend wrote it: `{"type": ..., "data": ...}`, with the time its chunk arrived. */
interface Envelope {
  type: string;
  data: Record<string, unknown>;
  t: number;
}

/** What a `fetch_request` report says (the Inspector's fetch tracker entry, its timestamp an ISO string). */
interface Reported {
  record: ConnectionRecord;
  /** Still to come: the body the backend read (`fetch_request_body_update`), for bounded responses. */
  awaitsBody: boolean;
  /** Messages of its body, as canonical JSON, not yet matched with a relayed `message` envelope. */
  bodyMessages: string[];
  /** The request ids its body sent. */
  requestIds: string[];
  /** The progress tokens its requests asked for (`_meta.progressToken`), as JSON. */
  progressTokens: string[];
  /** When the backend reported a long-lived stream closed (epoch ms). */
  closedAt?: number;
}

/** A JSON-RPC message the backend received, relayed in a `message` envelope. */
interface Relayed {
  /** Its {@link canonical} form. */
  key: string;
  /** Its JSON as relayed. */
  text: string;
  /** A response's id, as JSON. */
  id?: string;
  /** A progress notification's token, as JSON. */
  progressToken?: string;
  t: number;
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * A message as JSON with its keys sorted: the backend's SDK re-builds each message it parses (its schemas order the
 * keys), so the relayed copy and the one in a reported body are compared by content, not by spelling.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const object = asObject(value);
  if (!object) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(object)
    .filter((k) => object[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(object[k])}`).join(',')}}`;
}

function envelopesOf(record: ConnectionRecord): Envelope[] {
  const parser = new SseParser();
  const out: Envelope[] = [];
  for (const chunk of record.chunks)
    for (const event of parser.push(chunk.bytes)) {
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch {
        // Not an envelope (a comment-only keep-alive has no event at all; anything else is not the relay's).
        continue;
      }
      const envelope = asObject(value);
      const type = asString(envelope?.type);
      const data = asObject(envelope?.data);
      if (type !== undefined && data !== undefined) out.push({ type, data, t: chunk.t });
    }
  return out;
}

function headersOf(value: unknown): HttpHeader[] {
  const object = asObject(value) ?? {};
  const out: HttpHeader[] = [];
  for (const [name, v] of Object.entries(object)) if (typeof v === 'string') out.push({ name, value: v });
  return out;
}

/** A GET answered with an event stream: the backend never reads its body whole, so no body report comes. */
function longLived(method: string, headers: readonly HttpHeader[]): boolean {
  return method === 'GET' && mediaType(headers) === 'text/event-stream';
}

/** The JSON-RPC messages of a body as the backend read it (a JSON body, or the whole text of an SSE response). */
function messagesOfBody(body: string, headers: readonly HttpHeader[]): string[] {
  const texts: string[] = [];
  if (mediaType(headers) === 'text/event-stream') {
    for (const event of new SseParser().push(encodeUtf8(body))) texts.push(event.data);
  } else texts.push(body);
  const out: string[] = [];
  for (const text of texts) {
    const parsed = parseMessages(text);
    if (parsed.ok) for (const m of parsed.messages) out.push(canonical(m.value));
  }
  return out;
}

/** What a request body asks for: the request ids it sent and the progress tokens they carry, as JSON. */
function asked(body: string | undefined): { requestIds: string[]; progressTokens: string[] } {
  const out = { requestIds: [] as string[], progressTokens: [] as string[] };
  const parsed = body === undefined ? undefined : parseMessages(body);
  if (!parsed?.ok) return out;
  for (const m of parsed.messages) {
    if (m.kind !== 'request' || m.id === undefined) continue;
    out.requestIds.push(JSON.stringify(m.id));
    const token = progressTokenOf(m.value);
    if (token !== undefined) out.progressTokens.push(token);
  }
  return out;
}

/** `params._meta.progressToken` of a request, or `params.progressToken` of a progress notification, as JSON. */
function progressTokenOf(value: unknown): string | undefined {
  const params = asObject(asObject(value)?.params);
  const token = asObject(params?._meta)?.progressToken ?? params?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? JSON.stringify(token) : undefined;
}

function reported(carrier: ConnectionRecord, n: number, env: Envelope): Reported | undefined {
  const { data, t } = env;
  const url = asString(data.url);
  // The fetch tracker's entry always has these: anything else is not its report.
  if (url === undefined || asString(data.id) === undefined || asString(data.timestamp) === undefined) return undefined;
  const method = (asString(data.method) ?? 'GET').toUpperCase();
  const requestHeaders = headersOf(data.requestHeaders);
  const requestBody = asString(data.requestBody);
  const began = Date.parse(asString(data.timestamp) ?? '');
  // The backend's clock stamps the request; the browser's the report. Never let the request start after its report.
  const startTime = Number.isFinite(began) ? Math.min(began, t) : t;
  const record: ConnectionRecord = {
    id: `${carrier.id}~relay${n}`,
    source: carrier.source,
    method,
    url,
    requestHeaders,
    startTime,
    chunks: [],
    end: 'open',
  };
  if (requestBody !== undefined) record.requestBody = requestBody;
  if (carrier.documentUrl !== undefined) record.documentUrl = carrier.documentUrl;
  const error = asString(data.error);
  const status = asNumber(data.responseStatus);
  if (error !== undefined || status === undefined) {
    record.end = 'network-error';
    record.error = error ?? 'the relay reported no response';
    record.endTime = t;
    return { record, awaitsBody: false, bodyMessages: [], ...asked(requestBody) };
  }
  record.status = status;
  const statusText = asString(data.responseStatusText);
  if (statusText !== undefined) record.statusText = statusText;
  record.responseHeaders = headersOf(data.responseHeaders);
  const duration = asNumber(data.duration);
  record.responseTime = duration === undefined ? t : Math.min(startTime + duration, t);
  const awaitsBody = !longLived(method, record.responseHeaders);
  return { record, awaitsBody, bodyMessages: [], ...asked(requestBody) };
}

/** Appends a body the relay reported (or built from relayed messages) as one chunk at `t`. */
function addBody(record: ConnectionRecord, text: string, t: number): void {
  if (text === '') return;
  const chunk: BodyChunk = { t, bytes: encodeUtf8(text) };
  record.chunks.push(chunk);
}

/**
 * The exchanges one `/api/mcp/events` stream reports. A bounded response's body arrives whole in its
 * `fetch_request_body_update`; a `message` envelope carries each JSON-RPC message the backend received, so those
 * not found in any reported body came on a stream whose body the backend never reports (its GET stream), or on a
 * POST whose body report has not come: they are placed there, one `data:` event each.
 */
function decodeCarrier(carrier: ConnectionRecord, decoded: RelayedRecords) {
  const { records, origins } = decoded;
  const byId = new Map<string, Reported>();
  const order: Reported[] = [];
  const relayed: Relayed[] = [];
  for (const env of envelopesOf(carrier)) {
    if (env.type === 'fetch_request') {
      const entry = reported(carrier, order.length + 1, env);
      if (!entry) continue;
      order.push(entry);
      const id = asString(env.data.id);
      if (id !== undefined) byId.set(id, entry);
    } else if (env.type === 'fetch_request_body_update') {
      const entry = byId.get(asString(env.data.id) ?? '');
      const body = asString(env.data.responseBody);
      if (!entry || !entry.awaitsBody || body === undefined) continue;
      entry.awaitsBody = false;
      addBody(entry.record, body, env.t);
      entry.record.end = 'complete';
      entry.record.endTime = env.t;
      entry.bodyMessages = messagesOfBody(body, entry.record.responseHeaders ?? []);
    } else if (env.type === 'fetch_stream_update') {
      // Inspector 2.12+: a long-lived stream's event count, and `closedAt` once the backend's reader stopped. It says
      // that the stream closed, not how (an end and an abort read alike), so the end is taken as complete.
      const entry = byId.get(asString(env.data.id) ?? '');
      const closed = Date.parse(asString(env.data.closedAt) ?? '');
      if (!entry || entry.awaitsBody || !Number.isFinite(closed)) continue;
      entry.closedAt = Math.min(closed, env.t);
    } else if (env.type === 'message') {
      const id = env.data.id;
      const answer = ('result' in env.data || 'error' in env.data) && id !== undefined && id !== null;
      const text = JSON.stringify(env.data);
      const progress = env.data.method === 'notifications/progress' ? progressTokenOf(env.data) : undefined;
      relayed.push({
        key: canonical(env.data),
        text,
        t: env.t,
        ...(answer ? { id: JSON.stringify(id) } : {}),
        ...(progress !== undefined ? { progressToken: progress } : {}),
      });
    }
  }
  for (const message of relayed) placeRelayed(message, order, decoded.resumed);
  for (const { record, closedAt } of order) {
    if (closedAt !== undefined) {
      record.end = 'complete';
      record.endTime = Math.max(closedAt, record.chunks.at(-1)?.t ?? closedAt);
    }
    records.push(record);
    origins.set(record.id, { via: 'mcp-inspector', carrier: carrier.id });
  }
}

/** Where a relayed message came from: a reported body that holds it, else the stream it must have come on. */
function placeRelayed(message: Relayed, order: Reported[], resumes: Map<string, string>): void {
  for (const entry of order) {
    const at = entry.bodyMessages.indexOf(message.key);
    if (at >= 0) {
      entry.bodyMessages.splice(at, 1);
      return;
    }
  }
  const started = order.filter((e) => e.record.startTime <= message.t && e.record.status !== undefined);
  const open = (e: Reported) => e.awaitsBody && e.record.status !== 202;
  const stream = (e: Reported) => longLived(e.record.method, e.record.responseHeaders ?? []);
  const resume = (e: Reported) => headerValue(e.record.requestHeaders, 'last-event-id') !== undefined;
  // The POST whose request it answers or reports progress on, when that POST's body never came (a cut stream).
  const owner = started.find(
    (e) =>
      open(e) &&
      ((message.id !== undefined && e.requestIds.includes(message.id)) ||
        (message.progressToken !== undefined && e.progressTokens.includes(message.progressToken))),
  );
  // A resumption GET opened after that POST continues its stream: what came after it came there.
  const resumed =
    owner && started.filter((e) => stream(e) && resume(e) && e.record.startTime >= owner.record.startTime).at(-1);
  if (owner && resumed) resumes.set(resumed.record.id, owner.record.id);
  const host =
    resumed ??
    owner ??
    started.filter((e) => stream(e) && !resume(e)).at(-1) ??
    started.filter(stream).at(-1) ??
    started.filter(open).at(-1);
  if (!host) return;
  const sse = mediaType(host.record.responseHeaders) === 'text/event-stream';
  addBody(host.record, sse ? `data: ${message.text}\n\n` : message.text, message.t);
}

/** The backend's exchanges every MCP Inspector events stream in the capture reports, in the order reported. */
export function relayedRecords(connections: readonly ConnectionRecord[]): RelayedRecords {
  const records: ConnectionRecord[] = [];
  const origins = new Map<string, RelayOrigin>();
  const resumed = new Map<string, string>();
  for (const carrier of connections) {
    if (!isInspectorEvents(carrier.url)) continue;
    const seen = DECODED.get(carrier);
    let decoded = seen?.decoded;
    // A recorder may grow a record in place (the CLI proxy's): decoded again when its chunks or end changed.
    if (
      !seen ||
      seen.chunks !== carrier.chunks.length ||
      seen.end !== carrier.end ||
      seen.last !== carrier.chunks.at(-1)
    ) {
      decoded = { records: [], origins: new Map(), resumed: new Map() };
      decodeCarrier(carrier, decoded);
      DECODED.set(carrier, { decoded, chunks: carrier.chunks.length, end: carrier.end, last: carrier.chunks.at(-1) });
    }
    if (!decoded) continue;
    records.push(...decoded.records);
    for (const [id, origin] of decoded.origins) origins.set(id, origin);
    for (const [id, post] of decoded.resumed) resumed.set(id, post);
  }
  return { records, origins, resumed };
}

/**
 * Each carrier record's decode, kept while the record object lives: analyses of one capture get the same decoded
 * records (a model's records are the capture's own objects, or these), and a live panel re-decodes only the
 * carrier whose record a new delta replaced (the fold copies a record it changes).
 */
const DECODED = new WeakMap<
  ConnectionRecord,
  { decoded: RelayedRecords; chunks: number; end: ConnectionRecord['end']; last: BodyChunk | undefined }
>();
