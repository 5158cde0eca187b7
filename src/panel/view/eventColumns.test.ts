import { describe, expect, it } from 'vitest';
import { columnsMinWidth, eventColumns } from './eventColumns';

describe('events table columns', () => {
  it('shows every column on a wide table, the data preview only where it has room', () => {
    expect(eventColumns(900).columns).toEqual(['time', 'stream', 'id', 'type', 'size', 'method', 'data', 'findings']);
    expect(eventColumns(700).columns).toEqual(['time', 'stream', 'id', 'size', 'method', 'data', 'findings']);
  });

  it('drops type, then size, then stream as DevTools gets narrower, keeping time, method and findings', () => {
    expect(eventColumns(520).columns).toEqual(['time', 'stream', 'id', 'size', 'method', 'findings']);
    expect(eventColumns(450).columns).toEqual(['time', 'stream', 'id', 'method', 'findings']);
    expect(eventColumns(300).columns).toEqual(['time', 'method', 'findings']);
  });

  it('always fits what it keeps, from a docked 320 px table up', () => {
    for (let width = 320; width <= 1400; width += 7) {
      const { columns, template } = eventColumns(width);
      expect(columnsMinWidth(columns)).toBeLessThanOrEqual(width);
      expect(template.match(/minmax\([^)]*\)|\d+px/g)).toHaveLength(columns.length);
    }
  });

  it('fits more of an event id as the table widens, so long ids are shortened once, in the middle', () => {
    const narrow = eventColumns(520).idChars;
    const wide = eventColumns(1200).idChars;
    expect(narrow).toBeGreaterThanOrEqual(10);
    expect(narrow).toBeLessThanOrEqual(14);
    expect(wide).toBeGreaterThan(30);
  });
});
