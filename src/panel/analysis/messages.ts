// Runs anywhere (pure types): the wire between the panel's UI thread and its analysis worker, both directions.
// The worker holds the records and the analysis; the UI thread sends what it received and what the user chose, and
// gets back only what it draws: counts, sessions, findings, the timeline, and the window of event rows on screen.
// Decoders: decode.ts. Every message is a structured clone; chunk buffers and the timeline's arrays are transferred.
import type { SilenceThresholds } from '../../core/model/silence';
import type { EndReason, GapCause, HttpHeader } from '../../core/capture/model';
import type { Severity } from '../../core/guard/types';
import type { ConnectionRole, OtherStreamKind } from '../../core/model/types';
import type { PanelFeed, TransportMessage } from '../../protocol/messages';
import type { PanelBudget } from '../state/budget';
import type { TimelineWire } from '../view/tick-wire';
import type { TimelineLayout } from '../view/timeline';
import type { WireSignature } from '../view/wireSignature';

/** An event by what survives re-analysis: its connection and the byte offset where it starts. */
export interface EventRef {
  connectionId: string;
  start: number;
}

/** What is selected, by identities that survive re-analysis. */
export type Selection =
  ({ kind: 'event' } & EventRef) | { kind: 'connection'; connectionId: string } | { kind: 'finding'; key: string };

/** The user's choices the derived view depends on. */
export interface Choices {
  filterText: string;
  severities: Record<Severity, boolean>;
  /** Session shown; undefined = all. */
  sessionKey?: string;
  selection?: Selection;
  /** Payloads above this many bytes are cut in the table and the detail pane until asked for whole. */
  truncateBytes: number;
}

export type ExportKind = 'capture' | 'har';

/**
 * UI thread -> worker. `seq` numbers every command that changes what the view shows; a view says up to which it
 * reflects, which is how the status bar knows the analysis covers everything received (data-analysis=current).
 */
export type UiToWorker =
  | { type: 'transport'; seq: number; message: TransportMessage }
  | { type: 'recording'; seq: number; on: boolean }
  /** The per-tab budget for live records (state/budget.ts): over it, the oldest finished connections go first. */
  | { type: 'budget'; seq: number; budget: PanelBudget }
  /** The silence rules' thresholds (the settings'): the analysis starts over with them. */
  | { type: 'silence'; seq: number; silence: SilenceThresholds }
  /** Drops the records (clear, back to live): late deltas of dropped connections are not reported as lost. */
  | { type: 'clear'; seq: number }
  | { type: 'import'; seq: number; name: string; file: Blob }
  /** Stops the import the command `importSeq` started, between two of its slices; what was shown stays. */
  | { type: 'import-cancel'; importSeq: number }
  | { type: 'choices'; seq: number; choices: Choices }
  /** Event rows [from, to) of the view `version`, for the table's window (plus overscan). */
  | { type: 'rows'; version: number; from: number; to: number }
  /** An event's whole payload, for the detail pane's "show all". */
  | { type: 'payload'; id: number; event: EventRef }
  | { type: 'export'; id: number; kind: ExportKind; toolVersion: string; createdAt: number; revealSecrets: boolean };

/** A command as the worker's host takes it: a transport message's parcels already read into deltas (intake.ts). */
export type HostCommand =
  Exclude<UiToWorker, { type: 'transport' }> | { type: 'transport'; seq: number; message: PanelFeed };

export interface HeldSummary {
  /** Connections the worker holds (before any analysis). */
  connections: number;
  /** Deltas that named a connection never seen starting. */
  orphanDeltas: number;
  wire: WireSignature;
  pendingBodies: number;
  /** Body bytes missing from the records (ConnectionRecord.gaps), per cause. */
  gapBytes: Record<GapCause, number>;
  /** The per-tab budget (state/budget.ts): what is held against it, and the connections it dropped whole. */
  budget: BudgetSummary;
}

export interface BudgetSummary {
  heldBytes: number;
  limitBytes: number;
  limitConnections: number;
  droppedConnections: number;
  droppedBytes: number;
  /** Connections held whose body the budget gave up, whole or in part (their `panel-budget` gaps). */
  gappedConnections: number;
}

export interface SessionRowData {
  key: string;
  sessionId?: string;
  /** A 2026-07-28 group: it has no session id by design. */
  stateless?: true;
  /** Relayed (the MCP Inspector's backend): the tooltip of its "relayed: bytes not visible" badge. */
  relayed?: string;
  era: string;
  origin: string;
  endpoint: string;
  startTime: number;
  streams: number;
  connections: number;
  events: number;
  counts: Record<Severity, number>;
  worst?: Severity;
  /** The client's reconnect behaviour, one line (core reconnectSummary). */
  reconnect?: string;
}

/** An SSE stream that is not MCP, as its row shows it (no payloads: the UI lists it, it judges nothing). */
export interface OtherStreamRowData {
  connectionId: string;
  method: string;
  url: string;
  /** The response status, absent when no response head arrived. */
  status?: number;
  events: number;
  bytes: number;
  kind?: OtherStreamKind;
  /** Why it is not MCP. */
  reason: string;
}

export interface FindingTargetData {
  sessionKey?: string;
  connectionId?: string;
  event?: EventRef;
  time?: number;
}

export interface FindingItem {
  /** Index in the analysis's findings (stable within one view). */
  index: number;
  /** Identity across re-analysis (selection). */
  key: string;
  rule: string;
  severity: Severity;
  message: string;
  /** Short session id, when the capture has several sessions. */
  session?: string;
  /** Time relative to its session's start, formatted; "" when unknown. */
  time: string;
  target: FindingTargetData;
  /** The Break menu's fault that provoked it (view/faults.ts), when one struck before it in its session. */
  fault?: FaultLinkData;
}

/** A fault as a finding links to it: what it was, what it did, and the connection it struck. */
export interface FaultLinkData {
  fault: string;
  note: string;
  connectionId: string;
}

/** A fault of the Break menu where it struck; the banner clears an armed fault by its arm and spec. */
export interface FaultItem extends FaultLinkData {
  arm: string;
  action: string;
  /** Relative to its session's start, formatted. */
  time: string;
}

/** What the current selection points at in this view (absent fields: nothing of that kind). */
export interface ResolvedData {
  /** The Selection this was resolved for, as selectionKey() writes it. */
  for: string;
  findingKey?: string;
  event?: EventRef;
  eventIndex?: number;
  connectionId?: string;
  /** Where the timeline should look (epoch ms). */
  time?: number;
  /** The selected event's position among the rows shown, -1 when filtered out or none. */
  position: number;
}

export interface ChipData {
  severity: Severity;
  count: number;
  rules: string[];
  title: string;
  /** Key of the finding a click selects. */
  first: string;
}

/** One events-table row, its cells formatted. */
export interface EventRowData {
  eventIndex: number;
  connectionId: string;
  start: number;
  time: string;
  stream: string;
  resumption: number;
  id: string;
  type: string;
  size: string;
  method: string;
  methodKind: '' | 'priming' | 'bad';
  /** Why the data is not one JSON-RPC message. */
  problem?: string;
  chips: ChipData[];
  /** The head of the event's data (a one-line preview, see ROW_PREVIEW_CHARS in rows.ts). */
  data: string;
  /** Bytes of the event on the wire (what "truncated, N" names). */
  bytes: number;
  /** The data is longer than the truncation size: the row says so and offers the whole payload. */
  truncated: boolean;
}

export interface RowsWindow {
  version: number;
  from: number;
  rows: EventRowData[];
}

export interface AnalysisNoticeData {
  kind: string;
  message: string;
}

/** A request still waiting on an open connection: the running clock the panel shows before any rule fires. */
export interface WaitingItem {
  /** The connection that carries its answer now (selecting it shows the stream). */
  connectionId: string;
  /** Method and JSON-RPC id: `tools/call 7`. */
  label: string;
  /** Since the request was sent. */
  waitedMs: number;
  /** Since the last JSON-RPC message on the connection (or its response head). */
  quietMs: number;
  /** Since its last byte. */
  silentMs: number;
}

export interface ViewData {
  /** Every command up to this seq is reflected (records analysed, choices applied). */
  seq: number;
  /** Identity of the row list: rows of another version are not these rows. */
  version: number;
  /** Milliseconds the last analysis pass took. */
  costMs: number;
  held: HeldSummary;
  totals: { sessions: number; connections: number; events: number; findings: number };
  /** The chosen session while it still exists; undefined = all. */
  sessionKey?: string;
  sessionRows: SessionRowData[];
  shownEvents: number;
  counts: Record<Severity, number>;
  hiddenBySeverity: number;
  findings: FindingItem[];
  /** Visible findings not sent (the list is capped). */
  findingsLeftOff: number;
  /** Requests waiting on open connections, as of the last pass (live: now), the longest waiting first; capped. */
  waiting: WaitingItem[];
  multipleSessions: boolean;
  /** Where the Break menu's faults struck, in the order they did. */
  faults: FaultItem[];
  /** SSE streams that are not MCP, in start order (the list is capped). */
  otherStreams: OtherStreamRowData[];
  /** Other streams not sent. */
  otherStreamsLeftOff: number;
  /** What the analysis could not see in what it was given (a HAR that dropped bodies), one line each. */
  notices: AnalysisNoticeData[];
  timeline: TimelineLayout;
  /** Axis labels count from here (session start, or the capture start when every session is shown). */
  origin: number;
  resolved: ResolvedData;
  /** The rows of the window the UI asked for last. */
  rows: RowsWindow;
}

/** Raw bytes of a range as text, split at chunk boundaries (a character split across chunks stays whole). */
export interface TextSegment {
  chunk: number;
  text: string;
}

/** An event's bytes as the detail pane shows them: whole up to the truncation size, else the head. */
export interface PayloadData {
  /** Bytes of the event on the wire. */
  bytes: number;
  truncated: boolean;
  segments: TextSegment[];
  /** The parsed data for the JSON tree; only when not truncated and JSON. */
  json?: { value: unknown };
}

export interface ChunkSpanData {
  chunk: number;
  start: number;
  end: number;
  t: number;
}

export interface EventDetailData {
  ref: EventRef;
  type: string;
  hasId: boolean;
  lastEventId: string;
  streamId: string;
  /** ms after the session start, formatted. */
  time: string;
  retry?: number;
  problem?: string;
  empty: boolean;
  answers: Array<{ text: string; connectionId: string }>;
  end: number;
  payload: PayloadData;
  spans: ChunkSpanData[];
  /** Chunk spans not sent (capped). */
  spansLeftOff: number;
  /** The connection's start (chunk arrival times are relative to it). */
  t0: number;
}

export type ConnectionTab = 'headers' | 'payload' | 'tail';

export interface ConnectionDetailData {
  id: string;
  method: string;
  url: string;
  status?: number;
  statusText?: string;
  role: ConnectionRole;
  streamId?: string;
  lastEventIdSent?: string;
  resumes?: string;
  /** 2026-07-28, one logical request across connections: the round it retries, the lost request it re-issues. */
  retryOf?: string;
  reissueOf?: string;
  /** The connection whose request created the task this one follows up (tasks/get, tasks/update, ...). */
  taskOf?: string;
  /** Relayed (the MCP Inspector's backend): what the "relayed: bytes not visible" label means here. */
  relayed?: string;
  /** ms after the session start, formatted; lasted: duration formatted, absent while open. */
  started: string;
  lasted?: string;
  end: EndReason;
  error?: string;
  bytes: number;
  chunks: number;
  events: number;
  requestHeaders: HttpHeader[];
  responseHeaders?: HttpHeader[];
  /** The POST body: parsed messages for the tree, else its text (cut at the truncation size). */
  request?: { json?: { value: unknown }; text: string; truncated: boolean; bytes: number };
  tail?: { bytes: number; start: number; hasData: boolean; id?: string; text: string; truncated: boolean };
  /** The Break menu's faults that struck this exchange: as written, what they did, at which body byte. */
  faults?: { fault: string; action: string; offset: number; note: string }[];
  tabs: ConnectionTab[];
}

export interface FindingDetailData {
  key: string;
  rule: string;
  severity: Severity;
  message: string;
  byteOffset?: number;
  target: FindingTargetData;
}

/** The detail pane's content for one selection. */
export interface DetailData {
  for: string;
  finding?: FindingDetailData;
  event?: EventDetailData;
  connection?: ConnectionDetailData;
}

/**
 * A view on the wire: the timeline only when it changed since the last view sent, each row with only the ticks
 * the UI does not hold yet (tick-wire.ts; their arrays are transferred).
 */
export type ViewWire = Omit<ViewData, 'timeline'> & { timeline?: TimelineWire };

/** Worker -> UI thread. */
export type WorkerToUi =
  | { type: 'view'; view: ViewWire }
  /** Sent before a long pass starts: what the worker holds already, so the UI can say so meanwhile. */
  | { type: 'held'; held: HeldSummary }
  | { type: 'rows'; rows: RowsWindow }
  | { type: 'detail'; detail: DetailData }
  | { type: 'payload'; id: number; event: EventRef; segments: TextSegment[]; json?: { value: unknown } }
  | { type: 'imported'; seq: number; name: string; connections: number }
  | { type: 'import-failed'; seq: number; name: string; message: string }
  /** How far the import of the command `seq` has read: `bytes` of the file's `total`. */
  | { type: 'import-progress'; seq: number; name: string; bytes: number; total: number }
  | { type: 'import-cancelled'; seq: number; name: string }
  | { type: 'exported'; id: number; blob: Blob }
  | { type: 'failed'; id?: number; message: string };

/** The key a Selection is known by in ResolvedData.for and DetailData.for. */
export function selectionKey(selection: Selection | undefined): string {
  if (!selection) return '';
  switch (selection.kind) {
    case 'event':
      return `event:${selection.connectionId}@${selection.start}`;
    case 'connection':
      return `connection:${selection.connectionId}`;
    case 'finding':
      return `finding:${selection.key}`;
  }
}

/** Findings sent per view: the list beyond is counted, not sent (a capture with one per event has 100k). */
export const MAX_FINDINGS_SENT = 1000;
/** Other streams sent per view: the rest are counted, not sent. */
export const MAX_OTHER_STREAMS_SENT = 200;
/** Chunk spans listed in an event's detail. */
export const MAX_SPANS_SENT = 500;
/** Rows one request may ask for. */
export const MAX_ROWS_PER_REQUEST = 1000;
/** Default size above which a payload is cut in the table and the detail pane (the panel's ?truncate= sets it). */
export const DEFAULT_TRUNCATE_BYTES = 4 * 1024;
