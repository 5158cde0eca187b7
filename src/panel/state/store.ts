// Panel (pure): the panel's state and its reducer. Raw records plus UI choices; everything else is derived.
import type { Capture } from '../../core/capture/model';
import type { Severity } from '../../core/guard/types';
import type { BackgroundToPanel } from '../../protocol/messages';
import type { LinkStatus } from '../transport';
import { captureToRecords } from './capture';
import { applyDeltas, emptyRecords, mergeSnapshot, type RecordsState } from './records';

/** What is selected, by identities that survive re-analysis (an event by connection and byte offset). */
export type Selection =
  | { kind: 'event'; connectionId: string; start: number }
  | { kind: 'connection'; connectionId: string }
  | { kind: 'finding'; key: string };

export type Source = { kind: 'live' } | { kind: 'file'; name: string };

export interface PanelState {
  records: RecordsState;
  source: Source;
  link: LinkStatus;
  recording: boolean;
  preserveLog: boolean;
  pageUrl?: string;
  /** Bytes the background's bounded buffer had to drop before the panel attached. */
  droppedBytes: number;
  filterText: string;
  severities: Record<Severity, boolean>;
  /** Session shown; undefined = all. */
  sessionKey?: string;
  selection?: Selection;
  notice?: { kind: 'error' | 'info'; text: string };
}

export const initialState: PanelState = {
  records: emptyRecords,
  source: { kind: 'live' },
  link: 'connecting',
  recording: true,
  preserveLog: false,
  droppedBytes: 0,
  filterText: '',
  severities: { error: true, warning: true, info: true },
};

export type Action =
  | { type: 'transport'; message: BackgroundToPanel }
  | { type: 'link'; status: LinkStatus }
  | { type: 'clear' }
  | { type: 'toggle-recording' }
  | { type: 'set-preserve-log'; preserve: boolean }
  | { type: 'set-filter'; text: string }
  | { type: 'toggle-severity'; severity: Severity }
  | { type: 'select-session'; sessionKey: string | undefined }
  | { type: 'select'; selection: Selection | undefined }
  | { type: 'imported'; name: string; capture: Capture }
  | { type: 'import-failed'; name: string; message: string }
  | { type: 'back-to-live' }
  | { type: 'dismiss-notice' };

/** Empty records that still recognise the connections just dropped, so their late deltas are not "lost data". */
function forget(records: RecordsState): RecordsState {
  if (records.connections.length === 0)
    return records.ignoredIds.size === 0 ? emptyRecords : { ...emptyRecords, ignoredIds: records.ignoredIds };
  return { ...emptyRecords, ignoredIds: new Set([...records.ignoredIds, ...records.indexById.keys()]) };
}

const cleared = (state: PanelState): PanelState => {
  const { selection: _selection, sessionKey: _sessionKey, ...rest } = state;
  return { ...rest, records: forget(state.records), droppedBytes: 0 };
};

export function reduce(state: PanelState, action: Action): PanelState {
  switch (action.type) {
    case 'transport':
      return onTransport(state, action.message);
    case 'link':
      return { ...state, link: action.status };
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
    case 'imported': {
      const base = cleared(state);
      return {
        ...base,
        records: captureToRecords(action.capture),
        source: { kind: 'file', name: action.name },
        notice: { kind: 'info', text: `Viewing ${action.name}: ${action.capture.connections.length} connections.` },
      };
    }
    case 'import-failed':
      return { ...state, notice: { kind: 'error', text: `Could not import ${action.name}: ${action.message}` } };
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

function onTransport(state: PanelState, message: BackgroundToPanel): PanelState {
  if (state.source.kind === 'file') return state; // an imported file is on screen; live data waits for "back to live"
  switch (message.type) {
    case 'snapshot':
      // Merged, not replaced: after a worker restart the snapshot lacks what no live bridge holds any more.
      return {
        ...state,
        records: mergeSnapshot(
          state.records,
          applyDeltas({ ...emptyRecords, ignoredIds: state.records.ignoredIds }, message.deltas),
        ),
        pageUrl: message.pageUrl,
        preserveLog: message.preserveLog,
        droppedBytes: message.droppedBytes,
      };
    case 'deltas':
      return { ...state, records: applyDeltas(state.records, message.deltas, { acceptNew: state.recording }) };
    case 'navigated': {
      const base = message.preserveLog ? state : cleared(state);
      return { ...base, pageUrl: message.pageUrl, preserveLog: message.preserveLog };
    }
  }
}
