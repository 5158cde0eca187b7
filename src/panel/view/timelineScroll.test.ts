import { describe, expect, it } from 'vitest';
import { rowsOutOfView } from './timelineScroll';

const rows = Array.from({ length: 8 }, (_, i) => ({ y: i * 25, height: 20 }));

describe('timeline rows out of view', () => {
  it('counts the lanes cut off at the bottom of a short timeline', () => {
    expect(rowsOutOfView(rows, 0, 120)).toEqual({ above: 0, below: 3, nextBelowTop: 25 });
  });

  it('counts rows scrolled past above, and none below once at the end', () => {
    expect(rowsOutOfView(rows, 80, 120)).toMatchObject({ above: 3, below: 0 });
  });

  it('reports nothing hidden when everything fits', () => {
    expect(rowsOutOfView(rows, 0, 400)).toEqual({ above: 0, below: 0 });
  });
});
