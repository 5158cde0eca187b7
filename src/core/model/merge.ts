// Runs anywhere (pure core): visits timed runs in the order a stable sort of their concatenation by time gives.

/** A run of items with times: a connection's event table. */
export interface TimedRun {
  readonly count: number;
  time(position: number): number;
}

type Runs = readonly TimedRun[];

/**
 * Calls `visit(run, position)` for the items of every run from `from[run]` on (0 when omitted), by time; equal
 * times keep run order, then position (a stable sort of the runs laid end to end). Runs already in time order
 * (the usual case: a connection's events) are merged without sorting and without allocating per item, a stretch
 * of one run at a time while no other run's head comes first.
 */
export function mergeRuns(runs: Runs, visit: (run: number, position: number) => void, from?: readonly number[]): void {
  const next = runs.map((_, run) => from?.[run] ?? 0);
  if (!runs.every((items, run) => sortedByTime(items, next[run] as number))) {
    sortAll(runs, next, visit);
    return;
  }
  if (inOrderEndToEnd(runs, next)) {
    for (const [run, items] of runs.entries())
      for (let position = next[run] as number; position < items.count; position++) visit(run, position);
    return;
  }
  const headTime = (run: number) => (runs[run] as TimedRun).time(next[run] as number);
  const heap = new RunHeap((a, b) => headTime(a) < headTime(b) || (headTime(a) === headTime(b) && a < b));
  for (const [run, items] of runs.entries()) if ((next[run] as number) < items.count) heap.push(run);
  for (let run = heap.pop(); run !== undefined; run = heap.pop()) {
    const items = runs[run] as TimedRun;
    // Emit from this run while it stays ahead of the best other head.
    do {
      visit(run, next[run] as number);
      next[run] = (next[run] as number) + 1;
    } while ((next[run] as number) < items.count && heap.before(run));
    if ((next[run] as number) < items.count) heap.push(run);
  }
}

function sortedByTime(run: TimedRun, from: number): boolean {
  for (let i = from + 1; i < run.count; i++) if (run.time(i) < run.time(i - 1)) return false;
  return true;
}

/** Each run starts no earlier than the one before ended: the concatenation is already in order. */
function inOrderEndToEnd(runs: Runs, from: readonly number[]): boolean {
  let last: number | undefined;
  for (const [run, items] of runs.entries()) {
    const first = from[run] as number;
    if (first >= items.count) continue;
    if (last !== undefined && items.time(first) < last) return false;
    last = items.time(items.count - 1);
  }
  return true;
}

/** Runs not in time order: a stable sort over all items. */
function sortAll(runs: Runs, from: readonly number[], visit: (run: number, position: number) => void): void {
  const items: { run: number; position: number; time: number }[] = [];
  for (const [run, list] of runs.entries())
    for (let position = from[run] as number; position < list.count; position++)
      items.push({ run, position, time: list.time(position) });
  items.sort((a, b) => a.time - b.time);
  for (const { run, position } of items) visit(run, position);
}

/** A binary min-heap of run numbers under an order that reads the runs' current heads. */
class RunHeap {
  private readonly items: number[] = [];

  constructor(private readonly less: (a: number, b: number) => boolean) {}

  /** Whether `run` comes before every run in the heap. */
  before(run: number): boolean {
    const top = this.items[0];
    return top === undefined || this.less(run, top);
  }

  push(run: number): void {
    const { items } = this;
    let i = items.push(run) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i] as number, items[parent] as number)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): number | undefined {
    const { items } = this;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      let least = i;
      if (left < items.length && this.less(items[left] as number, items[least] as number)) least = left;
      if (left + 1 < items.length && this.less(items[left + 1] as number, items[least] as number)) least = left + 1;
      if (least === i) return top;
      this.swap(i, least);
      i = least;
    }
  }

  private swap(a: number, b: number): void {
    const { items } = this;
    [items[a], items[b]] = [items[b] as number, items[a] as number];
  }
}
