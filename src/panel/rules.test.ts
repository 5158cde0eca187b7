import { describe, expect, it } from 'vitest';
import { rules } from '../core/guard/index';
import { resolveDocLink, ruleCodeLink, ruleDoc, ruleDocBody, ruleDocHref } from './rules';

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
    expect(resolveDocLink('https://modelcontextprotocol.io/specification')).toBe(
      'https://modelcontextprotocol.io/specification',
    );
  });

  it('links code spans that name a rule, and strips the page title for the panel', () => {
    expect(ruleCodeLink('resume-not-honored')).toBe('?rule=resume-not-honored');
    expect(ruleCodeLink('Last-Event-ID')).toBeUndefined();
    const body = ruleDocBody('torn-event-reconnect')!;
    expect(body.startsWith('# torn-event-reconnect')).toBe(false);
    expect(body).toContain('## What it means');
  });
});
