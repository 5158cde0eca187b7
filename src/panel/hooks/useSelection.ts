// Panel: what the selection points at (view/focus.ts), and the ways the panes change it. Every pane selects by
// identities it holds (an event by connection and byte offset, a finding by key), so a click needs no round trip.
import { useMemo, useRef } from 'preact/hooks';
import type { EventRef, ViewData } from '../analysis/messages';
import type { Action, Selection } from '../state/store';
import { focusOf, type Focus } from '../view/focus';
import { tickEvent } from '../view/timeline';
import type { TimelineHit } from '../view/timelineHit';

/** The ways to change the selection: stable for the panel's life, so memoized panes keep their props. */
export interface SelectionActions {
  select(selection: Selection | undefined): void;
  clear(): void;
  selectEvent(event: EventRef): void;
  selectFinding(key: string): void;
  selectConnection(connectionId: string): void;
  selectHit(hit: TimelineHit): void;
}

export interface SelectionControls extends SelectionActions {
  focus: Focus;
}

export function useSelection(
  view: ViewData | undefined,
  selection: Selection | undefined,
  dispatch: (action: Action) => void,
): SelectionControls {
  const focus = useMemo(() => focusOf(selection, view), [selection, view]);
  // A timeline hit is resolved against the view on screen when it happens.
  const latest = useRef(view);
  latest.current = view;
  const actions = useMemo((): SelectionActions => {
    const select = (next: Selection | undefined) => dispatch({ type: 'select', selection: next });
    const selectEvent = (event: EventRef) =>
      select({ kind: 'event', connectionId: event.connectionId, start: event.start });
    const selectFinding = (key: string) => select({ kind: 'finding', key });
    const selectConnection = (connectionId: string) => select({ kind: 'connection', connectionId });
    const selectHit = (hit: TimelineHit) => {
      const shown = latest.current;
      if (hit.kind === 'connection') selectConnection(hit.connectionId);
      else if (hit.kind === 'event') {
        const event = shown ? tickEvent(shown.timeline, hit.eventIndex) : undefined;
        if (event) selectEvent(event);
      } else {
        const marker = shown?.timeline.markers.find((m) => m.findingIndex === hit.findingIndex);
        if (marker) selectFinding(marker.key);
      }
    };
    return { select, clear: () => select(undefined), selectEvent, selectFinding, selectConnection, selectHit };
  }, [dispatch]);
  return useMemo(() => ({ ...actions, focus }), [actions, focus]);
}
