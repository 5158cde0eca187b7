// Runs anywhere (pure core): the raw transport records a capture is made of. Everything else is derived.

/** One HTTP header as sent or received; names keep their original spelling. */
export interface HttpHeader {
  /** The name as spelled on the wire (compare case-insensitively). */
  name: string;
  value: string;
}

/** How a connection's body ended. `open` means the capture was taken while it was still streaming. */
export type EndReason = 'complete' | 'aborted' | 'network-error' | 'open';

/** Where a record came from: the page tap (fetch or EventSource), a HAR file, or a raw event-stream file. */
export type RecordSource = 'fetch' | 'eventsource' | 'har' | 'raw';

/** Bytes as they arrived, with the wall-clock time (epoch ms, fractional) they were delivered. */
export interface BodyChunk {
  /** Epoch ms when the chunk was delivered. */
  t: number;
  /** The chunk's bytes. */
  bytes: Uint8Array;
}

/** One HTTP exchange: request head and body, response head, body chunks, and how it ended. */
export interface ConnectionRecord {
  /** Unique within a capture; stable across export and import. */
  id: string;
  /** Where the record came from. */
  source: RecordSource;
  /** The HTTP method. */
  method: string;
  /** The absolute request URL. */
  url: string;
  /** Request headers as sent. */
  requestHeaders: HttpHeader[];
  /** The request body as text (JSON-RPC POST bodies), when there was one. */
  requestBody?: string;
  /** Epoch ms when the request started. */
  startTime: number;
  /** Absent when no response head arrived (network error before headers). */
  status?: number;
  statusText?: string;
  responseHeaders?: HttpHeader[];
  /** Epoch ms when the response head arrived. */
  responseTime?: number;
  /** The response body as it arrived, chunk by chunk. */
  chunks: BodyChunk[];
  /** Epoch ms when the body ended (absent while open). */
  endTime?: number;
  /** How the body ended. */
  end: EndReason;
  /** Error text for aborted / network-error connections. */
  error?: string;
  /** The document that made the request, when known. */
  documentUrl?: string;
  /**
   * The file this was read from had no body for this response, though it had one (a stream, or a size above 0):
   * DevTools' and Playwright's HAR drop the bodies of cut and aborted streams. `chunks` is empty then.
   */
  bodyMissing?: true;
  /**
   * The file had the body but not when its bytes came (a plain HAR from DevTools or Playwright): `chunks` is the
   * whole body as one chunk at the response's end. Rules that judge silence and bursts leave it alone.
   */
  chunkTimesUnknown?: true;
  /** Faults the user armed (the panel's Break menu) that struck this connection, in the order they struck. */
  faults?: FaultMark[];
  /**
   * Holes in the recording of this body, in body order: bytes the page received that the capture lost (a bounded
   * buffer evicted them before a panel attached, say). Never the server's doing: rules do not judge across them.
   */
  gaps?: CaptureGap[];
}

/**
 * Why a capture lost body bytes: the tab's bounded buffer evicted them, a link could not re-send them, or the
 * panel's per-tab budget gave them up (oldest finished connections first).
 */
export type GapCause = 'evicted' | 'unacknowledged' | 'panel-budget';

/** A hole in a recorded body: `bytes` bytes the page received at body offset `offset` are not in `chunks`. */
export interface CaptureGap {
  /** Body bytes the page had received before the hole (kept chunks before it, plus earlier gaps). */
  offset: number;
  /** How many bytes are missing. */
  bytes: number;
  /** Epoch ms of the first byte missing (as near as the recorder knew). */
  t: number;
  /** Why they are missing. */
  cause: GapCause;
}

/** Where an armed fault struck a connection: what the page received there is the fault's doing, not the server's. */
export interface FaultMark {
  /** Epoch ms when it struck. */
  t: number;
  /** Which arming of the Break menu it came from (the panel's banner clears a fault by it). */
  arm: string;
  /** The fault as written (`cut-mid-event:60`, `resume-status:404`). */
  fault: string;
  /** What it did: `cut`, `skip-event`, `repeat-event`, `reject-resume`, `silent-resume`. */
  action: string;
  /** Body bytes the page had received on this connection when it struck. */
  offset: number;
  /** The facts of it, in words (which event, how many bytes). */
  note: string;
}

/** The in-memory capture: what the tap recorded or what a file imported. */
export interface Capture {
  /** The tool that made the capture. */
  tool: { name: string; version: string };
  /** Epoch ms when the capture was created or exported. */
  createdAt: number;
  /** The inspected page, for captures made by the extension. */
  page?: { url: string; title?: string };
  /**
   * Epoch ms until which the recorder watched (the panel's export, the proxy's stop): a connection still `open` then
   * had received nothing since its last byte. Absent: the latest moment any record shows.
   */
  observedUntil?: number;
  /** Every recorded exchange. */
  connections: ConnectionRecord[];
}

/** The `format` field that marks a capture file. */
export const CAPTURE_FORMAT = 'mcp-stream-inspector/capture';
/** The capture format version this library writes. */
export const CAPTURE_VERSION = 1;
/** This tool's name, as written in the `tool` field of the captures it makes. */
export const TOOL_NAME = 'mcp-stream-inspector';
