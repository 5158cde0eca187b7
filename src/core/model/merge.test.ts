import { describe, expect, it } from 'vitest';
import { mergeRuns, type TimedRun } from './merge';

const asRuns = (runs: readonly (readonly { time: number }[])[]): TimedRun[] =>
  runs.map((items) => ({
    count: items.length,
    time: (position: number) => (items[position] as { time: number }).time,
  }));

function stableSortOrder(runs: readonly (readonly { time: number }[])[], from: readonly number[]): string[] {
  return runs
    .flatMap((run, r) => run.map((item, p) => ({ r, p, time: item.time })).filter(({ p }) => p >= (from[r] ?? 0)))
    .sort((a, b) => a.time - b.time)
    .map(({ r, p }) => `${r}:${p}`);
}

function merged(runs: readonly (readonly { time: number }[])[], from: readonly number[]): string[] {
  const order: string[] = [];
  mergeRuns(asRuns(runs), (r, p) => order.push(`${r}:${p}`), from);
  return order;
}

const timed = (...times: number[]) => times.map((time) => ({ time }));

describe('mergeRuns', () => {
  it.each([
    ['laid end to end', [timed(1, 2), timed(2, 3), timed(), timed(3, 4)]],
    ['interleaved, with ties across runs', [timed(1, 3, 5, 5), timed(2, 3, 5, 6), timed(0, 5, 5)]],
    ['one run out of time order', [timed(1, 4, 2), timed(3, 3)]],
    ['empty', []],
  ])('visits %s as a stable sort of the runs laid end to end would', (_name, runs) => {
    expect(merged(runs, [])).toEqual(stableSortOrder(runs, []));
  });

  it('starts each run where it is told', () => {
    const runs = [timed(1, 3, 5, 7), timed(2, 4, 6), timed(6, 6)];
    for (const from of [
      [2, 1, 0],
      [4, 3, 1],
      [0, 2, 2],
    ])
      expect(merged(runs, from)).toEqual(stableSortOrder(runs, from));
  });
});
