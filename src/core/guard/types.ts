// Runs anywhere (pure core): what a guard rule is and what it reports.
import type { Era, Model } from '../model/types';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  /** Rule id, kebab-case, never renamed. */
  rule: string;
  severity: Severity;
  message: string;
  sessionKey?: string;
  streamId?: string;
  connectionId?: string;
  /** The SSE event id concerned. */
  eventId?: string;
  /** Byte offset in the connection body where the problem shows. */
  byteOffset?: number;
  /** Epoch ms when the problem showed. */
  time?: number;
}

export interface RuleMeta {
  id: string;
  /** The severity a finding of this rule usually has (a rule may report another for a milder case). */
  severity: Severity;
  /** Short title. */
  title: string;
  /** One line: what it means. */
  summary: string;
  /** Eras it applies to; absent = all. */
  eras?: readonly Era[];
}

/** A rule is data in, findings out: no clock, no I/O. */
export interface Rule extends RuleMeta {
  check(model: Model): Finding[];
}
