// Runs in Node (CLI), pure: the human report, grouped by session, each finding with where it shows,
// its rule's one-line explanation and the path of the rule's doc page.
import { plural } from '../core/words';
import type { Finding, Severity } from '../core/guard/types';
import { reconnectSummary } from '../core/guard/reconnects';
import { RELAYED_LABEL, relayedBy } from '../core/model/relayed-label';
import type { OtherStreamView, SessionView } from '../core/model/types';
import type { Analysis } from '../core/analyze';
import type { Style } from './style';

export interface ReportOptions {
  style: Style;
  /** The rule's one-line summary, when the rule is known. */
  ruleSummary(ruleId: string): string | undefined;
  /** Absolute path of the rule's doc page. */
  docPath(ruleId: string): string;
}

export type SeverityCounts = Record<Severity, number>;

const SYMBOL: Record<Severity, string> = { error: '✖', warning: '⚠', info: 'ℹ' };
const INDENT = '    ';
const DETAIL = `${INDENT}  `;

export function formatReport(file: string, analysis: Analysis, options: ReportOptions): string {
  const { style } = options;
  const lines = [style.bold(file)];
  for (const notice of analysis.notices) lines.push(`  ${style.bold('note')} ${notice.message}`);
  const bySession = groupFindings(analysis);
  const reconnects = new Map(analysis.reconnects.map((r) => [r.sessionKey, r]));
  // Counted per connection, not per event: a view per event of a million-event stream cost more than the report.
  const eventCounts = new Map<string, number>();
  for (const c of analysis.connections)
    eventCounts.set(c.sessionKey, (eventCounts.get(c.sessionKey) ?? 0) + c.eventIndexes.length);
  for (const session of analysis.sessions) {
    lines.push(`  ${sessionHeader(session, eventCounts.get(session.key) ?? 0, style)}`);
    // As the panel's badge: the rules that need bytes did not run on it, and a clean line must not read as proof.
    if (session.relayed)
      lines.push(`${INDENT}${style.yellow(RELAYED_LABEL)} ${style.dim(`(${relayedBy(session.relayed)})`)}`);
    const reconnect = reconnects.get(session.key);
    // Shown once the traffic told something: an all-unknown line says nothing.
    if (reconnect && (reconnect.resumesPostStreams !== 'unknown' || reconnect.honoursRetry !== 'unknown'))
      lines.push(`${INDENT}${style.dim(`client: ${reconnectSummary(reconnect)}`)}`);
    const findings = bySession.get(session.key) ?? [];
    if (findings.length === 0) lines.push(`${INDENT}${style.dim('no findings')}`);
    for (const finding of findings) lines.push(...findingLines(finding, session.startTime, options));
  }
  const orphans = bySession.get(undefined) ?? [];
  if (orphans.length > 0) {
    lines.push(`  ${style.bold('(findings outside any session)')}`);
    for (const finding of orphans) lines.push(...findingLines(finding, analysis.startTime, options));
  }
  if (analysis.sessions.length === 0 && orphans.length === 0) lines.push(`  ${style.dim('no MCP traffic found')}`);
  if (analysis.otherStreams.length > 0) {
    lines.push(`  ${style.bold(`${plural(analysis.otherStreams.length, 'other stream')} (not MCP, not judged)`)}`);
    for (const stream of analysis.otherStreams) lines.push(`${INDENT}${otherStreamLine(stream, style)}`);
  }
  lines.push(formatCounts(countBySeverity(analysis.findings), style));
  return lines.join('\n') + '\n';
}

/** Findings per session key, in time order (findings without a time keep their place at the end). */
function groupFindings(analysis: Analysis): Map<string | undefined, Finding[]> {
  const known = new Set(analysis.sessions.map((s) => s.key));
  const groups = new Map<string | undefined, Finding[]>();
  for (const finding of analysis.findings) {
    const key = finding.sessionKey !== undefined && known.has(finding.sessionKey) ? finding.sessionKey : undefined;
    const list = groups.get(key);
    if (list) list.push(finding);
    else groups.set(key, [finding]);
  }
  for (const list of groups.values()) list.sort((a, b) => (a.time ?? Infinity) - (b.time ?? Infinity));
  return groups;
}

function sessionHeader(session: SessionView, events: number, style: Style): string {
  const id = session.sessionId ?? '(no session)';
  return [
    style.bold(`session ${id}`),
    session.origin,
    `era ${session.era}${session.probedEra !== undefined ? ` (probed ${session.probedEra})` : ''}`,
    `ids ${session.idScheme}`,
    [
      plural(session.streamIds.length, 'stream'),
      plural(session.connectionIds.length, 'connection'),
      plural(events, 'event'),
    ].join(', '),
  ].join('  ');
}

function otherStreamLine(stream: OtherStreamView, style: Style): string {
  const parts = [
    `${stream.method} ${stream.url}`,
    String(stream.status ?? 'no response'),
    plural(stream.events, 'event'),
  ];
  if (stream.kind !== undefined) parts.push(stream.kind);
  return `${parts.join('  ')}  ${style.dim(stream.reason)}`;
}

export function findingLines(finding: Finding, sessionStart: number, options: ReportOptions): string[] {
  const { style } = options;
  const color = finding.severity === 'error' ? style.red : finding.severity === 'warning' ? style.yellow : style.cyan;
  const badge = color(`${SYMBOL[finding.severity]} ${finding.severity.padEnd(7)}`);
  const lines = [`${INDENT}${badge} ${style.bold(finding.rule)}  ${finding.message}`];
  const where = location(finding, sessionStart);
  if (where) lines.push(DETAIL + style.dim(where));
  const summary = options.ruleSummary(finding.rule);
  if (summary) lines.push(DETAIL + summary);
  lines.push(DETAIL + style.dim(`docs: ${options.docPath(finding.rule)}`));
  return lines;
}

function location(finding: Finding, sessionStart: number): string {
  const parts: string[] = [];
  if (finding.streamId !== undefined) parts.push(`stream ${finding.streamId}`);
  if (finding.connectionId !== undefined) parts.push(`connection ${finding.connectionId}`);
  if (finding.eventId !== undefined) parts.push(`event id ${finding.eventId}`);
  if (finding.byteOffset !== undefined) parts.push(`byte ${finding.byteOffset}`);
  if (finding.time !== undefined) parts.push(`+${formatMs(finding.time - sessionStart)}`);
  return parts.join(', ');
}

/** Milliseconds relative to the session start, one decimal. */
export function formatMs(ms: number): string {
  return `${(Math.round(ms * 10) / 10).toFixed(1)} ms`;
}

export function countBySeverity(findings: readonly Finding[]): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

export function formatCounts(counts: SeverityCounts, style: Style): string {
  const errors = plural(counts.error, 'error');
  const warnings = plural(counts.warning, 'warning');
  return [
    counts.error ? style.red(errors) : errors,
    counts.warning ? style.yellow(warnings) : warnings,
    `${counts.info} info`,
  ].join(', ');
}
