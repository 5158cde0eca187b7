// Runs anywhere (pure core): runs rules over a model, stamps each report into a finding, orders the findings.
import type { Model } from '../model/types';
import { judgedAcross } from './capture-gaps';
import { withFacts, type FactsMemory } from './facts';
import { RELAY_RULES } from './relayed';
import { severityRank } from './severity';
import type { Finding, Report, Rule, Severity } from './types';

/**
 * Runs each rule and stamps its reports, as ESLint's context.report does: the rule's id and severity come from
 * its meta, never from the report, except a severity the meta lists in `severities`. Reports about sessions of
 * eras the rule does not apply to are dropped. A rule that throws (or reports an undeclared severity) must not
 * hide the others' findings: its failure becomes an info finding of its own.
 * @param memory an analyzer's memory: the rules' shared event indexes continue from the last model's.
 */
export function runRules(model: Model, rules: readonly Rule[], memory?: FactsMemory): Finding[] {
  return memory ? withFacts(model, memory, () => run(model, rules)) : run(model, rules);
}

function run(model: Model, rules: readonly Rule[]): Finding[] {
  const findings: Finding[] = [];
  const eraOf = new Map(model.sessions.map((s) => [s.key, s.era]));
  const relayed = new Set(model.sessions.filter((s) => s.relayed).map((s) => s.key));
  const relayedConnections = new Set(model.connections.filter((c) => c.relayed).map((c) => c.id));
  const aboutRelayed = (r: Report) =>
    (r.sessionKey !== undefined && relayed.has(r.sessionKey)) ||
    (r.connectionId !== undefined && relayedConnections.has(r.connectionId));
  for (const rule of rules) {
    try {
      const eras = rule.eras;
      // A relay shows messages, not bytes: only the rules that judge messages speak about its sessions.
      const onRelayed = RELAY_RULES.has(rule.id);
      const reports = rule
        .check(model)
        .filter((r) => !eras || r.sessionKey === undefined || eras.includes(eraOf.get(r.sessionKey) ?? 'unknown'))
        .filter((r) => onRelayed || !aboutRelayed(r));
      // Stamp all before adding any: a rule that breaks its meta contributes only the failure finding.
      findings.push(...reports.map((report) => stamp(rule, report)));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      findings.push({ rule: rule.id, severity: 'info', message: `rule could not run on this capture: ${reason}` });
    }
  }
  const blind = judgedAcross(model);
  return findings
    .filter((f) => !blind(f))
    .sort(
      (a, b) =>
        (a.time ?? 0) - (b.time ?? 0) ||
        severityRank(a.severity) - severityRank(b.severity) ||
        a.rule.localeCompare(b.rule),
    );
}

function stamp(rule: Rule, report: Report): Finding {
  return findingToJson({ ...report, rule: rule.id, severity: severityOf(rule, report.severity) });
}

/** A copy of a finding with its keys in a fixed order, absent ones left out (stable JSON and exported captures). */
export function findingToJson(f: Finding): Finding {
  const finding: Finding = { rule: f.rule, severity: f.severity, message: f.message };
  if (f.sessionKey !== undefined) finding.sessionKey = f.sessionKey;
  if (f.streamId !== undefined) finding.streamId = f.streamId;
  if (f.connectionId !== undefined) finding.connectionId = f.connectionId;
  if (f.eventId !== undefined) finding.eventId = f.eventId;
  if (f.byteOffset !== undefined) finding.byteOffset = f.byteOffset;
  if (f.time !== undefined) finding.time = f.time;
  return finding;
}

function severityOf(rule: Rule, requested: Severity | undefined): Severity {
  if (requested === undefined || requested === rule.severity) return rule.severity;
  if (rule.severities?.includes(requested)) return requested;
  throw new Error(`rule ${rule.id} reported severity ${requested}, which its meta does not declare`);
}
