// Runs anywhere (pure core): what a guard rule is, what it reports, and the finding the engine makes of a report.
import type { Era } from '../mcp/types';
import type { Model } from '../model/types';
import type { Severity } from './severity';

export type { Severity } from './severity';

/** Where a problem shows; every field is optional, a rule names what it knows. */
export interface FindingLocation {
  /** The session concerned (`SessionView.key`); a rule's era filter applies to it. */
  sessionKey?: string;
  /** The stream concerned (`StreamView.id`). */
  streamId?: string;
  /** The connection concerned (`ConnectionView.id`). */
  connectionId?: string;
  /** The SSE event id concerned. */
  eventId?: string;
  /** Byte offset in the connection body where the problem shows. */
  byteOffset?: number;
  /** Epoch ms when the problem showed. */
  time?: number;
}

/** What a rule reports: a message and where. The engine stamps the rule's id and severity onto it. */
export interface Report extends FindingLocation {
  /** One sentence for the user, naming ids and connections. */
  message: string;
  /** Only for a rule whose meta declares {@link RuleMeta.severities}: which of them this report has. */
  severity?: Severity;
}

/** One problem found in a capture: a rule's report stamped with the rule's id and severity. */
export interface Finding extends FindingLocation {
  /** Rule id, kebab-case, never renamed. */
  rule: string;
  /** The rule's severity, or the one of its declared severities the report chose. */
  severity: Severity;
  /** One sentence for the user, naming ids and connections. */
  message: string;
}

/** What a rule is, without its check: the registry entry, the CLI's `rules` listing, the panel's doc link. */
export interface RuleMeta {
  /** Kebab-case, never renamed; the rule's doc page is `rules/<id>.md`. */
  id: string;
  /** The severity of this rule's findings (of the usual case, when {@link RuleMeta.severities} lists more). */
  severity: Severity;
  /** Every severity a report of this rule may carry, `severity` included; absent = `severity` only. */
  severities?: readonly Severity[];
  /** Short title. */
  title: string;
  /** One line: what it means. */
  summary: string;
  /** Eras it applies to; absent = all. */
  eras?: readonly Era[];
}

/** A rule is data in, reports out: no clock, no I/O. The engine turns its reports into findings. */
export interface Rule extends RuleMeta {
  /** Reports every problem this rule sees in the model (the engine drops those of sessions outside `eras`). */
  check(model: Model): Report[];
}
