// Runs anywhere (pure core): a set of integers kept as sorted runs, so a counter's 100k numbers take one run.

/**
 * Distinct integers as sorted, disjoint, non-adjacent runs [lo, hi]. Numbers that arrive in order extend the last
 * run in O(1); others wait in `pending` and are merged in at the next question, so any order costs O(n log n).
 */
export class NumberRuns {
  private lo: number[] = [];
  private hi: number[] = [];
  private pending: number[] = [];
  /** below[i] = how many numbers the runs before run i hold; rebuilt when stale. */
  private below: number[] = [];
  private stale = false;

  add(n: number): void {
    const last = this.hi.length - 1;
    const hi = this.hi[last];
    if (hi !== undefined && n <= hi) {
      if (n < (this.lo[last] as number)) this.pending.push(n);
      return;
    }
    this.stale = true;
    if (hi !== undefined && n === hi + 1) this.hi[last] = n;
    else {
      this.lo.push(n);
      this.hi.push(n);
    }
  }

  has(n: number): boolean {
    const run = this.runAtOrAfter(n);
    return run < this.lo.length && (this.lo[run] as number) <= n;
  }

  /** How many numbers are < n. */
  countBelow(n: number): number {
    const run = this.runAtOrAfter(n);
    if (this.stale) this.count();
    const lo = this.lo[run];
    return (this.below[run] ?? 0) + (lo !== undefined && lo < n ? n - lo : 0);
  }

  /** The least number >= n that is not in the set. */
  nextMissing(n: number): number {
    const run = this.runAtOrAfter(n);
    return run < this.lo.length && (this.lo[run] as number) <= n ? (this.hi[run] as number) + 1 : n;
  }

  /** The greatest number <= n that is not in the set. */
  previousMissing(n: number): number {
    const run = this.runAtOrAfter(n);
    return run < this.lo.length && (this.lo[run] as number) <= n ? (this.lo[run] as number) - 1 : n;
  }

  /** The first run whose hi >= n (after merging what is pending). */
  private runAtOrAfter(n: number): number {
    if (this.pending.length > 0) this.merge();
    let low = 0;
    let high = this.hi.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.hi[mid] as number) < n) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private merge(): void {
    const pending = this.pending.sort((a, b) => a - b);
    const lo: number[] = [];
    const hi: number[] = [];
    const put = (from: number, to: number) => {
      const last = hi.length - 1;
      if (last >= 0 && from <= (hi[last] as number) + 1) hi[last] = Math.max(hi[last] as number, to);
      else {
        lo.push(from);
        hi.push(to);
      }
    };
    let p = 0;
    for (let run = 0; run < this.lo.length; run++) {
      for (; p < pending.length && (pending[p] as number) < (this.lo[run] as number); p++)
        put(pending[p] as number, pending[p] as number);
      put(this.lo[run] as number, this.hi[run] as number);
    }
    for (; p < pending.length; p++) put(pending[p] as number, pending[p] as number);
    this.lo = lo;
    this.hi = hi;
    this.pending = [];
    this.stale = true;
  }

  private count(): void {
    this.below = [0];
    for (let run = 0; run < this.lo.length; run++)
      this.below.push((this.below[run] as number) + (this.hi[run] as number) - (this.lo[run] as number) + 1);
    this.stale = false;
  }
}
