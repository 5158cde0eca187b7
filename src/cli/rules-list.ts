// Runs in Node (CLI), pure: the `rules` listing.
import type { RuleMeta } from '../core/guard/types';

export function formatRules(rules: readonly RuleMeta[]): string {
  const idWidth = Math.max(2, ...rules.map((r) => r.id.length));
  const lines = [`${'id'.padEnd(idWidth)}  severity  summary`];
  for (const rule of rules) lines.push(`${rule.id.padEnd(idWidth)}  ${rule.severity.padEnd(8)}  ${rule.summary}`);
  return lines.join('\n') + '\n';
}

/** `rules --json`: the rules' metadata, keys in a fixed order. */
export function rulesToJson(rules: readonly RuleMeta[]): RuleMeta[] {
  return rules.map((r) => ({
    id: r.id,
    severity: r.severity,
    title: r.title,
    summary: r.summary,
    ...(r.eras !== undefined && { eras: [...r.eras] }),
  }));
}
