// Panel worker (pure): the records the analysis worker holds, and how transport messages, clear, import and the
// recording switch change them. No DOM, no extension APIs.
import type { Capture } from '../../core/capture/model';
import type { PanelFeed } from '../../protocol/messages';
import { DEFAULT_PANEL_BUDGET, enforceBudget, NO_DROPS, type BudgetDrops, type PanelBudget } from './budget';
import { captureToRecords } from './capture';
import { applyDeltas, emptyRecords, mergeSnapshot, type RecordsState } from './records';

export interface HeldState {
  records: RecordsState;
  /** An imported file is on screen: live data waits until the UI goes back to live (a clear). */
  source: 'live' | 'file';
  /** Until when an imported file's recorder watched (its `observedUntil`): silence is judged to there, not to now. */
  fileObservedUntil?: number;
  /** False while recording is paused: connections already known keep filling, new ones are not taken. */
  recording: boolean;
  /** The inspected page, for the export's `page`. */
  pageUrl?: string;
  /** The per-tab budget live records are kept within (budget.ts); an imported file is the user's and is kept whole. */
  budget: PanelBudget;
  /** Connections the budget dropped whole since the last clear, and their bytes. */
  dropped: BudgetDrops;
}

export const initialHeld: HeldState = {
  records: emptyRecords,
  source: 'live',
  recording: true,
  budget: DEFAULT_PANEL_BUDGET,
  dropped: NO_DROPS,
};

export type HeldCommand =
  | { type: 'transport'; message: PanelFeed }
  | { type: 'recording'; on: boolean }
  | { type: 'clear' }
  | { type: 'imported'; capture: Capture }
  | { type: 'budget'; budget: PanelBudget };

/** Empty records that still recognise the connections just dropped, so their late deltas are not "lost data". */
export function forget(records: RecordsState): RecordsState {
  if (records.connections.length === 0)
    return records.ignoredIds.size === 0 ? emptyRecords : { ...emptyRecords, ignoredIds: records.ignoredIds };
  return { ...emptyRecords, ignoredIds: new Set([...records.ignoredIds, ...records.indexById.keys()]) };
}

export function reduceHeld(state: HeldState, command: HeldCommand): HeldState {
  switch (command.type) {
    case 'transport':
      return withinBudget(onTransport(state, command.message));
    case 'budget':
      return withinBudget({ ...state, budget: command.budget });
    case 'recording':
      return { ...state, recording: command.on };
    case 'clear':
      // Clear also closes an imported file: the panel is empty and live again.
      return {
        ...state,
        records: forget(state.records),
        source: 'live',
        fileObservedUntil: undefined,
        dropped: NO_DROPS,
      };
    case 'imported':
      return {
        ...state,
        records: captureToRecords(command.capture),
        source: 'file',
        fileObservedUntil: command.capture.observedUntil,
      };
  }
}

/** Live records brought within the budget (the same state when they are). */
function withinBudget(state: HeldState): HeldState {
  if (state.source !== 'live') return state;
  const { records, dropped } = enforceBudget(state.records, state.budget, state.dropped);
  return records === state.records && dropped === state.dropped ? state : { ...state, records, dropped };
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
      if (message.preserveLog) return { ...state, pageUrl: message.pageUrl };
      return { ...state, records: forget(state.records), pageUrl: message.pageUrl, dropped: NO_DROPS };
    }
  }
}
