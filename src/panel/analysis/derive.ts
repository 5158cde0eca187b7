// Panel worker (pure): the view the UI thread draws, derived from the latest analysis and the user's choices.
// Each part is remembered with what it was made from, so a new selection or a scroll recomputes only its part.
import { waitingItems } from '../view/waiting';
import type { Severity } from '../../core/guard/types';
import { isEmptyFilter, narrows, parseFilter, type TextFilter } from '../view/filter';
import { severityCounts, visibleEventIndexes, visibleFindingIndexes, visibleSessionRows } from '../view/lists';
import type { PanelView } from '../view/model';
import { resolveSelection, type Resolved } from '../view/selection';
import { createTickMemory } from '../view/ticks';
import { layoutTimeline, type TimelineLayout } from '../view/timeline';
import type { Choices, HeldSummary, ViewData, WaitingItem } from './messages';
import { rowsWindow } from './rows';
import { faultItems, findingItems, otherStreamItems, resolvedData, sessionRowData } from './summary';

export interface Analysed {
  view: PanelView;
  /** The latest moment any record reached (the right edge for connections still open). */
  end: number;
  costMs: number;
}

/** What a derived view was made of, for the requests that follow it (rows, detail, payload). */
export interface Derived {
  data: ViewData;
  analysed: Analysed;
  /** Event indexes of the shown rows, in order. */
  rows: ArrayLike<number>;
  resolved: Resolved;
  choices: Choices;
}

const ALL_SEVERITIES: Record<Severity, boolean> = { error: true, warning: true, info: true };

/**
 * Every event in time order: event i is row i (Analysis.events is in time order, indexed by position). One array
 * grows as events arrive (its content never changes), and each view gets its first `count` rows.
 */
function createEveryEvent(): (count: number) => Int32Array {
  let all = new Int32Array(0);
  return (count) => {
    if (all.length < count) {
      const grown = new Int32Array(Math.max(count, all.length * 2));
      for (let i = 0; i < grown.length; i++) grown[i] = i;
      all = grown;
    }
    return all.subarray(0, count);
  };
}

/** Remembers one result and the arguments it was computed from (compared with Object.is). */
function memo<A extends unknown[], R>(compute: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | undefined;
  return (...args) => {
    if (last && last.args.length === args.length && last.args.every((a, i) => Object.is(a, args[i])))
      return last.result;
    const result = compute(...args);
    last = { args, result };
    return result;
  };
}

export type Deriver = (
  analysed: Analysed,
  choices: Choices,
  window: { from: number; to: number },
  held: HeldSummary,
  seq: number,
) => Derived;

export function createDeriver(): Deriver {
  const everyEvent = createEveryEvent();
  const ticks = createTickMemory();
  const filterOf = memo((text: string): TextFilter => parseFilter(text));
  // Typing on in the filter box narrows what is shown: the next filter looks only at the rows the last one kept.
  let lastRows: { view: PanelView; sessionKey: string | undefined; filter: TextFilter; rows: number[] } | undefined;
  const eventRows = memo((view: PanelView, sessionKey: string | undefined, filter: TextFilter): ArrayLike<number> => {
    if (sessionKey === undefined && isEmptyFilter(filter)) return everyEvent(view.analysis.events.length);
    const last = lastRows;
    const narrower = last && last.view === view && last.sessionKey === sessionKey && narrows(last.filter, filter);
    const rows = visibleEventIndexes(view, sessionKey, filter, narrower ? last.rows : undefined);
    lastRows = { view, sessionKey, filter, rows };
    return rows;
  });
  // Kept as the same array while its content is the same, so what is made from it (the timeline) is not redone.
  let lastFindingRows: number[] = [];
  const findingRows = memo(
    (view: PanelView, sessionKey: string | undefined, filter: TextFilter, shown: Record<Severity, boolean>) => {
      const rows = visibleFindingIndexes(view, sessionKey, filter, shown);
      const same = rows.length === lastFindingRows.length && rows.every((r, i) => r === lastFindingRows[i]);
      if (!same) lastFindingRows = rows;
      return lastFindingRows;
    },
  );
  const unfilteredFindings = memo(
    (view: PanelView, sessionKey: string | undefined, filter: TextFilter, shown: Record<Severity, boolean>) =>
      visibleFindingIndexes(view, sessionKey, filter, shown),
  );
  const sessionRows = memo((view: PanelView, filter: TextFilter) =>
    visibleSessionRows(view, filter).map(sessionRowData),
  );
  const findings = memo((view: PanelView, indexes: readonly number[]) => findingItems(view, indexes));
  const otherStreams = memo((view: PanelView) => otherStreamItems(view));
  const faults = memo((view: PanelView) => faultItems(view));
  const waiting = memo((view: PanelView) => waitingItems(view));
  const counts = memo((view: PanelView, sessionKey: string | undefined) => severityCounts(view, sessionKey));
  const layout = memo(
    (
      view: PanelView,
      sessionKey: string | undefined,
      indexes: readonly number[],
      end: number,
      waitingNow: readonly WaitingItem[],
    ): TimelineLayout =>
      layoutTimeline(view, sessionKey, indexes, end, ticks, new Set(waitingNow.map((w) => w.connectionId))),
  );
  // The rows' identity: new whenever what a row at a position shows may differ.
  let version = 0;
  const versionOf = memo(
    (_rows: ArrayLike<number>, _shown: Record<Severity, boolean>, _truncate: number, _view: PanelView) => ++version,
  );

  return (analysed, choices, window, held, seq) => {
    const { view } = analysed;
    const filter = filterOf(choices.filterText);
    const chosen = choices.sessionKey;
    const sessionKey = chosen !== undefined && view.sessionsByKey.has(chosen) ? chosen : undefined;
    const rows = eventRows(view, sessionKey, filter);
    const shownFindings = findingRows(view, sessionKey, filter, choices.severities);
    const allFindings = unfilteredFindings(view, sessionKey, filter, ALL_SEVERITIES);
    const listed = findings(view, shownFindings);
    const others = otherStreams(view);
    const waitingNow = waiting(view);
    const timeline = layout(view, sessionKey, shownFindings, analysed.end, waitingNow);
    const rowsVersion = versionOf(rows, choices.severities, choices.truncateBytes, view);
    const resolved = resolveSelection(view, choices.selection);
    const sessionStart = sessionKey !== undefined ? view.sessionsByKey.get(sessionKey)?.startTime : undefined;
    const a = view.analysis;
    const data: ViewData = {
      seq,
      version: rowsVersion,
      costMs: analysed.costMs,
      held,
      totals: {
        sessions: a.sessions.length,
        connections: a.connections.length,
        events: a.events.length,
        findings: a.findings.length,
      },
      ...(sessionKey !== undefined ? { sessionKey } : {}),
      sessionRows: sessionRows(view, filter),
      shownEvents: rows.length,
      counts: counts(view, sessionKey),
      hiddenBySeverity: allFindings.length - shownFindings.length,
      findings: listed.items,
      findingsLeftOff: listed.leftOff,
      waiting: waitingNow,
      multipleSessions: a.sessions.length > 1,
      faults: faults(view),
      otherStreams: others.items,
      otherStreamsLeftOff: others.leftOff,
      notices: a.notices.map(({ kind, message }) => ({ kind, message })),
      timeline,
      origin: sessionStart ?? timeline.start,
      resolved: resolvedData(view, choices.selection, resolved, rows),
      rows: rowsWindow(view, rows, window, choices.severities, choices.truncateBytes, rowsVersion),
    };
    return { data, analysed, rows, resolved, choices };
  };
}
