// Runs anywhere (pure core): puts every delivered event in time order, continuing the last model's order.
import type { ParsedConnection } from './connection';
import { PlacedEvents, type Stretches } from './event-list';
import type { EventTable } from './event-table';
import type { PlacedRun } from './event-view';
import { IndexListBuilder, type EventIndexes } from './index-list';
import { mergeRuns } from './merge';
import type { ConnectionView } from './types';

/** A connection that delivers SSE events to a stream of a session. */
export interface Delivery {
  conn: ParsedConnection;
  view: ConnectionView;
  streamId: string;
}

/** What one delivery of the last model delivered. */
interface KeptRun {
  id: string;
  streamId: string;
  sessionKey: string;
  table: EventTable;
}

/**
 * The last model's event placement. When the last model's deliveries only grew, with every new event ordered
 * after the old ones (a live capture: one chunk arrived, or nothing did), the old order is kept as it is and only
 * the new events are placed, so a re-analysis costs what arrived, not the 100k events before it. The list handed
 * out then continues the last one (same lineage: the rules' indexes read on from where they stopped). Lists and
 * arrays handed out in a model are never changed afterwards.
 */
export class PlacementMemory {
  /** @param keep false for a one-shot build: nothing is asked of this memory again, so nothing is kept. */
  constructor(private readonly keep = true) {}

  private runs: KeptRun[] = [];
  private list: PlacedEvents | undefined;
  /** The delivery of the last event (ties in time after it are ordered by delivery). */
  private lastRun = -1;
  private indexes = new Map<string, EventIndexes>();
  private builders = new Map<string, IndexListBuilder>();

  /** Where each delivery's new events start when the old events keep their places, else undefined. */
  appendedFrom(deliveries: readonly Delivery[]): number[] | undefined {
    const { list } = this;
    if (!list || deliveries.length < this.runs.length) return undefined;
    const lastTime = list.length > 0 ? list.at(list.length - 1)?.time : undefined;
    const from: number[] = [];
    for (const [run, { conn, view, streamId }] of deliveries.entries()) {
      const kept = this.runs[run];
      const same = kept?.id === view.id && kept.streamId === streamId && kept.sessionKey === view.sessionKey;
      if (kept && (!same || !conn.table.continues(kept.table))) return undefined;
      const start = kept?.table.count ?? 0;
      for (let p = start; lastTime !== undefined && p < conn.table.count; p++) {
        const time = conn.table.time(p);
        if (!(time > lastTime || (time === lastTime && run >= this.lastRun))) return undefined;
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
  ): PlacedEvents {
    const old = from ? this.list : undefined;
    const stretches = new StretchBuilder(old);
    // Appended to, each connection's indexes go on from the last model's (views of them stay as they were).
    const builders = old ? this.builders : new Map<string, IndexListBuilder>();
    let count = old?.length ?? 0;
    let lastRun = old ? this.lastRun : -1;
    mergeRuns(
      deliveries.map(({ conn }) => conn.table),
      (run, position) => {
        const id = (deliveries[run] as Delivery).view.id;
        stretches.add(run, position, count);
        let indexes = builders.get(id);
        if (!indexes) builders.set(id, (indexes = new IndexListBuilder()));
        indexes.push(count);
        count += 1;
        lastRun = run;
      },
      from,
    );
    const runs: PlacedRun[] = deliveries.map(({ conn, view, streamId }) => ({
      connectionId: view.id,
      streamId,
      sessionKey: view.sessionKey,
      table: conn.table,
      chunks: conn.record.chunks,
    }));
    // Nothing new: the last list as it was. Appended to: the same lineage, so that whoever read it can read on.
    const list =
      old && count === old.length && sameRuns(old.runs, runs)
        ? old
        : old
          ? old.extended(count, runs, stretches.finish())
          : new PlacedEvents({}, count, runs, stretches.finish());
    const indexes = new Map<string, EventIndexes>();
    for (const [id, owner] of owners) {
      const builder = builders.get(id);
      if (!builder) continue;
      const before = old ? this.indexes.get(id) : undefined;
      const all = before?.length === builder.length ? before : builder.view();
      owner.eventIndexes = all;
      indexes.set(id, all);
    }
    if (!this.keep) return list;
    this.runs = deliveries.map(({ conn, view, streamId }) => ({
      id: view.id,
      streamId,
      sessionKey: view.sessionKey,
      table: conn.table,
    }));
    this.list = list;
    this.lastRun = lastRun;
    this.indexes = indexes;
    this.builders = builders;
    return list;
  }
}

function sameRuns(a: readonly PlacedRun[], b: readonly PlacedRun[]): boolean {
  return (
    a.length === b.length &&
    a.every((run, i) => {
      const other = b[i] as PlacedRun;
      return (
        run.table === other.table &&
        run.chunks === other.chunks &&
        run.connectionId === other.connectionId &&
        run.streamId === other.streamId &&
        run.sessionKey === other.sessionKey
      );
    })
  );
}

/** Maximal stretches of consecutive rows of one run, built as events are visited in order. */
class StretchBuilder {
  private readonly runOf: number[];
  private readonly rowFrom: number[];
  private readonly indexFrom: number[];
  private lastRun = -1;
  private nextRow = -1;

  /** @param before the list this one continues: its stretches, the last of which the next event may extend. */
  constructor(before?: PlacedEvents) {
    const stretches = before?.stretches;
    this.runOf = stretches ? Array.from(stretches.runOf) : [];
    this.rowFrom = stretches ? Array.from(stretches.rowFrom) : [];
    this.indexFrom = stretches ? Array.from(stretches.indexFrom) : [];
    const last = this.runOf.length - 1;
    if (before && last >= 0) {
      this.lastRun = this.runOf[last] as number;
      this.nextRow = (this.rowFrom[last] as number) + before.length - (this.indexFrom[last] as number);
    }
  }

  add(run: number, row: number, index: number): void {
    if (run === this.lastRun && row === this.nextRow) {
      this.nextRow++;
      return;
    }
    this.runOf.push(run);
    this.rowFrom.push(row);
    this.indexFrom.push(index);
    this.lastRun = run;
    this.nextRow = row + 1;
  }

  finish(): Stretches {
    return {
      runOf: Uint32Array.from(this.runOf),
      rowFrom: Uint32Array.from(this.rowFrom),
      indexFrom: Uint32Array.from(this.indexFrom),
    };
  }
}

/**
 * All delivered events in time order, as a stable sort of the deliveries' events would order them (ties keep
 * delivery order, then each connection's own order), each pushed to its connection's eventIndexes. Indexes go to
 * the last connection view of an id, as a lookup by id would find it.
 */
export function placeEvents(
  deliveries: readonly Delivery[],
  connections: readonly ConnectionView[],
  memory: PlacementMemory = new PlacementMemory(false),
): PlacedEvents {
  const owners = new Map(connections.map((c) => [c.id, c]));
  return memory.place(deliveries, owners, memory.appendedFrom(deliveries));
}
