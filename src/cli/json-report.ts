// Runs in Node (CLI), pure: the stable `--json` document. Keys are written in a fixed order and are
// present whether set or not (null when absent), except an event's `id` (only when the event carried
// its own id field) and `retry` (only when set), as documented in docs/cli.md.
import { findingToJson } from '../core/guard/engine';
import type { EndReason } from '../core/capture/model';
import type { Finding } from '../core/guard/types';
import type { ReconnectBehaviour } from '../core/guard/reconnects';
import { RELAYED_LABEL } from '../core/model/relayed-label';
import type { EventView, Notice, OtherStreamKind, OtherStreamView, RelayOrigin } from '../core/model/types';
import type { Analysis } from '../core/analyze';
import type { Era } from '../core/mcp/types';
import type { IdScheme } from '../core/ids/scheme';

export interface JsonEvent {
  type: string;
  data: string;
  lastEventId: string;
  id?: string;
  retry?: number;
}

export interface JsonConnection {
  id: string;
  method: string;
  url: string;
  status: number | null;
  lastEventIdSent: string | null;
  resumes: string | null;
  end: EndReason;
  bytes: number;
  /** Why the exchange is MCP traffic. */
  evidence: string;
  /** The relay that made the exchange out of the browser's sight and reported it; null for what the capture saw. */
  relayed: JsonRelayed | null;
}

/** A relayed session or exchange, as the panel's badge says it: `label` is "relayed: bytes not visible". */
export interface JsonRelayed {
  via: RelayOrigin['via'];
  /** The browser's connection whose reports it was decoded from. */
  carrier: string;
  label: typeof RELAYED_LABEL;
}

/** An SSE stream that is not MCP: listed, never judged. */
export interface JsonOtherStream {
  connectionId: string;
  method: string;
  url: string;
  status: number | null;
  events: number;
  bytes: number;
  kind: OtherStreamKind | null;
  /** Why it is not MCP. */
  reason: string;
}

export interface JsonStream {
  id: string;
  kind: 'post' | 'get' | 'legacy';
  connections: JsonConnection[];
  events: JsonEvent[];
}

export interface JsonSession {
  /** The session key: the Mcp-Session-Id when there is one, else a synthetic `origin#n` (findings' sessionKey). */
  id: string;
  era: Era;
  idScheme: IdScheme;
  /** How the session's client reconnects (2025 eras; null for the others). */
  reconnect: Omit<ReconnectBehaviour, 'sessionKey'> | null;
  /** The relay the session ran behind (bytes not visible: the byte rules did not run on it); null when direct. */
  relayed: JsonRelayed | null;
  streams: JsonStream[];
}

export interface JsonReport {
  findings: Finding[];
  sessions: JsonSession[];
  otherStreams: JsonOtherStream[];
  /** What the file did not let the analysis see (responses whose bodies it dropped). */
  notices: Notice[];
}

export function toJsonReport(analysis: Analysis): JsonReport {
  const connections = new Map(analysis.connections.map((c) => [c.id, c]));
  const streams = new Map(analysis.streams.map((s) => [s.id, s]));
  const eventsByStream = new Map<string, EventView[]>();
  for (const event of analysis.events) {
    const list = eventsByStream.get(event.streamId);
    if (list) list.push(event);
    else eventsByStream.set(event.streamId, [event]);
  }
  const reconnects = new Map(analysis.reconnects.map((r) => [r.sessionKey, r]));
  const reconnectOf = (key: string): JsonSession['reconnect'] => {
    const r = reconnects.get(key);
    return r
      ? { resumesPostStreams: r.resumesPostStreams, honoursRetry: r.honoursRetry, deduplicates: r.deduplicates }
      : null;
  };
  return {
    findings: analysis.findings.map(findingToJson),
    sessions: analysis.sessions.map((session) => ({
      id: session.key,
      era: session.era,
      idScheme: session.idScheme,
      reconnect: reconnectOf(session.key),
      relayed: relayedToJson(session.relayed),
      streams: session.streamIds.flatMap((streamId) => {
        const stream = streams.get(streamId);
        if (!stream) return [];
        return [
          {
            id: stream.id,
            kind: stream.kind,
            connections: stream.connectionIds.flatMap((connectionId) => {
              const c = connections.get(connectionId);
              if (!c) return [];
              return [
                {
                  id: c.id,
                  method: c.record.method,
                  url: c.record.url,
                  status: c.record.status ?? null,
                  lastEventIdSent: c.lastEventIdSent ?? null,
                  resumes: c.resumes ?? null,
                  end: c.record.end,
                  bytes: c.bytes,
                  evidence: c.mcpEvidence,
                  relayed: relayedToJson(c.relayed),
                },
              ];
            }),
            events: (eventsByStream.get(stream.id) ?? []).map(eventToJson),
          },
        ];
      }),
    })),
    otherStreams: analysis.otherStreams.map(otherStreamToJson),
    notices: analysis.notices.map((n) => ({ kind: n.kind, connectionIds: [...n.connectionIds], message: n.message })),
  };
}

function relayedToJson(origin: RelayOrigin | undefined): JsonRelayed | null {
  return origin === undefined ? null : { via: origin.via, carrier: origin.carrier, label: RELAYED_LABEL };
}

function otherStreamToJson(stream: OtherStreamView): JsonOtherStream {
  return {
    connectionId: stream.connectionId,
    method: stream.method,
    url: stream.url,
    status: stream.status ?? null,
    events: stream.events,
    bytes: stream.bytes,
    kind: stream.kind ?? null,
    reason: stream.reason,
  };
}

function eventToJson(event: EventView): JsonEvent {
  const out: JsonEvent = { type: event.type, data: event.data, lastEventId: event.lastEventId };
  if (event.hasId) out.id = event.lastEventId;
  if (event.retry !== undefined) out.retry = event.retry;
  return out;
}
