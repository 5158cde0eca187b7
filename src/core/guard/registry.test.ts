import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rules } from './index';

const here = dirname(fileURLToPath(import.meta.url));
const rulesDir = join(here, 'rules');
const ruleFiles = readdirSync(rulesDir).filter((f) => /^[a-z0-9-]+\.ts$/.test(f) && !f.endsWith('.test.ts') && f !== 'sequence.ts');

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
      'torn-event-reconnect', 'replayed-event-duplicate', 'resume-id-gap', 'resume-not-honored', 'epoch-mismatch',
      'incomplete-json', 'resumption-rejected', 'stale-cursor-retry', 'orphaned-server-request', 'unsolicited-response',
      'cross-stream-replay', 'duplicate-id-across-streams', 'session-not-reinitialized',
    ]) expect(ids).toContain(id);
  });
});
