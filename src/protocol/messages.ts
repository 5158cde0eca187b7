// Runs anywhere: one message union per hop (page -> bridge -> background -> panel, and back).
import type { FaultArm } from './break';
import type { ConnectionDelta, Parcel } from './records';

/**
 * Page MAIN world (tap) -> isolated-world bridge, over the tap's MessagePort (see events.ts); chunk buffers are
 * transferred. Untrusted (a page script could post on a port it got hold of): the bridge decodes every field.
 */
export interface TapToBridge {
  source: 'mcp-stream-inspector/tap';
  /** Random per tap instance so the bridge ignores other senders' noise. */
  instance: string;
  deltas: ConnectionDelta[];
  /** This batch answers the bridge's `flush` of that number: everything the tap held when asked is in it or before. */
  flushed?: number;
  /** The tap's answer to a Break arm or disarm: the id of the arm it now holds, or null (nothing armed). */
  armed?: string | null;
}

/** Bridge -> page tap, over the same port: settings the tap applies at the source (and its signal to start sending). */
export interface BridgeToTap {
  source: 'mcp-stream-inspector/bridge';
  /** Record Authorization, Cookie and similar headers in clear (user opt-in; default false). */
  revealSecrets: boolean;
  /**
   * A panel watches (the bridge relays every batch): the tap then batches bigger, since each batch costs the page a
   * Blob (some 10 ms each, whatever its size).
   */
  live?: boolean;
  /** The tap's buffers of earlier batches, moved back once the bridge is done with them, for the tap to refill. */
  slabs?: ArrayBuffer[];
  /** Send what you hold now, marked `flushed` with this number (even when empty): the receiver then knows it has all. */
  flush?: number;
  /**
   * The Break menu: faults to arm for the page's next exchanges, or null to disarm (absent: no change). Only this
   * port carries it, which no page script holds: a page cannot arm faults on itself or on others.
   */
  break?: FaultArm | null;
}

/**
 * Page MAIN world (the Playwright fixture's receiver, src/playwright/page/) -> the test's Node process, as the argument of
 * the binding RECORDER_BINDING (events.ts). `hello` starts a document (answered with RecorderSettings); `deltas`
 * carries each batch of the tap, as the tap sent it; `next` waits for the test to ask for a flush (answered with
 * RecorderRequest). Untrusted: it comes from the page (src/protocol/decode-recorder.ts checks every field).
 */
export type RecorderToNode =
  | { kind: 'hello'; instance: string }
  | { kind: 'deltas'; instance: string; deltas: ConnectionDelta[]; flushed?: number }
  | { kind: 'next'; instance: string };

/** Node -> the receiver, the answer to `hello`: what the tap applies at the source. */
export interface RecorderSettings {
  revealSecrets: boolean;
}

/** Node -> the receiver, the answer to `next`: ask the tap to flush (`flush`), or stop asking (`stop`). */
export type RecorderRequest = { kind: 'flush'; flush: number } | { kind: 'stop' };

/**
 * Bridge -> background. Sent over a runtime Port named "bridge" that a bridge opens only when the background
 * asks it to (`collect`, while a panel is attached to its tab). Structured clone (Chrome: the manifest's
 * `message_serialization`), which carries each parcel's Blob by handle (see Parcel).
 * `snapshot-part`: the bridge's buffer, answering `collect` of that generation; `last` ends it.
 */
export type BridgeToBackground =
  /** `seq` numbers the bridge's parcels in order, 1 up, within its `link` (one per bridge, so per document). */
  | { type: 'deltas'; documentUrl: string; parcel: Parcel; link: string; seq: number }
  | { type: 'navigated'; documentUrl: string }
  | {
      type: 'snapshot-part';
      generation: number;
      documentUrl: string;
      parcel: Parcel;
      last: boolean;
      /** Bytes and connections the bridge's buffer evicted whole (what it trimmed is in the parcel, as gaps). */
      droppedBytes: number;
      droppedConnections: number;
      link: string;
      /** The parcel stands for everything up to this seq; the `deltas` that follow continue from it. */
      seq: number;
      /**
       * The collect named a resume point of this link, and the bridge still held every parcel after it: the parcel is
       * empty, the panel keeps what it holds, and the parcels after `seq` follow as `deltas`.
       */
      resumed: boolean;
    };

/**
 * Bridge -> background, once per document at document_start (runtime.sendMessage, not the Port): "a bridge runs in
 * this frame". The frame, tab and URL are the sender's, which the browser fills in; the message carries nothing
 * else. It stands for webNavigation: a new bridge in a frame is a committed document there.
 */
export interface BridgeHello {
  type: 'bridge-hello';
}

/** Where a panel's records of one bridge stop: the last parcel of `link` it holds. */
export interface ResumePoint {
  link: string;
  seq: number;
}

/** Background -> bridge, over the bridge's Port: the panels hold every parcel up to `seq`; or nobody watches now. */
export type BackgroundToBridgePort = { type: 'ack'; seq: number } | { type: 'idle' };

/**
 * Background -> bridge (tabs.sendMessage to one frame). `collect`: open the "bridge" Port, send the buffer as
 * snapshot parts of this generation, then relay live deltas. `clear`: drop the buffer (open connections too).
 */
export type BackgroundToBridge =
  /** `resume`: the panel holds this bridge's parcels up to that point (after a worker restart): send the rest. */
  | { type: 'collect'; generation: number; resume?: ResumePoint }
  | { type: 'clear' }
  /** The Break menu (top frame only): arm these faults in the tap, or disarm (null). */
  | { type: 'break'; arm: FaultArm | null };

/** Panel -> background, over a runtime Port named "panel". */
export type PanelToBackground =
  /** `resume`: per frame, what the panel already holds (it re-attaches after the worker stopped). */
  | { type: 'attach'; tabId: number; resume?: FrameResume[] }
  /** The panel holds the frame's parcels up to `seq` of `link`: the bridge may forget them. */
  | { type: 'ack'; tabId: number; frameId: number; link: string; seq: number }
  | { type: 'clear'; tabId: number }
  | { type: 'set-preserve-log'; tabId: number; preserve: boolean }
  /** The Break menu: arm one-shot faults in the tab's top frame, or disarm them (null). */
  | { type: 'break'; tabId: number; arm: FaultArm | null };

/** A panel's resume point for one frame of its tab. */
export interface FrameResume extends ResumePoint {
  frameId: number;
}

/**
 * Background -> panel over the Port. `snapshot` is sent on attach and after a reset. The parcels are the bridges'
 * own, forwarded with ids scoped per frame: the background never reads the bytes.
 */
export type BackgroundToPanel =
  | {
      type: 'snapshot';
      tabId: number;
      pageUrl: string;
      parcels: Parcel[];
      preserveLog: boolean;
      droppedBytes: number;
      /** Connections the bridges' buffers evicted whole before this panel attached. */
      droppedConnections?: number;
    }
  | { type: 'deltas'; tabId: number; parcels: Parcel[] }
  | { type: 'navigated'; tabId: number; pageUrl: string; preserveLog: boolean };

/**
 * Background -> panel, on the same Port, answering `break`: whether the tab's tap took the arm (or disarm); the
 * panel's banner says "armed" only then. Never reaches the analysis worker.
 */
export interface BreakAck {
  type: 'break-armed';
  tabId: number;
  armId: string | null;
  taken: boolean;
}

/** What a panel transport hands the panel: the background's messages with their parcels unpacked, in order. */
export type PanelFeed =
  | {
      type: 'snapshot';
      tabId: number;
      pageUrl: string;
      deltas: ConnectionDelta[];
      preserveLog: boolean;
      droppedBytes: number;
      droppedConnections?: number;
    }
  | { type: 'deltas'; tabId: number; deltas: ConnectionDelta[] }
  | { type: 'navigated'; tabId: number; pageUrl: string; preserveLog: boolean };

/**
 * What a panel transport hands the panel: the background's messages as they came (their parcels are read where the
 * records are kept, the analysis worker, so the UI thread never touches the bytes), or feeds already holding deltas
 * (an imported file, tests).
 */
export type TransportMessage = BackgroundToPanel | PanelFeed;
