// Runs in Node (CLI): what the live commands (proxy, replay) print while traffic passes: a line per exchange, each
// fault as it strikes, and each finding of the core's incremental analysis the first time it shows (withdrawn when
// later traffic resolves it).
import { createAnalyzer } from '../core/analyze';
import type { SilenceThresholds } from '../core/model/silence';
import type { Capture, ConnectionRecord } from '../core/capture/model';
import type { FaultReport } from '../core/fault/planner';
import { rules } from '../core/guard';
import type { Finding } from '../core/guard/types';
import type { CliIo } from './io';
import type { Style } from './style';
import { findingLines } from './text-report';

/** How long the live analysis waits for more traffic before it runs (one pass for a burst of chunks). */
const ANALYSIS_PAUSE_MS = 25;

/** How often open streams are judged again for silence: a quarter of the hang threshold, 250 ms to 5 s. */
export function watchInterval(hangMs: number): number {
  return Math.min(5000, Math.max(250, hangMs / 4));
}

/** The core's incremental analysis over the growing recording, printing each finding the first time it shows. */
export function liveFindings(io: CliIo, style: Style, silence: SilenceThresholds) {
  const analyze = createAnalyzer(undefined, { silence });
  const summaries = new Map(rules.map((r) => [r.id, r.summary]));
  const options = { style, ruleSummary: (id: string) => summaries.get(id), docPath: io.docPath };
  /** What was printed, by finding key: a finding the traffic later resolves is withdrawn, saying so. */
  const printed = new Map<string, Finding>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: Finding[] = [];
  const pass = (capture: Capture): Finding[] => {
    const analysis = analyze(capture);
    const starts = new Map(analysis.sessions.map((s) => [s.key, s.startTime]));
    const current = new Set<string>();
    for (const finding of analysis.findings) {
      const key = findingKey(finding);
      current.add(key);
      if (printed.has(key)) continue;
      printed.set(key, finding);
      const start = (finding.sessionKey !== undefined && starts.get(finding.sessionKey)) || analysis.startTime;
      io.stdout(`${findingLines(finding, start, options).join('\n')}\n`);
    }
    for (const [key, finding] of printed) {
      if (current.has(key)) continue;
      printed.delete(key);
      const where = finding.connectionId === undefined ? '' : ` on ${finding.connectionId}`;
      io.stdout(`    ${style.dim(`↺ withdrawn ${finding.rule}${where}: the traffic since resolved it`)}\n`);
    }
    latest = analysis.findings;
    return latest;
  };
  return {
    changed(capture: Capture): void {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        pass(capture);
      }, ANALYSIS_PAUSE_MS);
    },
    /** A last pass, now; the findings of the whole recording. */
    flush(capture: Capture): Finding[] {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      return pass(capture);
    },
  };
}

function findingKey(finding: Finding): string {
  // A connection belongs to one session, but its session's key can change as traffic arrives: a version probe made
  // before initialize joins the session once the server names it (version-fallback). Keyed by the session as well,
  // that finding would be printed twice and the first copy "withdrawn" while it still stands.
  const where = finding.connectionId ?? `session ${finding.sessionKey ?? ''}`;
  return [finding.rule, where, finding.streamId, finding.eventId].join('|');
}

/** `  3 POST /mcp tools/call  200 text/event-stream  812 B  network-error (cut by the fault proxy: ...)` */
export function exchangeLine(record: ConnectionRecord, style: Style): string {
  const url = new URL(record.url);
  const rpc = rpcMethod(record.requestBody);
  const type = record.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-type')?.value.split(';')[0];
  const bytes = record.chunks.reduce((n, c) => n + c.bytes.length, 0);
  const parts = [
    record.id.slice(1).padStart(3),
    record.method,
    `${url.pathname}${url.search}`,
    ...(rpc ? [rpc] : []),
    String(record.status ?? 'no response'),
    ...(type ? [type] : []),
    `${bytes} B`,
    record.end === 'complete' ? record.end : style.yellow(record.end),
  ];
  const error = record.error === undefined ? '' : ` ${style.dim(`(${record.error})`)}`;
  return parts.join('  ') + error;
}

function rpcMethod(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    const message: unknown = JSON.parse(body);
    const first: unknown = Array.isArray(message) ? message[0] : message;
    if (typeof first !== 'object' || first === null) return undefined;
    const method = (first as Record<string, unknown>)['method'];
    return typeof method === 'string' ? method : 'response';
  } catch {
    return undefined; // not JSON: no method to show
  }
}

/** `fault cut-mid-event:60  cut  method=tools/call midEvent=true ...` */
export function faultLine(report: FaultReport, style: Style): string {
  const facts = Object.entries(report.detail)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}=${String(value)}`);
  return `${style.bold(style.yellow(`fault ${report.fault}`))}  ${report.action}  ${style.dim(facts.join(' '))}`;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Writes a live command's recording to `file` and says so; the exit code (2 when it cannot be written). */
export async function writeRecording(io: CliIo, file: string, text: string): Promise<number> {
  try {
    await io.writeFile(file, text);
  } catch (error) {
    io.stderr(`mcp-stream-inspector: ${file}: cannot write: ${errorText(error)}\n`);
    return 2;
  }
  io.stdout(`recording written to ${file}\n`);
  return 0;
}
