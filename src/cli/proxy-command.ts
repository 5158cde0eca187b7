// Runs in Node (CLI): `mcp-stream-inspector proxy`. Starts the fault proxy, prints its URL first, then a line per
// exchange, each fault as it strikes and each finding as the core's incremental analysis finds it; on SIGINT or
// SIGTERM writes the recording and stops.
import { createAnalyzer } from '../core/analyze';
import { DEFAULT_SILENCE, type SilenceThresholds } from '../core/model/silence';
import { serializeCapture } from '../core/capture/format';
import { exportHar } from '../core/capture/har-export';
import type { Capture, ConnectionRecord } from '../core/capture/model';
import type { FaultReport } from '../core/fault/planner';
import { rules } from '../core/guard';
import type { Finding } from '../core/guard/types';
import { CaptureRecorder } from '../proxy/capture-recorder';
import { type FaultProxy, startFaultProxy } from '../proxy/fault-proxy';
import type { Command } from './args';
import type { CliIo } from './io';
import { ansi, plain, type Style } from './style';
import { countBySeverity, findingLines, formatCounts } from './text-report';

type ProxyCommand = Extract<Command, { kind: 'proxy' }>;

/** How long the live analysis waits for more traffic before it runs (one pass for a burst of chunks). */
const ANALYSIS_PAUSE_MS = 25;

export async function runProxy(command: ProxyCommand, io: CliIo): Promise<number> {
  const style = io.color ? ansi : plain;
  const silence = { ...DEFAULT_SILENCE, ...command.silence };
  const live = liveFindings(io, style, silence);
  let stopped = false;
  const recorder = new CaptureRecorder({ name: 'mcp-stream-inspector', version: io.version }, (record, change) => {
    if (stopped) return; // stopping ends the open streams: that is not traffic
    if (change === 'end') io.stdout(`${exchangeLine(record, style)}\n`);
    live.changed(recorder.capture());
  });
  let proxy: FaultProxy;
  try {
    proxy = await startFaultProxy({
      upstream: command.upstream,
      host: command.host,
      port: command.port,
      faults: command.faults,
      recorder,
      onReport: (report) => {
        if (!stopped) io.stdout(`${faultLine(report, style)}\n`);
      },
    });
  } catch (error) {
    io.stderr(`mcp-stream-inspector: cannot listen on ${command.host}:${command.port}: ${errorText(error)}\n`);
    return 2;
  }
  io.stdout(`${proxy.url}\n`);
  const faults = command.faults.map((f) => f.spec).join(', ') || 'none';
  const record = command.record === undefined ? '' : `; recording to ${command.record}`;
  io.stdout(style.dim(`proxying to ${command.upstream.href} (faults: ${faults}${record})`) + '\n');

  // Silence is news too: while a stream is open, the recording is judged again now and then, so a hang shows while
  // it happens (request-hang), not only when traffic next arrives.
  const watch = setInterval(() => {
    if (recorder.capture().connections.some((record) => record.end === 'open')) live.changed(recorder.capture());
  }, watchInterval(silence.hangMs));
  const signal = await io.untilStopped();
  clearInterval(watch);
  stopped = true;
  // The recording as it stands, open streams still open, before stopping ends them.
  const capture = recorder.capture();
  const findings = live.flush(capture);
  const text =
    command.record === undefined
      ? undefined
      : /\.har$/i.test(command.record)
        ? exportHar(capture)
        : serializeCapture(capture, { findings });
  await proxy.close();
  io.stdout(
    `${signal}: stopped after ${capture.connections.length} exchanges; ${formatCounts(countBySeverity(findings), style)}\n`,
  );
  if (text === undefined || command.record === undefined) return 0;
  try {
    await io.writeFile(command.record, text);
  } catch (error) {
    io.stderr(`mcp-stream-inspector: ${command.record}: cannot write: ${errorText(error)}\n`);
    return 2;
  }
  io.stdout(`recording written to ${command.record}\n`);
  return 0;
}

/** How often open streams are judged again for silence: a quarter of the hang threshold, 250 ms to 5 s. */
function watchInterval(hangMs: number): number {
  return Math.min(5000, Math.max(250, hangMs / 4));
}

/** The core's incremental analysis over the growing recording, printing each finding the first time it shows. */
function liveFindings(io: CliIo, style: Style, silence: SilenceThresholds) {
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
function exchangeLine(record: ConnectionRecord, style: Style): string {
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
function faultLine(report: FaultReport, style: Style): string {
  const facts = Object.entries(report.detail)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}=${String(value)}`);
  return `${style.bold(style.yellow(`fault ${report.fault}`))}  ${report.action}  ${style.dim(facts.join(' '))}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
