// Panel worker (pure): the records the analysis worker holds, and how transport messages, clear, import and the
// recording switch change them. No DOM, no extension APIs.
import type { Capture } from '../../core/capture/model';
import type { PanelFeed } from '../../protocol/messages';
import { captureToRecords } from './capture';
import { applyDeltas, emptyRecords, mergeSnapshot, type RecordsState } from './records';

export interface HeldState {
  records: RecordsState;
  /** An imported file is on screen: live data waits until the UI goes back to live (a clear). */
  source: 'live' | 'file';
  /** False while recording is paused: connections already known keep filling, new ones are not taken. */
  recording: boolean;
  /** The inspected page, for the export's `page`. */
  pageUrl?: string;
}

export const initialHeld: HeldState = { records: emptyRecords, source: 'live', recording: true };

export type HeldCommand =
  | { type: 'transport'; message: PanelFeed }
  | { type: 'recording'; on: boolean }
  | { type: 'clear' }
  | { type: 'imported'; capture: Capture };

/** Empty records that still recognise the connections just dropped, so their late deltas are not "lost data". */
export function forget(records: RecordsState): RecordsState {
  if (records.connections.length === 0)
    return records.ignoredIds.size === 0 ? emptyRecords : { ...emptyRecords, ignoredIds: records.ignoredIds };
  return { ...emptyRecords, ignoredIds: new Set([...records.ignoredIds, ...records.indexById.keys()]) };
}

export function reduceHeld(state: HeldState, command: HeldCommand): HeldState {
  switch (command.type) {
    case 'transport':
      return onTransport(state, command.message);
    case 'recording':
      return { ...state, recording: command.on };
    case 'clear':
      // Clear also closes an imported file: the panel is empty and live again.
      return { ...state, records: forget(state.records), source: 'live' };
    case 'imported':
      return { ...state, records: captureToRecords(command.capture), source: 'file' };
  }
}

function onTransport(state: HeldState, message: PanelFeed): HeldState {
  if (state.source === 'file') return state; // an imported file is on screen; live data waits for "back to live"
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
      };
    case 'deltas':
      return { ...state, records: applyDeltas(state.records, message.deltas, { acceptNew: state.recording }) };
    case 'navigated': {
      const records = message.preserveLog ? state.records : forget(state.records);
      return { ...state, records, pageUrl: message.pageUrl };
    }
  }
}
