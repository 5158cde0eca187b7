// Panel (pure): indexes derived from one Analysis, computed once per analysis and shared by every view.
import type { ConnectionView, EventView, SessionView, StreamView } from '../../core/model/types';
import type { Analysis } from '../../core/analyze';
import type { Finding, Severity } from '../../core/guard/types';

import { mostSevere as worstOf, SEVERITIES as severities } from '../../core/guard/severity';

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
  /** Event index by its stable key (see eventKey). */
  eventByKey: ReadonlyMap<string, number>;
}

/** Events keep their identity across re-analysis by connection and byte offset, not by index. */
export function eventKey(event: Pick<EventView, 'connectionId' | 'start'>): string {
  return `${event.connectionId}@${event.start}`;
}

/** A finding's identity across re-analysis (findings have no id of their own). */
export function findingKey(f: Finding): string {
  return [f.rule, f.sessionKey ?? '', f.connectionId ?? '', f.eventId ?? '', f.byteOffset ?? '', f.message].join('|');
}

export function buildPanelView(analysis: Analysis): PanelView {
  const connectionsById = new Map(analysis.connections.map((c) => [c.id, c]));
  const sessionsByKey = new Map(analysis.sessions.map((s) => [s.key, s]));
  const streamsById = new Map(analysis.streams.map((s) => [s.id, s]));
  const eventByKey = new Map<string, number>();
  for (const event of analysis.events) eventByKey.set(eventKey(event), event.index);

  const findingTargets = analysis.findings.map((f) => resolveFindingTarget(analysis, connectionsById, f));
  const findingsByEvent = new Map<number, number[]>();
  const findingsByConnection = new Map<string, number[]>();
  findingTargets.forEach((target, i) => {
    if (target.eventIndex !== undefined) push(findingsByEvent, target.eventIndex, i);
    if (target.connectionId !== undefined) push(findingsByConnection, target.connectionId, i);
  });

  const sessionRows = analysis.sessions.map((session): SessionRow => {
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    let worst: Severity | undefined;
    analysis.findings.forEach((f, i) => {
      if (findingTargets[i]?.sessionKey !== session.key) return;
      counts[f.severity]++;
      worst = worstOf(worst, f.severity);
    });
    let events = 0;
    for (const id of session.connectionIds) events += connectionsById.get(id)?.eventIndexes.length ?? 0;
    return {
      key: session.key,
      session,
      streams: session.streamIds.length,
      connections: session.connectionIds.length,
      events,
      counts,
      ...(worst ? { worst } : {}),
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

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function resolveFindingTarget(
  analysis: Analysis,
  connectionsById: ReadonlyMap<string, ConnectionView>,
  f: Finding,
): FindingTarget {
  const connection = f.connectionId !== undefined ? connectionsById.get(f.connectionId) : undefined;
  let eventIndex: number | undefined;
  if (connection) {
    const events = connection.eventIndexes
      .map((i) => analysis.events[i])
      .filter((e): e is EventView => e !== undefined);
    const offset = f.byteOffset;
    const byOffset = offset !== undefined ? events.find((e) => e.start <= offset && offset < e.end) : undefined;
    const byId = f.eventId !== undefined ? events.find((e) => e.hasId && e.lastEventId === f.eventId) : undefined;
    eventIndex = (byOffset ?? byId)?.index;
  } else if (f.eventId !== undefined) {
    // Without a connection the id is looked up within whatever stream and session the finding names.
    const inScope = (e: EventView) =>
      (f.streamId === undefined || e.streamId === f.streamId) &&
      (f.sessionKey === undefined || e.sessionKey === f.sessionKey);
    eventIndex = analysis.events.find((e) => e.hasId && e.lastEventId === f.eventId && inScope(e))?.index;
  }
  const event = eventIndex !== undefined ? analysis.events[eventIndex] : undefined;
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
