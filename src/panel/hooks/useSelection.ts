// Panel: the selection resolved against the current analysis, and the ways the panes change it.
import { useMemo } from 'preact/hooks';
import type { Action, Selection } from '../state/store';
import type { PanelView } from '../view/model';
import { eventSelection, findingSelection, resolveSelection, type Resolved } from '../view/selection';
import type { TimelineHit } from '../view/timelineHit';

export interface SelectionControls {
  resolved: Resolved;
  /** Whether the selection points at anything in this analysis (a narrow workspace shows the detail only then). */
  hasSelection: boolean;
  select(selection: Selection | undefined): void;
  selectEvent(eventIndex: number): void;
  selectFinding(findingIndex: number): void;
  selectConnection(connectionId: string): void;
  selectHit(hit: TimelineHit): void;
}

export function useSelection(
  view: PanelView | undefined,
  selection: Selection | undefined,
  dispatch: (action: Action) => void,
): SelectionControls {
  const resolved = useMemo(() => (view ? resolveSelection(view, selection) : {}), [view, selection]);
  const select = (next: Selection | undefined) => dispatch({ type: 'select', selection: next });
  const selectEvent = (index: number) => {
    if (view) select(eventSelection(view, index));
  };
  const selectFinding = (index: number) => {
    if (view) select(findingSelection(view, index));
  };
  const selectConnection = (connectionId: string) => select({ kind: 'connection', connectionId });
  const selectHit = (hit: TimelineHit) => {
    if (hit.kind === 'event') selectEvent(hit.eventIndex);
    else if (hit.kind === 'finding') selectFinding(hit.findingIndex);
    else selectConnection(hit.connectionId);
  };
  const hasSelection =
    resolved.eventIndex !== undefined || resolved.findingIndex !== undefined || resolved.connectionId !== undefined;
  return { resolved, hasSelection, select, selectEvent, selectFinding, selectConnection, selectHit };
}
