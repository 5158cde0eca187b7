import { describe, expect, it } from 'vitest';
import type { EventRowData } from '../analysis/messages';
import { createRowCache } from './rowCache';

const row = (n: number) => ({ eventIndex: n }) as EventRowData;
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => row(from + i));

describe('the rows the UI thread holds', () => {
  it('asks for what the window lacks, once, and further ahead in the direction of the scroll', () => {
    const asked: Array<[number, number, number]> = [];
    const cache = createRowCache((version, from, to) => asked.push([version, from, to]));
    cache.take({ version: 4, from: 0, rows: rows(0, 30) }, 10_000);
    cache.snapshot().ensure(0, 20);
    expect(asked).toEqual([]);
    cache.snapshot().ensure(100, 120);
    cache.snapshot().ensure(100, 120);
    expect(asked).toEqual([[4, 80, 240]]);
    // Scrolling back up: more is asked above than below.
    cache.take({ version: 4, from: 80, rows: rows(80, 240) });
    cache.snapshot().ensure(60, 80);
    expect(asked[1]).toEqual([4, 0, 100]);
  });

  it('holds rows of the current version only: a view of a new version starts over', () => {
    const cache = createRowCache(() => undefined);
    cache.take({ version: 1, from: 0, rows: rows(0, 5) }, 5);
    expect(cache.take({ version: 2, from: 0, rows: rows(0, 5) })).toBe(false);
    expect(cache.snapshot().at(3)?.eventIndex).toBe(3);
    cache.take({ version: 2, from: 2, rows: [row(42)] }, 3);
    const now = cache.snapshot();
    expect([now.version, now.count, now.at(0), now.at(2)?.eventIndex]).toEqual([2, 3, undefined, 42]);
  });

  it('gives a new snapshot and tells its subscribers after each change, and only then', () => {
    const cache = createRowCache(() => undefined);
    let told = 0;
    const stop = cache.subscribe(() => told++);
    const before = cache.snapshot();
    expect(cache.snapshot()).toBe(before);
    cache.take({ version: 1, from: 0, rows: rows(0, 2) }, 2);
    expect(cache.snapshot()).not.toBe(before);
    stop();
    cache.take({ version: 1, from: 0, rows: rows(0, 2) });
    expect(told).toBe(1);
  });

  it('keeps a bounded number of rows, dropping those farthest from the window shown', () => {
    const cache = createRowCache(() => undefined);
    cache.take({ version: 1, from: 0, rows: rows(0, 1000) }, 100_000);
    cache.snapshot().ensure(5000, 5020);
    for (let from = 1000; from < 6000; from += 1000) cache.take({ version: 1, from, rows: rows(from, from + 1000) });
    const held = cache.snapshot();
    expect(held.at(5010)?.eventIndex).toBe(5010);
    expect(held.at(0)).toBeUndefined();
  });
});
