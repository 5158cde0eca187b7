import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { SEVERITIES } from './severity';
import { rules } from './index';
import { parseTranscript } from './transcript';
import type { RuleMeta } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const rulesDir = join(here, 'rules');
const ruleFiles = readdirSync(rulesDir).filter(
  (f) => /^[a-z0-9-]+\.ts$/.test(f) && !f.endsWith('.test.ts') && f !== 'sequence.ts',
);

describe('rule registry', () => {
  it('has kebab-case, unique ids', () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
  });

  it.each(rules.map((r) => [r.id]))('%s has its doc page, its tests and a one-line summary', (id) => {
    const doc = join(rulesDir, `${id}.md`);
    expect(existsSync(doc)).toBe(true);
    expect(readFileSync(doc, 'utf8').startsWith(`# ${id}\n`)).toBe(true);
    const test = readFileSync(join(rulesDir, `${id}.test.ts`), 'utf8');
    expect(test).toContain(`const RULE = '${id}'`);
    expect(test.match(/\bit\(/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    const rule = rules.find((r) => r.id === id);
    expect(rule?.summary).not.toContain('\n');
  });

  it('registers every rule file in the folder', () => {
    const registered = new Set(rules.map((r) => `${r.id}.ts`));
    expect(ruleFiles.filter((f) => !registered.has(f))).toEqual([]);
  });

  it('includes the rule ids the product promises', () => {
    const ids = rules.map((r) => r.id);
    for (const id of [
      'torn-event-reconnect',
      'replayed-event-duplicate',
      'resume-id-gap',
      'resume-not-honored',
      'epoch-mismatch',
      'incomplete-json',
      'resumption-rejected',
      'stale-cursor-retry',
      'orphaned-server-request',
      'unsolicited-response',
      'cross-stream-replay',
      'duplicate-id-across-streams',
      'session-not-reinitialized',
    ])
      expect(ids).toContain(id);
  });
});

/** Every doc page opens the same way: its id, then the Severity and Eras lines written from the rule's meta. */
const HEADER = /^# ([a-z0-9-]+)\n\n- \*\*Severity:\*\* (.+)\n- \*\*Eras:\*\* (.+)\n\n## /;
const SECTIONS = ['What it means', 'Why it matters', 'Example', 'How to fix'];

/** A header value without its trailing note: `error, warning (warning when ...)` -> `error, warning`. */
const withoutNote = (value: string) => value.replace(/ \([^)]*\)$/, '');

function severitiesOf(rule: RuleMeta): string {
  return [rule.severity, ...(rule.severities ?? []).filter((s) => s !== rule.severity)].join(', ');
}

describe.each(rules.map((r) => [r.id, r] as const))('doc page of %s', (id, rule) => {
  const doc = readFileSync(join(rulesDir, `${id}.md`), 'utf8');

  it('has the title, Severity and Eras header lines, matching the meta exactly', () => {
    const header = HEADER.exec(doc);
    expect(header, 'header: "# id", blank, "- **Severity:** ...", "- **Eras:** ...", blank, a section').not.toBeNull();
    expect(header?.[1]).toBe(id);
    expect(withoutNote(header?.[2] ?? '')).toBe(severitiesOf(rule));
    expect(withoutNote(header?.[3] ?? '')).toBe((rule.eras ?? ['all']).join(', '));
  });

  it('declares its severities consistently', () => {
    if (rule.severities === undefined) return;
    expect(rule.severities).toContain(rule.severity);
    expect(new Set(rule.severities).size).toBe(rule.severities.length);
    for (const severity of rule.severities) expect(SEVERITIES).toContain(severity);
  });

  it('has the sections in order', () => {
    expect([...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(SECTIONS);
  });

  it('fires on its example (the one ```transcript block)', () => {
    const examples = [...doc.matchAll(/^```transcript\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
    expect(examples).toHaveLength(1);
    const findings = analyze(parseTranscript(examples[0] ?? '')).findings;
    expect(
      findings.filter((f) => f.rule === id),
      JSON.stringify(findings),
    ).not.toEqual([]);
  });
});
