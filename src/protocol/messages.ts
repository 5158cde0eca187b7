// Runs anywhere: one message union per hop (page -> bridge -> background -> panel, and back).
import type { ConnectionDelta } from './records';

/** Page MAIN world (tap) -> isolated-world bridge, via window.postMessage. Untrusted: the bridge validates. */
export interface TapToBridge {
  source: 'mcp-stream-inspector/tap';
  /** Random per tap instance so the bridge ignores other senders' noise. */
  instance: string;
  deltas: ConnectionDelta[];
}

/** Bridge -> background (runtime.sendMessage). Large batches are split below message limits. */
export type BridgeToBackground =
  | { type: 'deltas'; documentUrl: string; frameId?: number; deltas: ConnectionDelta[] }
  | { type: 'navigated'; documentUrl: string };

/** Panel -> background, over a runtime Port named "panel". */
export type PanelToBackground =
  | { type: 'attach'; tabId: number }
  | { type: 'clear'; tabId: number }
  | { type: 'set-preserve-log'; tabId: number; preserve: boolean };

/** Background -> panel over the Port. `snapshot` is sent on attach and after a reset. */
export type BackgroundToPanel =
  | { type: 'snapshot'; tabId: number; pageUrl: string; deltas: ConnectionDelta[]; preserveLog: boolean; droppedBytes: number }
  | { type: 'deltas'; tabId: number; deltas: ConnectionDelta[] }
  | { type: 'navigated'; tabId: number; pageUrl: string; preserveLog: boolean };
