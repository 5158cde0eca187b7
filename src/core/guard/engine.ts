// Runs anywhere (pure core): runs rules over a model and orders their findings.
import type { Model } from '../model/types';
import type { Finding, Rule, Severity } from './types';

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function severityRank(severity: Severity): number {
  return RANK[severity];
}

/** A rule that throws must not hide the others' findings: its failure becomes an info finding of its own. */
export function runRules(model: Model, rules: readonly Rule[]): Finding[] {
  const findings: Finding[] = [];
  const eraOf = new Map(model.sessions.map((s) => [s.key, s.era]));
  for (const rule of rules) {
    try {
      const eras = rule.eras;
      const found = rule.check(model);
      // A rule speaks only about sessions of the eras it applies to.
      findings.push(...(eras ? found.filter((f) => f.sessionKey === undefined || eras.includes(eraOf.get(f.sessionKey) ?? 'unknown')) : found));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      findings.push({ rule: rule.id, severity: 'info', message: `rule could not run on this capture: ${reason}` });
    }
  }
  return findings.sort((a, b) => (a.time ?? 0) - (b.time ?? 0) || RANK[a.severity] - RANK[b.severity] || a.rule.localeCompare(b.rule));
}
