import { describe, expect, it } from 'vitest';
import { NumberRuns } from './number-runs';

/** A small deterministic generator (tests must not depend on Math.random). */
function numbers(seed: number, count: number, spread: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % spread;
  });
}

function expectSameAs(runs: NumberRuns, set: ReadonlySet<number>, upTo: number): void {
  const sorted = [...set].sort((a, b) => a - b);
  for (let n = -2; n <= upTo + 2; n++) {
    expect(runs.has(n), `has ${n}`).toBe(set.has(n));
    expect(runs.countBelow(n), `countBelow ${n}`).toBe(sorted.filter((m) => m < n).length);
    let next = n;
    while (set.has(next)) next += 1;
    expect(runs.nextMissing(n), `nextMissing ${n}`).toBe(next);
    let previous = n;
    while (set.has(previous)) previous -= 1;
    expect(runs.previousMissing(n), `previousMissing ${n}`).toBe(previous);
  }
}

describe('number runs', () => {
  it('answer as a plain set would, for numbers in order, with repeats', () => {
    const runs = new NumberRuns();
    const set = new Set<number>();
    for (const n of [1, 2, 3, 3, 5, 6, 9, 10, 10, 11]) {
      runs.add(n);
      set.add(n);
    }
    expectSameAs(runs, set, 12);
  });

  it.each([1, 7, 42])(
    'answer as a plain set would, for numbers in any order, asked between additions (seed %i)',
    (seed) => {
      const runs = new NumberRuns();
      const set = new Set<number>();
      const all = numbers(seed, 120, 60);
      for (const part of [all.slice(0, 40), all.slice(40, 80), all.slice(80)]) {
        for (const n of part) {
          runs.add(n);
          set.add(n);
        }
        expectSameAs(runs, set, 60);
      }
    },
  );
});
