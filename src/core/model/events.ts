// Runs anywhere (pure core): puts every delivered event in time order and makes its view, reusing the last model's.
import type { ParsedConnection, ParsedEvent } from './connection';
import { mergeRuns } from './merge';
import type { ConnectionView, EventView } from './types';

/** A connection that delivers SSE events to a stream of a session. */
export interface Delivery {
  conn: ParsedConnection;
  view: ConnectionView;
  streamId: string;
}

/** What one delivery of the last model delivered (its views are that model's events of its id, in order). */
interface KeptRun {
  id: string;
  streamId: string;
  sessionKey: string;
  parsed: readonly ParsedEvent[];
}

/**
 * The last model's event placement. A view is a function of its parsed event, connection, stream, session and
 * index: where all five are as before, the next model hands out the same object. And when the last model's
 * deliveries only grew, with every new event ordered after the old ones (a live capture: one chunk arrived, or
 * nothing did), the old order is kept as it is and only the new events are placed, so a re-analysis costs what
 * arrived, not the 100k events before it. Arrays handed out in a model are never changed afterwards.
 */
export class EventViewMemory {
  /** @param keep false for a one-shot build: nothing is asked of this memory again, so nothing is kept. */
  constructor(private readonly keep = true) {}

  private runs: KeptRun[] = [];
  private events: readonly EventView[] = [];
  /** The delivery of the last event (ties in time after it are ordered by delivery). */
  private lastRun = -1;
  private indexes = new Map<string, readonly number[]>();

  /** Where each delivery's new events start when the old events keep their places, else undefined. */
  appendedFrom(deliveries: readonly Delivery[]): number[] | undefined {
    if (deliveries.length < this.runs.length) return undefined;
    const last = this.events.at(-1);
    const from: number[] = [];
    for (const [run, { conn, view, streamId }] of deliveries.entries()) {
      const kept = this.runs[run];
      const same = kept?.id === view.id && kept.streamId === streamId && kept.sessionKey === view.sessionKey;
      if (kept && (!same || !startsWith(conn.events, kept.parsed))) return undefined;
      const start = kept?.parsed.length ?? 0;
      for (let p = start; last && p < conn.events.length; p++) {
        const { time } = conn.events[p] as ParsedEvent;
        if (!(time > last.time || (time === last.time && run >= this.lastRun))) return undefined;
      }
      from.push(start);
    }
    return from;
  }

  /** Places the events of `deliveries` (see {@link placeEvents}), only those from `from` on when given. */
  place(
    deliveries: readonly Delivery[],
    owners: ReadonlyMap<string, ConnectionView>,
    from: readonly number[] | undefined,
  ): EventView[] {
    const runs = this.reuse(deliveries, from);
    const base = from ? this.events.length : 0;
    // New events and indexes are collected apart and joined once: a copy of 100k entries costs more than the rest.
    const added: EventView[] = [];
    const grown = new Map<string, number[]>();
    let lastRun = from ? this.lastRun : -1;
    mergeRuns(
      deliveries.map(({ conn }) => conn.events),
      (run, position) => {
        const index = base + added.length;
        const id = (deliveries[run] as Delivery).view.id;
        added.push(viewAt(runs[run] as Reuse, position, index));
        let indexes = grown.get(id);
        if (!indexes) grown.set(id, (indexes = []));
        indexes.push(index);
        lastRun = run;
      },
      from,
    );
    // Nothing new: the last model's list as it was (no model changes its lists once built).
    const events = base === 0 ? added : added.length === 0 ? (this.events as EventView[]) : this.events.concat(added);
    const indexes = new Map<string, readonly number[]>();
    for (const [id, owner] of owners) {
      const old = from ? this.indexes.get(id) : undefined;
      const more = grown.get(id);
      const list = old && more ? old.concat(more) : (more ?? old);
      if (!list) continue;
      owner.eventIndexes = list as number[];
      indexes.set(id, list);
    }
    if (!this.keep) return events;
    this.runs = deliveries.map(({ conn, view, streamId }) => ({
      id: view.id,
      streamId,
      sessionKey: view.sessionKey,
      parsed: conn.events,
    }));
    this.events = events;
    this.lastRun = lastRun;
    this.indexes = indexes;
    return events;
  }

  /**
   * For each delivery, the last model's run of its id and that run's views. New events are all that is placed
   * when appending; else runs are matched by id, where an id had one run (two runs' views are interleaved in
   * its event list).
   */
  private reuse(deliveries: readonly Delivery[], from: readonly number[] | undefined): Reuse[] {
    if (from || this.runs.length === 0) return deliveries.map((delivery) => ({ delivery }));
    const byId = new Map<string, KeptRun | undefined>();
    for (const kept of this.runs) byId.set(kept.id, byId.has(kept.id) ? undefined : kept);
    return deliveries.map((delivery) => {
      const kept = byId.get(delivery.view.id);
      const indexes = this.indexes.get(delivery.view.id);
      return kept && indexes ? { delivery, kept, views: { events: this.events, indexes } } : { delivery };
    });
  }
}

interface Reuse {
  delivery: Delivery;
  kept?: KeptRun;
  /** The kept run's view of position p: events[indexes[p]]. */
  views?: { events: readonly EventView[]; indexes: readonly number[] };
}

/** The view of a delivery's event: the kept one when its inputs are all as before, else a new one. */
function viewAt({ delivery, kept, views }: Reuse, position: number, index: number): EventView {
  const { conn, view, streamId } = delivery;
  const parsed = conn.events[position] as ParsedEvent;
  const keptIndex = kept?.parsed[position] === parsed ? views?.indexes[position] : undefined;
  const old = keptIndex === undefined ? undefined : views?.events[keptIndex];
  // A run sorted out of its own order lists its views in time order, not by position: the byte offset (distinct
  // for each event of a connection) tells whether this view is this event's.
  if (
    old?.start === parsed.event.start &&
    old.index === index &&
    old.streamId === streamId &&
    old.sessionKey === view.sessionKey
  )
    return old;
  return eventView(parsed, view.id, streamId, view.sessionKey, index);
}

function startsWith(list: readonly ParsedEvent[], prefix: readonly ParsedEvent[]): boolean {
  if (list === prefix) return true;
  if (list.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

/**
 * All delivered events in time order, as a stable sort of the deliveries' events would order them (ties keep
 * delivery order, then each connection's own order), each pushed to its connection's eventIndexes. Indexes go to
 * the last connection view of an id, as a lookup by id would find it.
 */
export function placeEvents(
  deliveries: readonly Delivery[],
  connections: readonly ConnectionView[],
  memory: EventViewMemory = new EventViewMemory(false),
): EventView[] {
  const owners = new Map(connections.map((c) => [c.id, c]));
  return memory.place(deliveries, owners, memory.appendedFrom(deliveries));
}

/** One object literal per shape (no spreads): 100k of these are built on a first analysis. */
function eventView(
  { event, time, messages, parseError }: ParsedEvent,
  connectionId: string,
  streamId: string,
  sessionKey: string,
  index: number,
): EventView {
  const { type, data, lastEventId, hasId, retry, start, end, firstChunk, lastChunk } = event;
  if (parseError === undefined) {
    return {
      type,
      data,
      lastEventId,
      hasId,
      retry,
      start,
      end,
      firstChunk,
      lastChunk,
      connectionId,
      streamId,
      sessionKey,
      time,
      messages,
      index,
    };
  }
  return {
    type,
    data,
    lastEventId,
    hasId,
    retry,
    start,
    end,
    firstChunk,
    lastChunk,
    connectionId,
    streamId,
    sessionKey,
    time,
    messages,
    parseError,
    index,
  };
}
