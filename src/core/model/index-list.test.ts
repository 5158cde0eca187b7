import { describe, expect, it } from 'vitest';
import { IndexListBuilder, NO_EVENT_INDEXES, eventIndexesOf } from './index-list';

describe('event indexes', () => {
  it('read back as pushed, consecutive or not, and a view keeps its length while the builder goes on', () => {
    const builder = new IndexListBuilder();
    for (const index of [5, 6, 7]) builder.push(index);
    const consecutive = builder.view();
    for (const index of [9, 70_000, 70_001, 3]) builder.push(index);
    expect([...consecutive]).toEqual([5, 6, 7]);
    expect([...builder.view()]).toEqual([5, 6, 7, 9, 70_000, 70_001, 3]);
    expect(builder.at(3)).toBe(9);
    expect(consecutive.at(-1)).toBe(7);
    expect(consecutive.at(3)).toBeUndefined();
  });

  it('answer like an array at the edges', () => {
    const list = eventIndexesOf([2, 4]);
    expect([list.at(0), list.at(1), list.at(2), list.at(-1), list.at(-3)]).toEqual([2, 4, undefined, 4, undefined]);
    expect(NO_EVENT_INDEXES.length).toBe(0);
    expect([...NO_EVENT_INDEXES]).toEqual([]);
  });
});
