// Panel (pure): an event's findings as compact severity chips for the events table: one chip per severity with
// a count, the rule ids and messages in its tooltip; a click goes to the first of them.
import type { Severity } from '../../core/guard/types';
import { severities } from './model';

export interface CellFinding {
  index: number;
  rule: string;
  severity: Severity;
  message: string;
}

export interface FindingChip {
  severity: Severity;
  count: number;
  /** The finding a click selects. */
  first: number;
  /** Distinct rule ids, in order of appearance. */
  rules: string[];
  title: string;
}

export function findingChips(findings: readonly CellFinding[]): FindingChip[] {
  const chips: FindingChip[] = [];
  for (const severity of severities) {
    const of = findings.filter((f) => f.severity === severity);
    const head = of[0];
    if (!head) continue;
    const rules = [...new Set(of.map((f) => f.rule))];
    chips.push({
      severity,
      count: of.length,
      first: head.index,
      rules,
      title: of.map((f) => `${f.rule}: ${f.message}`).join('\n'),
    });
  }
  return chips;
}
