import { describe, expect, it } from 'vitest';
import { rules } from '../core/guard/index';
import { resolveDocLink, ruleDoc, ruleDocHref } from './rules';

describe('bundled rule docs', () => {
  it('has a doc page for every registered rule', () => {
    const missing = rules.filter((r) => ruleDoc(r.id) === undefined).map((r) => r.id);
    expect(missing).toEqual([]);
    expect(ruleDoc('torn-event-reconnect')).toContain('# torn-event-reconnect');
  });

  it('keeps links to other rules inside the extension and drops unsafe ones', () => {
    expect(resolveDocLink('resume-not-honored.md')).toBe(ruleDocHref('resume-not-honored'));
    expect(resolveDocLink('./epoch-mismatch.md#why')).toBe('?rule=epoch-mismatch');
    expect(resolveDocLink('no-such-rule.md')).toBeUndefined();
    expect(resolveDocLink('javascript:alert(1)')).toBeUndefined();
    expect(resolveDocLink('https://modelcontextprotocol.io/specification')).toBe('https://modelcontextprotocol.io/specification');
  });
});
