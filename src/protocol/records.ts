// Runs anywhere: the wire form of capture records. Every hop is a structured clone (a MessagePort from the page, and
// extension messaging with `message_serialization: structured_clone` in Chrome, the default in Firefox), so body
// bytes travel as Uint8Array: nothing is encoded on the page's thread.
import type { CaptureGap, ConnectionRecord, EndReason, FaultMark, HttpHeader } from '../core/capture/model';

// The tap imports only protocol types: the record types it needs come through here.
export type { CaptureGap, EndReason, FaultMark, HttpHeader };

/** A connection's head, sent when the request starts (no body chunks). */
export type WireConnectionStart = Pick<
  ConnectionRecord,
  'id' | 'source' | 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'startTime' | 'documentUrl'
> & {
  /** EventSource only: the `withCredentials` it was constructed with. */
  withCredentials?: boolean;
};

/** Live changes to a connection, in the order they happened. */
export type ConnectionDelta =
  | { kind: 'start'; conn: WireConnectionStart }
  | {
      kind: 'response';
      id: string;
      status: number;
      statusText: string;
      responseHeaders: HttpHeader[];
      responseTime: number;
    }
  | { kind: 'chunk'; id: string; t: number; bytes: Uint8Array }
  | { kind: 'end'; id: string; end: EndReason; endTime: number; error?: string }
  /** An armed fault (the Break menu) struck this connection; sent before what it caused (the end of a cut). */
  | { kind: 'fault'; id: string; mark: FaultMark }
  /** Body bytes the page received here that this record lost (ConnectionRecord.gaps), where the chunks would be. */
  | { kind: 'gap'; id: string; gap: CaptureGap };

/** A delta as it travels in a parcel: a chunk's bytes are in the parcel's Blob, in order; only their size is here. */
export type ParcelDelta =
  Exclude<ConnectionDelta, { kind: 'chunk' }> | { kind: 'chunk'; id: string; t: number; size: number };

/**
 * Deltas whose chunk bytes travel together in one Blob, in order (protocol/parcel.ts packs and unpacks). Extension
 * messaging carries a Blob by handle: the bytes are copied once into the browser's blob store, on the bridge's side,
 * and read once where they are analyzed; the background and the panel's UI thread never touch them.
 */
export interface Parcel {
  deltas: ParcelDelta[];
  bytes: Blob;
  /** Set by the background on what it forwards: the frame, its bridge's link and the parcel's seq (for acks). */
  from?: ParcelSource;
}

/** Which bridge a forwarded parcel came from, and where in that bridge's numbered stream of parcels. */
export interface ParcelSource {
  frameId: number;
  link: string;
  seq: number;
}
