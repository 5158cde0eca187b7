import { describe, expect, it } from 'vitest';
import { findingChips } from './findingChips';

describe('finding chips in the events table', () => {
  it("groups an event's findings by severity, worst first, with counts and the rule ids in the tooltip", () => {
    const chips = findingChips([
      { index: 4, rule: 'unsolicited-response', severity: 'error', message: 'a second answer' },
      { index: 2, rule: 'resume-not-honored', severity: 'warning', message: 'not a continuation' },
      { index: 7, rule: 'epoch-mismatch', severity: 'error', message: 'another epoch' },
    ]);
    expect(chips.map((c) => [c.severity, c.count, c.first])).toEqual([
      ['error', 2, 4],
      ['warning', 1, 2],
    ]);
    expect(chips[0]!.rules).toEqual(['unsolicited-response', 'epoch-mismatch']);
    expect(chips[0]!.title).toBe('unsolicited-response: a second answer\nepoch-mismatch: another epoch');
  });

  it('shows nothing for an event without findings', () => {
    expect(findingChips([])).toEqual([]);
  });
});
