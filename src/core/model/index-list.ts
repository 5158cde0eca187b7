// Runs anywhere (pure core): a connection's event indexes, appended to as events are placed, kept in narrow pages.
import { NumberColumn } from './columns';

/**
 * Indexes into Analysis.events, in order. A JS array of them cost 8 bytes an index and, grown by copies, about twice
 * that while a long stream was placed (a 5M-event stream: 80 MB); pages relative to their first index keep 2.
 */
export interface EventIndexes extends Iterable<number> {
  readonly length: number;
  /** The k-th index; as Array.prototype.at, a negative k counts back from the end. */
  at(k: number): number | undefined;
}

/** A snapshot of the first `length` indexes of a builder's column: later appends do not change it. */
class IndexView implements EventIndexes {
  constructor(
    private readonly column: NumberColumn | undefined,
    readonly length: number,
  ) {}

  at(k: number): number | undefined {
    const at = k < 0 ? this.length + k : k;
    return this.column && at >= 0 && at < this.length ? this.column.at(at) : undefined;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let k = 0; k < this.length; k++) yield (this.column as NumberColumn).at(k);
  }
}

export const NO_EVENT_INDEXES: EventIndexes = new IndexView(undefined, 0);

/** Appends indexes; each view() is a snapshot of those so far. */
export class IndexListBuilder {
  private readonly column = new NumberColumn();
  private count = 0;

  push(index: number): void {
    this.column.set(this.count++, index);
  }

  get length(): number {
    return this.count;
  }

  /** The k-th index pushed (0 <= k < length). */
  at(k: number): number {
    return this.column.at(k);
  }

  view(): EventIndexes {
    return new IndexView(this.column, this.count);
  }
}

/** The indexes of a list (fixtures and tests). */
export function eventIndexesOf(indexes: readonly number[]): EventIndexes {
  const builder = new IndexListBuilder();
  for (const index of indexes) builder.push(index);
  return builder.view();
}
