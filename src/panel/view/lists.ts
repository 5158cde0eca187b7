// Panel (pure): which sessions, events and findings pass the session selection, filter box and severity toggles.
import type { EventView } from '../../core/model/types';
import type { Severity } from '../../core/guard/types';
import { envelopesOf } from './events';
import { describeMessages } from './format';
import { isEmptyFilter, matchesFilter, type TextFilter } from './filter';
import type { PanelView, SessionRow } from './model';

/** Event data past this many characters is not searched: keeps typing in the filter box instant on huge payloads. */
export const FILTER_DATA_LIMIT = 65_536;

export function eventHaystack(event: EventView): string {
  const whole = event.data;
  const data = whole.length > FILTER_DATA_LIMIT ? whole.slice(0, FILTER_DATA_LIMIT) : whole;
  return [event.type, event.lastEventId, event.streamId, describeMessages(envelopesOf(event)), data]
    .join('\n')
    .toLowerCase();
}

export function visibleSessionRows(view: PanelView, filter: TextFilter): SessionRow[] {
  if (isEmptyFilter(filter)) return view.sessionRows;
  return view.sessionRows.filter((row) => {
    const s = row.session;
    return matchesFilter(filter, [s.key, s.sessionId ?? '', s.origin, s.endpoint, s.era].join('\n').toLowerCase());
  });
}

/**
 * Event indexes in time order. The filter box narrows events only when it names something they contain.
 * `within`: only these event indexes are candidates (the result of a filter this one narrows, see narrows()).
 */
export function visibleEventIndexes(
  view: PanelView,
  sessionKey: string | undefined,
  filter: TextFilter,
  within?: ArrayLike<number>,
): number[] {
  const out: number[] = [];
  const empty = isEmptyFilter(filter);
  const keep = (event: EventView) =>
    (sessionKey === undefined || event.sessionKey === sessionKey) &&
    (empty || matchesFilter(filter, eventHaystack(event)));
  if (within) {
    for (let i = 0; i < within.length; i++) {
      const event = view.analysis.events.at(within[i] as number);
      if (event && keep(event)) out.push(event.index);
    }
    return out;
  }
  for (const event of view.analysis.events) if (keep(event)) out.push(event.index);
  return out;
}

export type SeverityToggles = Record<Severity, boolean>;

export function visibleFindingIndexes(
  view: PanelView,
  sessionKey: string | undefined,
  filter: TextFilter,
  shown: SeverityToggles,
): number[] {
  const out: number[] = [];
  view.analysis.findings.forEach((f, i) => {
    if (!shown[f.severity]) return;
    if (sessionKey !== undefined && view.findingTargets[i]?.sessionKey !== sessionKey) return;
    const hay = [f.rule, f.message, f.eventId ?? '', f.streamId ?? '', f.severity].join('\n').toLowerCase();
    if (!matchesFilter(filter, hay)) return;
    out.push(i);
  });
  return out;
}

export function severityCounts(view: PanelView, sessionKey: string | undefined): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  view.analysis.findings.forEach((f, i) => {
    if (sessionKey !== undefined && view.findingTargets[i]?.sessionKey !== sessionKey) return;
    counts[f.severity]++;
  });
  return counts;
}
