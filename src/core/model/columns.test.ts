import { describe, expect, it } from 'vitest';
import { NumberColumn } from './columns';

/** A column holding `values`, row by row. */
function columnOf(values: readonly number[]): NumberColumn {
  const column = new NumberColumn();
  values.forEach((value, row) => column.set(row, value));
  return column;
}

function rows(column: NumberColumn, count: number): number[] {
  return Array.from({ length: count }, (_, row) => column.at(row));
}

describe('NumberColumn', () => {
  it('reads back every kind of value it was given, NaN included, across page boundaries', () => {
    const values: number[] = [];
    for (let row = 0; row < 10_000; row++) {
      const pick = row % 9;
      values.push([0, 254, Number.NaN, 255, 65_534, 65_535, 0xfffffffe, 0xffffffff, -1.5][pick] as number);
    }
    values.push(2 ** 53, Number.MAX_VALUE, -0.25, 1e-9);
    expect(rows(columnOf(values), values.length)).toEqual(values);
  });

  it("keeps a page's earlier rows, NaN ones too, when a later value widens it", () => {
    const column = columnOf([1, Number.NaN, 7]);
    column.set(3, 300); // 8 -> 16 bits
    column.set(4, 70_000); // -> 32 bits
    column.set(5, Number.NaN);
    column.set(6, 0.5); // -> 64-bit floats
    expect(rows(column, 7)).toEqual([1, Number.NaN, 7, 300, 70_000, Number.NaN, 0.5]);
  });

  it('stays as narrow as its values: small integers cost a byte a row, offsets four', () => {
    const small = columnOf(Array.from({ length: 100_000 }, (_, row) => row % 200));
    expect(small.byteLength).toBeLessThanOrEqual(100_000 + 4096);
    const offsets = columnOf(Array.from({ length: 100_000 }, (_, row) => row * 190));
    expect(offsets.byteLength).toBeLessThanOrEqual(4 * (100_000 + 4096));
    expect(offsets.at(99_999)).toBe(99_999 * 190);
  });

  it('costs a short connection little, and trimming keeps only the rows there are', () => {
    const column = columnOf([3, 4, 5]);
    expect(column.byteLength).toBeLessThanOrEqual(16);
    const long = columnOf(Array.from({ length: 5000 }, (_, row) => row % 100));
    long.trim(5000);
    expect(long.byteLength).toBe(5000);
    expect(long.at(4999)).toBe(99);
  });

  it('reads a row the same before and after rows added later widen or grow its page (snapshots share it)', () => {
    const column = columnOf([9, 8]);
    const before = rows(column, 2);
    for (let row = 2; row < 20_000; row++) column.set(row, row * 1000.5);
    expect(rows(column, 2)).toEqual(before);
  });
});
