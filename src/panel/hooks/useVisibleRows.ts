// Panel: what the session selection, the filter box and the severity toggles leave of the analysis.
import { useMemo } from 'preact/hooks';
import type { Severity } from '../../core/guard/types';
import type { PanelState } from '../state/store';
import { parseFilter } from '../view/filter';
import { severityCounts, visibleEventIndexes, visibleFindingIndexes, visibleSessionRows } from '../view/lists';
import type { PanelView, SessionRow } from '../view/model';

export interface VisibleRows {
  /** The chosen session while it still exists in the analysis; undefined = all sessions. */
  sessionKey: string | undefined;
  sessionRows: SessionRow[];
  eventRows: number[];
  findingRows: number[];
  /** Findings of the shown sessions, by severity, whatever the toggles say. */
  counts: Record<Severity, number>;
  /** Findings that pass the session and filter but not the severity toggles. */
  hiddenBySeverity: number;
}

const ALL_SEVERITIES: Record<Severity, boolean> = { error: true, warning: true, info: true };
const NO_FINDINGS: Record<Severity, number> = { error: 0, warning: 0, info: 0 };

type Choices = Pick<PanelState, 'filterText' | 'sessionKey' | 'severities'>;

export function useVisibleRows(
  view: PanelView | undefined,
  { filterText, sessionKey: chosen, severities }: Choices,
): VisibleRows {
  const filter = useMemo(() => parseFilter(filterText), [filterText]);
  const sessionKey = chosen !== undefined && view?.sessionsByKey.has(chosen) ? chosen : undefined;
  const sessionRows = useMemo(() => (view ? visibleSessionRows(view, filter) : []), [view, filter]);
  const eventRows = useMemo(
    () => (view ? visibleEventIndexes(view, sessionKey, filter) : []),
    [view, sessionKey, filter],
  );
  const findingRows = useMemo(
    () => (view ? visibleFindingIndexes(view, sessionKey, filter, severities) : []),
    [view, sessionKey, filter, severities],
  );
  const unfilteredBySeverity = useMemo(
    () => (view ? visibleFindingIndexes(view, sessionKey, filter, ALL_SEVERITIES).length : 0),
    [view, sessionKey, filter],
  );
  const counts = useMemo(() => (view ? severityCounts(view, sessionKey) : NO_FINDINGS), [view, sessionKey]);
  return {
    sessionKey,
    sessionRows,
    eventRows,
    findingRows,
    counts,
    hiddenBySeverity: unfilteredBySeverity - findingRows.length,
  };
}
