// Runs anywhere (pure core): a connection's event indexes, appended to as events are placed, kept in narrow pages.
import { NumberColumn } from './columns';

/**
 * Indexes into Analysis.events, in order. A JS array of them cost 8 bytes an index and, grown by copies, about twice
 * that while a long stream was placed (a 5M-event stream: 80 MB); consecutive ones keep nothing, others 2 bytes.
 */
export interface EventIndexes extends Iterable<number> {
  readonly length: number;
  /** The k-th index; as Array.prototype.at, a negative k counts back from the end. */
  at(k: number): number | undefined;
}

/**
 * A snapshot of the first `length` indexes of a builder: later appends do not change it. While the indexes are
 * consecutive (one connection's events, placed alone: the usual long stream) they are `first + k`, and no column is
 * kept at all.
 */
class IndexView implements EventIndexes {
  constructor(
    private readonly first: number,
    private readonly column: NumberColumn | undefined,
    readonly length: number,
  ) {}

  at(k: number): number | undefined {
    const at = k < 0 ? this.length + k : k;
    if (at < 0 || at >= this.length) return undefined;
    return this.column ? this.column.at(at) : this.first + at;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let k = 0; k < this.length; k++) yield this.at(k) as number;
  }
}

export const NO_EVENT_INDEXES: EventIndexes = new IndexView(0, undefined, 0);

/** Appends indexes; each view() is a snapshot of those so far. */
export class IndexListBuilder {
  private first = 0;
  /** Made on the first index that does not follow the one before. */
  private column: NumberColumn | undefined;
  private count = 0;

  push(index: number): void {
    if (this.column) this.column.set(this.count, index);
    else if (this.count === 0) this.first = index;
    else if (index !== this.first + this.count) {
      const column = new NumberColumn();
      for (let k = 0; k < this.count; k++) column.set(k, this.first + k);
      column.set(this.count, index);
      this.column = column;
    }
    this.count++;
  }

  get length(): number {
    return this.count;
  }

  /** The k-th index pushed (0 <= k < length). */
  at(k: number): number {
    return this.column ? this.column.at(k) : this.first + k;
  }

  view(): EventIndexes {
    return new IndexView(this.first, this.column, this.count);
  }
}

/** The indexes of a list (fixtures and tests). */
export function eventIndexesOf(indexes: readonly number[]): EventIndexes {
  const builder = new IndexListBuilder();
  for (const index of indexes) builder.push(index);
  return builder.view();
}
