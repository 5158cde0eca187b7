// Panel (pure): indexes derived from one Analysis, computed once per analysis and shared by every view.
import type { ConnectionView, EventView, SessionView, StreamView } from '../../core/model/types';
import type { Analysis } from '../../core/analyze';
import type { Finding, Severity } from '../../core/guard/types';
import type { ReconnectBehaviour } from '../../core/guard/reconnects';

import { mostSevere as worstOf, SEVERITIES as severities } from '../../core/guard/severity';
import { createIdSearch, type IdSearch } from './id-search';

export { severities, worstOf };

/** Where a finding points: the event it concerns when one can be named, its connection, and a time to show it at. */
export interface FindingTarget {
  sessionKey?: string;
  connectionId?: string;
  eventIndex?: number;
  time?: number;
}

export interface SessionRow {
  key: string;
  session: SessionView;
  streams: number;
  connections: number;
  events: number;
  counts: Record<Severity, number>;
  worst?: Severity;
  /** What the session's client does when a stream ends (2025 eras only). */
  reconnect?: ReconnectBehaviour;
}

export interface PanelView {
  analysis: Analysis;
  connectionsById: ReadonlyMap<string, ConnectionView>;
  streamsById: ReadonlyMap<string, StreamView>;
  sessionsByKey: ReadonlyMap<string, SessionView>;
  sessionRows: SessionRow[];
  findingTargets: FindingTarget[];
  /** Finding indexes per event index / per connection id (all findings, before any filter). */
  findingsByEvent: ReadonlyMap<number, number[]>;
  findingsByConnection: ReadonlyMap<string, number[]>;
  /** Event index by its stable key (see eventKey), looked up in its connection (no map of every event). */
  eventByKey: EventLookup;
}

export interface EventLookup {
  get(key: string): number | undefined;
}

/** Events keep their identity across re-analysis by connection and byte offset, not by index. */
export function eventKey(event: Pick<EventView, 'connectionId' | 'start'>): string {
  return `${event.connectionId}@${event.start}`;
}

/** A finding's identity across re-analysis (findings have no id of their own). */
export function findingKey(f: Finding): string {
  return [f.rule, f.sessionKey ?? '', f.connectionId ?? '', f.eventId ?? '', f.byteOffset ?? '', f.message].join('|');
}

/** `ids`: the search of events by id kept from the last pass (the worker keeps one); a fresh one reads them all. */
export function buildPanelView(analysis: Analysis, ids: IdSearch = createIdSearch()): PanelView {
  const connectionsById = new Map(analysis.connections.map((c) => [c.id, c]));
  const sessionsByKey = new Map(analysis.sessions.map((s) => [s.key, s]));
  const streamsById = new Map(analysis.streams.map((s) => [s.id, s]));
  const eventByKey: EventLookup = {
    get(key) {
      const at = key.lastIndexOf('@');
      const connection = connectionsById.get(key.slice(0, at));
      const start = Number(key.slice(at + 1));
      return connection && at > 0 ? eventAt(analysis, connection, start) : undefined;
    },
  };

  const findingTargets = analysis.findings.map((f) => resolveFindingTarget(analysis, connectionsById, f, ids));
  const findingsByEvent = new Map<number, number[]>();
  const findingsByConnection = new Map<string, number[]>();
  const countsBySession = new Map<string, { counts: Record<Severity, number>; worst?: Severity }>();
  findingTargets.forEach((target, i) => {
    if (target.eventIndex !== undefined) push(findingsByEvent, target.eventIndex, i);
    if (target.connectionId !== undefined) push(findingsByConnection, target.connectionId, i);
    const severity = analysis.findings[i]?.severity;
    if (target.sessionKey === undefined || severity === undefined) return;
    let entry = countsBySession.get(target.sessionKey);
    if (!entry) countsBySession.set(target.sessionKey, (entry = { counts: { error: 0, warning: 0, info: 0 } }));
    entry.counts[severity]++;
    entry.worst = worstOf(entry.worst, severity);
  });

  const reconnects = new Map(analysis.reconnects.map((r) => [r.sessionKey, r]));
  const sessionRows = analysis.sessions.map((session): SessionRow => {
    const entry = countsBySession.get(session.key);
    const reconnect = reconnects.get(session.key);
    let events = 0;
    for (const id of session.connectionIds) events += connectionsById.get(id)?.eventIndexes.length ?? 0;
    return {
      key: session.key,
      session,
      streams: session.streamIds.length,
      connections: session.connectionIds.length,
      events,
      counts: entry ? { ...entry.counts } : { error: 0, warning: 0, info: 0 },
      ...(entry?.worst ? { worst: entry.worst } : {}),
      ...(reconnect ? { reconnect } : {}),
    };
  });

  return {
    analysis,
    connectionsById,
    streamsById,
    sessionsByKey,
    sessionRows,
    findingTargets,
    findingsByEvent,
    findingsByConnection,
    eventByKey,
  };
}

/** The event of `connection` starting at byte `start` (its events are in byte order), or undefined. */
export function eventAt(analysis: Analysis, connection: ConnectionView, start: number): number | undefined {
  const i = eventHolding(analysis, connection, start);
  return i !== undefined && analysis.events.at(i)?.start === start ? i : undefined;
}

/** The event of `connection` whose bytes hold `offset`, by binary search over its events in byte order. */
function eventHolding(analysis: Analysis, connection: ConnectionView, offset: number): number | undefined {
  const indexes = connection.eventIndexes;
  let lo = 0;
  let hi = indexes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((analysis.events.at(indexes.at(mid) as number)?.start ?? Infinity) <= offset) lo = mid + 1;
    else hi = mid;
  }
  const index = lo > 0 ? indexes.at(lo - 1) : undefined;
  const event = index !== undefined ? analysis.events.at(index) : undefined;
  return event && event.start <= offset && offset < Math.max(event.end, event.start + 1) ? index : undefined;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function resolveFindingTarget(
  analysis: Analysis,
  connectionsById: ReadonlyMap<string, ConnectionView>,
  f: Finding,
  ids: IdSearch = createIdSearch(),
): FindingTarget {
  const connection = f.connectionId !== undefined ? connectionsById.get(f.connectionId) : undefined;
  let eventIndex: number | undefined;
  if (connection) {
    const offset = f.byteOffset;
    const byOffset = offset !== undefined ? eventHolding(analysis, connection, offset) : undefined;
    const byId =
      byOffset === undefined && f.eventId !== undefined ? ids.find(analysis.events, connection, f.eventId) : undefined;
    eventIndex = byOffset ?? byId;
  } else if (f.eventId !== undefined) {
    // Without a connection the id is looked up within whatever stream and session the finding names.
    const inScope = (e: EventView) =>
      (f.streamId === undefined || e.streamId === f.streamId) &&
      (f.sessionKey === undefined || e.sessionKey === f.sessionKey);
    for (const e of analysis.events) {
      if (e.hasId && e.lastEventId === f.eventId && inScope(e)) {
        eventIndex = e.index;
        break;
      }
    }
  }
  const event = eventIndex !== undefined ? analysis.events.at(eventIndex) : undefined;
  const connectionId = connection?.id ?? event?.connectionId;
  const sessionKey = f.sessionKey ?? connection?.sessionKey ?? event?.sessionKey;
  const record = connection?.record;
  const time = f.time ?? event?.time ?? record?.endTime ?? record?.responseTime ?? record?.startTime;
  return {
    ...(sessionKey !== undefined ? { sessionKey } : {}),
    ...(connectionId !== undefined ? { connectionId } : {}),
    ...(eventIndex !== undefined ? { eventIndex } : {}),
    ...(time !== undefined ? { time } : {}),
  };
}
