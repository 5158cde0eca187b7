// Runs anywhere: the wire form of capture records. Every hop is a structured clone (a MessagePort from the page, and
// extension messaging with `message_serialization: structured_clone` in Chrome, the default in Firefox), so body
// bytes travel as Uint8Array: nothing is encoded on the page's thread.
import type { ConnectionRecord, EndReason, HttpHeader } from '../core/capture/model';

// The tap imports only protocol types: the record types it needs come through here.
export type { EndReason, HttpHeader };

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
  /**
   * `more` (bridge -> background only): the chunk was split to stay below message limits and its bytes
   * continue in the next chunk delta of the same id; the background joins the pieces before the panel sees them.
   */
  | { kind: 'chunk'; id: string; t: number; bytes: Uint8Array; more?: boolean }
  | { kind: 'end'; id: string; end: EndReason; endTime: number; error?: string };
