import { describe, expect, it } from 'vitest';
import { isEmptyFilter, matchesFilter, narrows, parseFilter } from './filter';

describe('filter box', () => {
  it('requires every word, case-insensitively', () => {
    const f = parseFilter('Tools/Call  progress');
    expect(matchesFilter(f, 'tools/call with progress token')).toBe(true);
    expect(matchesFilter(f, 'tools/call only')).toBe(false);
  });

  it('excludes words starting with a dash', () => {
    const f = parseFilter('message -ping');
    expect(matchesFilter(f, 'message data')).toBe(true);
    expect(matchesFilter(f, 'message ping')).toBe(false);
  });

  it('treats blanks and a lone dash as no filter', () => {
    expect(isEmptyFilter(parseFilter('  - '))).toBe(true);
  });

  it('knows when a filter only narrows the last one (typing on), so only its rows need checking', () => {
    expect(narrows(parseFilter('prog'), parseFilter('progress'))).toBe(true);
    expect(narrows(parseFilter('progress'), parseFilter('progress 99'))).toBe(true);
    expect(narrows(parseFilter('-ping'), parseFilter('-ping tools'))).toBe(true);
    expect(narrows(parseFilter(''), parseFilter('x'))).toBe(true);
    expect(narrows(parseFilter('progress'), parseFilter('prog'))).toBe(false);
    expect(narrows(parseFilter('-ping'), parseFilter('-pin'))).toBe(false);
  });
});
