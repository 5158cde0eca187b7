// Runs anywhere (pure core): event id -> the index of its first delivery, compact for counters (100k ids, a few runs).
import { counterFrom, counterStart } from '../ids/counter';
import { IndexListBuilder } from '../model/index-list';
import { HashedIds } from './hashed-ids';

/** A stretch of consecutive numbers under one prefix: indexes[k] first delivered the id numbered lo + k. */
interface Segment {
  lo: number;
  /** Event indexes (Model.events), in narrow pages: a JS array cost 8 bytes or more an index. */
  indexes: IndexListBuilder;
}

/** Segments of one prefix, sorted by lo, disjoint; `growing` is the one the last new id extended or opened. */
interface Segments {
  list: Segment[];
  growing: Segment | undefined;
  /** MAX_SEGMENTS reached: new ids of this prefix go to the map. */
  full: boolean;
}

/** Beyond this many segments under one prefix (ids in no useful order) new ids go to the hashed table. */
const MAX_SEGMENTS = 256;
/** Beyond this many prefixes (`<stream>_<ms>_<random>` ids may end in digits: a prefix each) ids are hashed. */
const MAX_PREFIXES = 64;

/**
 * The first delivery of each event id, as an event index. A Map of 100k string keys costs more than all the
 * rules' other work on a large capture; servers number their events, so ids ending in a counter are kept as runs
 * of consecutive numbers per prefix (one run for a whole session, typically) and only the rest go to a table of
 * hashes. Indexes, not event objects: an analyzer keeps this between analyses, and views are made on demand.
 */
export class FirstDeliveries {
  private readonly byPrefix = new Map<string, Segments>();
  private readonly others: HashedIds;

  /** @param idOf the id of an event index recorded here (the hashed table keeps no ids, it reads them again). */
  constructor(idOf: (index: number) => string) {
    this.others = new HashedIds(idOf);
  }

  /**
   * The first delivery of `id`; when there is none yet, `index` becomes it (and undefined is returned). An id is
   * split into what precedes its trailing number and that number (`123` -> '' and 123, `a1b2:45` -> 'a1b2:' and
   * 45) only when the number is canonical, so the split is one to one: ids are equal exactly when their parts are.
   */
  firstOr(id: string, index: number): number | undefined {
    const start = counterStart(id);
    if (start === undefined) return this.firstOther(id, index);
    const n = counterFrom(id, start);
    const prefix = start === 0 ? '' : id.slice(0, start);
    let segments = this.byPrefix.get(prefix);
    if (!segments) {
      if (this.byPrefix.size >= MAX_PREFIXES) return this.firstOther(id, index);
      this.byPrefix.set(prefix, (segments = { list: [], growing: undefined, full: false }));
    }
    const { growing, list } = segments;
    const segment = find(list, n);
    if (segment) return segment.indexes.at(n - segment.lo);
    // Once full, this prefix's new ids are in the map only.
    if (segments.full) return this.firstOther(id, index);
    // The usual case: the next number of the run the last new id went to (no run holds n: they stay disjoint).
    if (growing && n === growing.lo + growing.indexes.length) {
      growing.indexes.push(index);
      return undefined;
    }
    if (list.length >= MAX_SEGMENTS) {
      segments.full = true;
      return this.firstOther(id, index);
    }
    const opened = { lo: n, indexes: new IndexListBuilder() };
    opened.indexes.push(index);
    list.splice(insertionPoint(list, n), 0, opened);
    segments.growing = opened;
    return undefined;
  }

  /** The index of the first delivery of `id`, if recorded. */
  get(id: string): number | undefined {
    const start = counterStart(id);
    const segments = start === undefined ? undefined : this.byPrefix.get(start === 0 ? '' : id.slice(0, start));
    const n = start === undefined ? 0 : counterFrom(id, start);
    const segment = segments && find(segments.list, n);
    return segment ? segment.indexes.at(n - segment.lo) : this.others.get(id);
  }

  private firstOther(id: string, index: number): number | undefined {
    return this.others.firstOr(id, index);
  }
}

/** The segment holding number n, if any. */
function find(list: readonly Segment[], n: number): Segment | undefined {
  const at = insertionPoint(list, n) - 1;
  const segment = list[at];
  return segment && n < segment.lo + segment.indexes.length ? segment : undefined;
}

/** The index of the first segment whose lo is greater than n. */
function insertionPoint(list: readonly Segment[], n: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as Segment).lo <= n) low = mid + 1;
    else high = mid;
  }
  return low;
}
