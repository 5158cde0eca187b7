import { describe, expect, it } from 'vitest';
import { moveIndex, scrollToReveal, virtualWindow } from './virtualWindow';

describe('virtual window', () => {
  it('renders only the rows in view plus overscan', () => {
    const w = virtualWindow(2000, 400, 20, 100_000, 5);
    expect(w.first).toBe(95);
    expect(w.last).toBe(125);
    expect(w.offset).toBe(95 * 20);
    expect(w.height).toBe(2_000_000);
  });

  it('clamps at the top and bottom', () => {
    expect(virtualWindow(-50, 400, 20, 1000, 5)).toMatchObject({ first: 0, last: 25 });
    const bottom = virtualWindow(1e9, 400, 20, 1000, 5);
    expect(bottom.last).toBe(1000);
    expect(bottom.first).toBe(1000 - 20 - 5);
  });

  it('handles an empty list and a list shorter than the viewport', () => {
    expect(virtualWindow(0, 400, 20, 0)).toEqual({ first: 0, last: 0, offset: 0, height: 0 });
    expect(virtualWindow(0, 400, 20, 3)).toMatchObject({ first: 0, last: 3 });
  });

  it('keeps the DOM small however long the list', () => {
    const w = virtualWindow(1_000_000, 600, 20, 100_000);
    expect(w.last - w.first).toBeLessThanOrEqual(Math.ceil(600 / 20) + 17);
  });

  it('scrolls the least to reveal a row', () => {
    expect(scrollToReveal(10, 0, 400, 20)).toBe(0); // visible
    expect(scrollToReveal(30, 0, 400, 20)).toBe(31 * 20 - 400); // below: align bottom
    expect(scrollToReveal(2, 200, 400, 20)).toBe(40); // above: align top
  });

  it('moves the selection with arrows, pages and Home/End', () => {
    expect(moveIndex('ArrowDown', undefined, 10, 5)).toBe(0);
    expect(moveIndex('ArrowUp', undefined, 10, 5)).toBe(9);
    expect(moveIndex('ArrowDown', 9, 10, 5)).toBe(9);
    expect(moveIndex('PageDown', 2, 10, 5)).toBe(7);
    expect(moveIndex('PageUp', 2, 10, 5)).toBe(0);
    expect(moveIndex('End', 0, 10, 5)).toBe(9);
    expect(moveIndex('Home', 4, 10, 5)).toBe(0);
    expect(moveIndex('a', 4, 10, 5)).toBeUndefined();
    expect(moveIndex('ArrowDown', undefined, 0, 5)).toBeUndefined();
  });
});
