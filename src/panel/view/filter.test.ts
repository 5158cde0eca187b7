import { describe, expect, it } from 'vitest';
import { isEmptyFilter, matchesFilter, parseFilter } from './filter';

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
});
