// Panel (pure): the UI thread's state and its reducer: the link, the page, the notice and the user's choices. The
// records themselves live in the analysis worker (state/held.ts); the UI thread only sees what it draws.
import type { Severity } from '../../core/guard/types';
import { plural } from '../../core/words';
import type { TransportMessage } from '../../protocol/messages';
import { carriesRecords } from '../../protocol/parcel';
import type { Selection } from '../analysis/messages';
import type { LinkStatus } from '../transport';

export type { Selection };

export type Source = { kind: 'live' } | { kind: 'file'; name: string };

export interface PanelState {
  source: Source;
  link: LinkStatus;
  recording: boolean;
  preserveLog: boolean;
  pageUrl?: string;
  /** Navigations of the inspected page seen (a reload too): each brings a fresh tap, armed with nothing. */
  navigations: number;
  /** The tap's last answer to a Break arm: the arm it holds, and whether it took it at all. */
  breakAck?: { armId: string | null; taken: boolean };
  /** Bytes of connections the bridges' bounded buffers evicted whole before this panel attached. */
  droppedBytes: number;
  /** How many connections those were. */
  droppedConnections: number;
  /**
   * Records were handed to the worker since the panel was last emptied: until the worker says what it holds, the
   * panel shows "analysing", not the empty state.
   */
  received: boolean;
  filterText: string;
  severities: Record<Severity, boolean>;
  /** Session shown; undefined = all. */
  sessionKey?: string;
  selection?: Selection;
  notice?: { kind: 'error' | 'info'; text: string };
  /** A file being imported: how far the worker has read it. */
  importing?: ImportProgress;
}

export interface ImportProgress {
  seq: number;
  name: string;
  bytes: number;
  total: number;
}

export const initialState: PanelState = {
  source: { kind: 'live' },
  link: 'connecting',
  recording: true,
  preserveLog: false,
  navigations: 0,
  droppedBytes: 0,
  droppedConnections: 0,
  received: false,
  filterText: '',
  severities: { error: true, warning: true, info: true },
};

export type Action =
  | { type: 'transport'; message: TransportMessage }
  | { type: 'break-ack'; armId: string | null; taken: boolean }
  | { type: 'link'; status: LinkStatus }
  | { type: 'clear' }
  | { type: 'toggle-recording' }
  | { type: 'set-preserve-log'; preserve: boolean }
  | { type: 'set-filter'; text: string }
  | { type: 'toggle-severity'; severity: Severity }
  | { type: 'select-session'; sessionKey: string | undefined }
  | { type: 'select'; selection: Selection | undefined }
  | { type: 'import-progress'; progress: ImportProgress }
  | { type: 'imported'; name: string; connections: number }
  | { type: 'import-failed'; name: string; message: string }
  | { type: 'import-cancelled'; name: string }
  | { type: 'back-to-live' }
  | { type: 'dismiss-notice' };

const cleared = (state: PanelState): PanelState => {
  const { selection: _selection, sessionKey: _sessionKey, ...rest } = state;
  return { ...rest, droppedBytes: 0, droppedConnections: 0, received: false };
};
export function reduce(state: PanelState, action: Action): PanelState {
  switch (action.type) {
    case 'transport':
      return onTransport(state, action.message);
    case 'link':
      return { ...state, link: action.status };
    case 'break-ack':
      return { ...state, breakAck: { armId: action.armId, taken: action.taken } };
    case 'clear': {
      // Clear also closes an imported file: the panel is empty and live again.
      const { notice: _notice, ...rest } = cleared(state);
      return { ...rest, source: { kind: 'live' } };
    }
    case 'toggle-recording':
      return { ...state, recording: !state.recording };
    case 'set-preserve-log':
      return { ...state, preserveLog: action.preserve };
    case 'set-filter':
      return { ...state, filterText: action.text };
    case 'toggle-severity':
      return { ...state, severities: { ...state.severities, [action.severity]: !state.severities[action.severity] } };
    case 'select-session': {
      const { sessionKey: _s, ...rest } = state;
      return action.sessionKey === undefined ? rest : { ...rest, sessionKey: action.sessionKey };
    }
    case 'select': {
      const { selection: _s, ...rest } = state;
      return action.selection === undefined ? rest : { ...rest, selection: action.selection };
    }
    case 'import-progress': {
      // The UI starts an import at 0 bytes and the worker's reports move it on; a late report of one that ended is not shown.
      const { progress } = action;
      const current = state.importing;
      const starts = progress.bytes === 0 && (!current || current.seq < progress.seq);
      const moves = current?.seq === progress.seq && progress.bytes >= current.bytes;
      return starts || moves ? { ...state, importing: progress } : state;
    }
    case 'imported': {
      const base = cleared(withoutImport(state));
      return {
        ...base,
        source: { kind: 'file', name: action.name },
        received: action.connections > 0,
        notice: { kind: 'info', text: `Viewing ${action.name}: ${plural(action.connections, 'connection')}.` },
      };
    }
    case 'import-failed': {
      const text = `Could not import ${action.name}: ${action.message}`;
      return { ...withoutImport(state), notice: { kind: 'error', text } };
    }
    case 'import-cancelled': {
      const text = `Import of ${action.name} cancelled: nothing changed.`;
      return { ...withoutImport(state), notice: { kind: 'info', text } };
    }
    case 'back-to-live': {
      const { notice: _notice, ...rest } = cleared(state);
      return { ...rest, source: { kind: 'live' } };
    }
    case 'dismiss-notice': {
      const { notice: _notice, ...rest } = state;
      return rest;
    }
  }
}

function onTransport(state: PanelState, message: TransportMessage): PanelState {
  if (state.source.kind === 'file') return state; // an imported file is on screen; live data waits for "back to live"
  switch (message.type) {
    case 'snapshot':
      // The records go to the worker (state/held.ts); the page and its buffer's losses are shown here.
      return {
        ...state,
        pageUrl: message.pageUrl,
        preserveLog: message.preserveLog,
        // Each bridge reports what it evicted since the page loaded; a bridge that resumed after a worker restart
        // reports none (this panel lost nothing): the largest report stands.
        droppedBytes: Math.max(state.droppedBytes, message.droppedBytes),
        droppedConnections: Math.max(state.droppedConnections, message.droppedConnections ?? 0),
        received: state.received || carriesRecords(message),
      };
    case 'deltas':
      // The same state object when nothing changes: a live stream does not re-render the panel per message.
      return state.received || !carriesRecords(message) || !state.recording ? state : { ...state, received: true };
    case 'navigated': {
      const base = message.preserveLog ? state : cleared(state);
      return {
        ...base,
        pageUrl: message.pageUrl,
        preserveLog: message.preserveLog,
        navigations: state.navigations + 1,
      };
    }
  }
}

/** The state once an import has ended, however it ended: no progress shown. */
function withoutImport(state: PanelState): PanelState {
  const { importing: _importing, ...rest } = state;
  return rest;
}
