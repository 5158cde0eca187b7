// Panel worker (pure): the small lists the UI thread draws whole: session rows, the findings list, the other
// streams, and what the selection points at.
import { reconnectSummary } from '../../core/guard/reconnects';
import { positionOf } from '../view/eventRows';
import { provokingFault, struckFaults, type StruckFault } from '../view/faults';
import { formatRelMs, shortId } from '../view/format';
import { relayedTitle } from '../view/relayed';
import { findingKey, type PanelView, type SessionRow } from '../view/model';
import type { Resolved } from '../view/selection';
import { findingTargetData } from './detail-data';
import {
  MAX_FINDINGS_SENT,
  MAX_OTHER_STREAMS_SENT,
  selectionKey,
  type FaultItem,
  type FaultLinkData,
  type FindingItem,
  type FindingTargetData,
  type OtherStreamRowData,
  type ResolvedData,
  type Selection,
  type SessionRowData,
} from './messages';

export function sessionRowData(row: SessionRow): SessionRowData {
  const s = row.session;
  return {
    key: row.key,
    ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}),
    ...(s.stateless ? { stateless: true as const } : {}),
    ...(s.relayed ? { relayed: relayedTitle(s.relayed) } : {}),
    // An era change inside one session (a probe, then a fallback) is labelled, not a session of its own.
    era: s.probedEra !== undefined ? `${s.era} (probed ${s.probedEra})` : s.era,
    origin: s.origin,
    endpoint: s.endpoint,
    startTime: s.startTime,
    streams: row.streams,
    connections: row.connections,
    events: row.events,
    counts: row.counts,
    ...(row.worst ? { worst: row.worst } : {}),
    // A relay's reconnects happen out of sight (only its GET stream's close is reported): not summed up as the client's.
    ...(row.reconnect && !s.relayed ? { reconnect: reconnectSummary(row.reconnect) } : {}),
  };
}

/** The SSE streams that are not MCP, at most MAX_OTHER_STREAMS_SENT of them; `leftOff` counts the rest. */
export function otherStreamItems(view: PanelView): { items: OtherStreamRowData[]; leftOff: number } {
  const all = view.analysis.otherStreams;
  const items = all.slice(0, MAX_OTHER_STREAMS_SENT).map((s): OtherStreamRowData => ({
    connectionId: s.connectionId,
    method: s.method,
    url: s.url,
    ...(s.status !== undefined ? { status: s.status } : {}),
    events: s.events,
    bytes: s.bytes,
    ...(s.kind !== undefined ? { kind: s.kind } : {}),
    reason: s.reason,
  }));
  return { items, leftOff: all.length - items.length };
}

/** The shown findings, at most MAX_FINDINGS_SENT of them; `leftOff` counts the rest. */
export function findingItems(view: PanelView, indexes: readonly number[]): { items: FindingItem[]; leftOff: number } {
  const multiple = view.analysis.sessions.length > 1;
  const faults = struckFaults(view);
  const items: FindingItem[] = [];
  for (const index of indexes.slice(0, MAX_FINDINGS_SENT)) {
    const f = view.analysis.findings[index];
    if (!f) continue;
    const target = findingTargetData(view, index);
    const session = target.sessionKey !== undefined ? view.sessionsByKey.get(target.sessionKey) : undefined;
    items.push({
      index,
      key: findingKey(f),
      rule: f.rule,
      severity: f.severity,
      message: f.message,
      ...(multiple && session ? { session: shortId(session.sessionId ?? session.key) } : {}),
      time: target.time !== undefined && session ? `${formatRelMs(target.time - session.startTime)} ms` : '',
      target,
      ...linkedFault(faults, target),
    });
  }
  return { items, leftOff: Math.max(0, indexes.length - MAX_FINDINGS_SENT) };
}

export function resolvedData(
  view: PanelView,
  selection: Selection | undefined,
  resolved: Resolved,
  rows: ArrayLike<number>,
): ResolvedData {
  const finding = resolved.findingIndex !== undefined ? view.analysis.findings[resolved.findingIndex] : undefined;
  const event = resolved.eventIndex !== undefined ? view.analysis.events.at(resolved.eventIndex) : undefined;
  return {
    for: selectionKey(selection),
    ...(finding ? { findingKey: findingKey(finding) } : {}),
    ...(event ? { event: { connectionId: event.connectionId, start: event.start }, eventIndex: event.index } : {}),
    ...(resolved.connectionId !== undefined ? { connectionId: resolved.connectionId } : {}),
    ...(resolved.time !== undefined ? { time: resolved.time } : {}),
    position: event ? positionOf(rows, event.index) : -1,
  };
}

function linkedFault(faults: readonly StruckFault[], target: FindingTargetData): { fault?: FaultLinkData } {
  const struck = provokingFault(faults, target);
  if (!struck) return {};
  return { fault: { fault: struck.mark.fault, note: struck.mark.note, connectionId: struck.connectionId } };
}

/** Every fault that struck, for the banner and the findings' links (few: one per arming, one shot each). */
export function faultItems(view: PanelView): FaultItem[] {
  return struckFaults(view).map(({ connectionId, sessionKey, mark }) => {
    const start = view.sessionsByKey.get(sessionKey)?.startTime;
    return {
      connectionId,
      arm: mark.arm,
      fault: mark.fault,
      action: mark.action,
      note: mark.note,
      time: start !== undefined ? `${formatRelMs(mark.t - start)} ms` : '',
    };
  });
}
