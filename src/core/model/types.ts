// Runs anywhere (pure core): the derived view of a capture. Recomputed from raw records, never stored.
import type { ConnectionRecord } from '../capture/model';
import type { SseEvent, SseTail } from '../sse/types';
import type { EventIndexes } from './index-list';
import type { IdScheme } from '../ids/scheme';
import type { SilenceThresholds } from './silence';
import type { Era, JsonRpcEnvelope, JsonRpcId, JsonRpcMessage } from '../mcp/types';

/** The role a connection plays in the transport. */
export type ConnectionRole =
  | 'post' // a JSON-RPC POST (its response may be SSE, JSON or 202)
  | 'get' // the standalone GET stream or a resumption GET
  | 'delete' // session termination
  | 'legacy-sse' // 2024-11-05 GET /sse stream
  | 'legacy-post' // 2024-11-05 POST to the endpoint
  | 'other';

/**
 * One dispatched SSE event, placed in its connection, stream and session. A view made on demand from the model's
 * compact per-event columns: the model keeps neither the data nor the parsed JSON (they would cost several times
 * the capture's bytes), so `data` and `messages` are read again from the capture's bytes each time they are asked
 * for; `dataLength` and `envelopes` are kept and cost nothing to read.
 */
export interface EventView extends SseEvent {
  /** Index in Analysis.events (time order). */
  index: number;
  connectionId: string;
  streamId: string;
  sessionKey: string;
  /** Wall-clock time (epoch ms) of the chunk that dispatched the event. */
  time: number;
  /** The data's length in UTF-16 code units (`data.length`), known without decoding the data. */
  dataLength: number;
  /** Data lines joined with LF, decoded from the event's bytes in the capture on each read. */
  readonly data: string;
  /** The first `max` UTF-16 units of `data`, decoding only the bytes they come from (a row's preview of a big event). */
  dataPreview(max: number): string;
  /**
   * JSON-RPC messages carried (a batch gives several), parsed from the data on each read (read it once and keep
   * it where it is needed again); empty for priming / empty data and for data that is not JSON-RPC.
   */
  readonly messages: JsonRpcMessage[];
  /** Kind, id and method of each message carried (as in `messages`, without params and results): no parsing. */
  readonly envelopes: JsonRpcEnvelope[];
  /** Why the data is not one complete JSON-RPC message (absent when fine or empty). */
  parseError?: string;
}

/**
 * A model's events in time order. Looked up by index (`at`) or walked (`for ... of`); each lookup makes a new
 * view from the model's columns, so hold on to a view only as long as it is needed.
 */
export interface EventList extends Iterable<EventView> {
  readonly length: number;
  /** The event at `index` (0 = the earliest; as Array.prototype.at, -1 = the latest), or undefined past the ends. */
  at(index: number): EventView | undefined;
}

/** One HTTP exchange as analysed: its raw record, its role, its stream, and what it sent and received. */
export interface ConnectionView {
  /** The record's id. */
  id: string;
  /** The raw record it was derived from. */
  record: ConnectionRecord;
  /** What the connection is in the transport (POST, GET stream or resume, DELETE, 2024-11-05 legacy). */
  role: ConnectionRole;
  /** Session key (see SessionView.key); every connection belongs to exactly one. */
  sessionKey: string;
  /** The stream this connection delivers; absent for non-SSE responses. */
  streamId?: string;
  /** True when the response is `text/event-stream`. */
  isSse: boolean;
  /**
   * The era this exchange's own request declares: the `_meta` protocol version of its body (2026-07-28), else its
   * MCP-Protocol-Version header; absent when it declares none (a 2025 initialize, a GET).
   */
  requestEra?: Era;
  /**
   * 2026-07-28 multi round trip: the connection whose request was answered `input_required` and that this one's
   * request retries (with `inputResponses` or `requestState`, under a new id); one logical request across both.
   */
  retryOf?: string;
  /**
   * 2026-07-28: the connection whose response stream broke before the answer to the same call (method and params,
   * `_meta` aside) that this one's request sends again; the re-issue of a lost request.
   */
  reissueOf?: string;
  /**
   * MCP Tasks: the connection whose request the server answered with a task handle, when this one's request
   * (`tasks/get`, `tasks/update`, `tasks/cancel`, `tasks/result`) names that task's id; one logical request across all.
   */
  taskOf?: string;
  /** Last-Event-ID request header, when sent. */
  lastEventIdSent?: string;
  /** The connection whose stream this one resumed (by Last-Event-ID), when known. */
  resumes?: string;
  /** Messages in the request body (POST). */
  requestMessages: JsonRpcMessage[];
  /** Messages in a JSON (non-SSE) response body. */
  responseMessages: JsonRpcMessage[];
  /** Indexes into Analysis.events of events this connection dispatched. */
  eventIndexes: EventIndexes;
  /** The undispatched tail when the body ended (or the capture was taken). */
  tail?: SseTail;
  /** The last `retry:` value (ms) this connection's events set (a torn tail's included): the server's reconnect pace. */
  retryMs?: number;
  /** Body bytes received. */
  bytes: number;
  /** Why this exchange is MCP traffic: the first signal that decided it (docs/traffic-classification.md). */
  mcpEvidence: string;
  /**
   * A request made before the session's `initialize` that failed (a 2026-07-28 `server/discover` probe answered with
   * an error, a GET without a session refused): grouped with the session the client then opened.
   */
  probe?: true;
  /** The exchange was made by a relay (the MCP Inspector's backend) and decoded from its reports: bytes not visible. */
  relayed?: RelayOrigin;
}

/**
 * A relay that ran the MCP traffic out of the browser's sight and reported it on a stream of its own (the MCP
 * Inspector 2.x backend, on `/api/mcp/events`). Its sessions are shown as what they are, but the bytes the relay
 * read are not visible: no chunk boundaries, no torn events, no event ids of its GET stream, no cut streams' bodies,
 * so the rules that judge bytes do not run on them (guard/relayed.ts).
 */
export interface RelayOrigin {
  via: 'mcp-inspector';
  /** The id of the browser's record whose envelopes reported the exchange (the `/api/mcp/events` stream). */
  carrier: string;
}

/** One logical SSE stream: the connection that opened it and each connection that resumed it. */
export interface StreamView {
  /** Unique within the analysis, e.g. "s3". */
  id: string;
  sessionKey: string;
  /** 'post' streams answer one POST; 'get' is the standalone stream; 'legacy' is a 2024-11-05 /sse stream. */
  kind: 'post' | 'get' | 'legacy';
  /** Connections in order: the original, then each resumption. */
  connectionIds: string[];
  /** Ids of the client requests whose answers this stream carries (POST streams). */
  requestIds: JsonRpcId[];
}

/** One MCP session: its era, id scheme, streams and connections. */
export interface SessionView {
  /** Unique key: the Mcp-Session-Id when there is one, else a synthetic "origin#n". */
  key: string;
  /** The Mcp-Session-Id header value, absent for stateless / legacy sessions. */
  sessionId?: string;
  /** Scheme, host and port of the MCP endpoint. */
  origin: string;
  /** Endpoint URL (path of the MCP endpoint). */
  endpoint: string;
  /** From the `MCP-Protocol-Version` header or the initialize exchange; `unknown` when neither was seen. */
  era: Era;
  /** The era the client probed first and fell back from (its failed probe declared it), when it differs. */
  probedEra?: Era;
  /** How the session's event ids are built (decides which continuity rules apply). */
  idScheme: IdScheme;
  /** Ids of the session's streams (see {@link StreamView.id}). */
  streamIds: string[];
  /** Ids of the session's connections, in time order. */
  connectionIds: string[];
  /** A 2026-07-28 group: self-contained requests with no session id, one group per endpoint, in time order. */
  stateless?: true;
  /** The session ran behind a relay and was decoded from its reports: relayed, bytes not visible. */
  relayed?: RelayOrigin;
  /** Epoch ms of the first request. */
  startTime: number;
  /** Epoch ms of the last thing seen in the session. */
  endTime: number;
}

/**
 * An SSE stream that is not MCP (an LLM completion stream, a tool's own backend stream): listed apart, never in a
 * session, never seen by the rules. Its events are not in {@link Model.events}; `otherStreamEvents(record)` reads
 * them from the bytes.
 */
export interface OtherStreamView {
  /** The record's id. */
  connectionId: string;
  /** The raw record. */
  record: ConnectionRecord;
  method: string;
  url: string;
  /** The response status, absent when no response head arrived. */
  status?: number;
  /** Epoch ms of the request. */
  startTime: number;
  /** Epoch ms of the end of the body (or the last thing seen while it is open). */
  endTime: number;
  /** Dispatched SSE events. */
  events: number;
  /** Body bytes received. */
  bytes: number;
  /** Why it is not MCP, e.g. "SSE events whose data is not JSON-RPC". */
  reason: string;
  /** What it is, when it is a kind of stream known not to be MCP. */
  kind?: OtherStreamKind;
}

/**
 * Streams known not to be MCP: OpenAI-style chat completions (`chat.completion.chunk` ... `[DONE]`),
 * Anthropic-style messages (`content_block_delta` ... `message_stop`), and the MCP Inspector 2.x web UI's stream
 * from its own backend (`/api/mcp/events`, which relays MCP traffic run elsewhere in envelopes).
 */
export type OtherStreamKind = 'openai-chat' | 'anthropic-messages' | 'mcp-inspector';

/**
 * Something the analysis could not see in the file it was given, and why: `body-missing`, responses whose bodies
 * the file's writer dropped (DevTools' and Playwright's HAR drop those of cut and aborted streams).
 */
export interface Notice {
  kind: 'body-missing';
  /** The connections concerned. */
  connectionIds: string[];
  /** One paragraph for the user, naming them. */
  message: string;
}

/** The model derived from a capture (`Analysis` adds the findings). */
export interface Model {
  sessions: SessionView[];
  streams: StreamView[];
  connections: ConnectionView[];
  /** All dispatched events of MCP streams, in time order. */
  events: EventList;
  /** SSE streams that are not MCP, in start order. */
  otherStreams: OtherStreamView[];
  /** What the file did not let the analysis see (empty for the panel's own captures). */
  notices: Notice[];
  /** Epoch ms of the earliest record (times in the UI are relative to it). */
  startTime: number;
  /** Epoch ms until which the capture watched its connections (see `observedUntil` in guard/silence.ts). */
  observedUntil: number;
  /** The silence rules' thresholds for this analysis. */
  silence: SilenceThresholds;
}
