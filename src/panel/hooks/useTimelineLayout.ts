// Panel: the timeline's lanes for the shown session and findings, and where its axis counts from.
import { useMemo } from 'preact/hooks';
import { captureEnd, layoutTimeline, type TimelineLayout } from '../view/timeline';
import type { Derived } from './useDerived';

export interface TimelineView {
  layout: TimelineLayout | undefined;
  /** Axis labels count from the session start, or from the capture start when every session is shown. */
  origin: number;
}

export function useTimelineLayout(
  derived: Derived | undefined,
  sessionKey: string | undefined,
  findingRows: readonly number[],
): TimelineView {
  const view = derived?.view;
  const end = useMemo(() => captureEnd(derived?.records.connections ?? []), [derived]);
  const layout = useMemo(
    () => (view ? layoutTimeline(view, sessionKey, findingRows, end) : undefined),
    [view, sessionKey, findingRows, end],
  );
  const sessionStart = sessionKey !== undefined ? view?.sessionsByKey.get(sessionKey)?.startTime : undefined;
  const origin = sessionKey !== undefined ? (sessionStart ?? 0) : (layout?.start ?? 0);
  return { layout, origin };
}
