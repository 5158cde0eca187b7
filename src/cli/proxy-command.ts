// Runs in Node (CLI): `mcp-stream-inspector proxy`. Starts the fault proxy, prints its URL first, then a line per
// exchange, each fault as it strikes and each finding as the core's incremental analysis finds it; on SIGINT or
// SIGTERM writes the recording and stops.
import { DEFAULT_SILENCE } from '../core/model/silence';
import { serializeCapture } from '../core/capture/format';
import { exportHar } from '../core/capture/har-export';
import { CaptureRecorder } from '../proxy/capture-recorder';
import { type FaultProxy, startFaultProxy } from '../proxy/fault-proxy';
import type { Command } from './args';
import type { CliIo } from './io';
import { errorText, exchangeLine, faultLine, liveFindings, watchInterval, writeRecording } from './live-report';
import { ansi, plain } from './style';
import { countBySeverity, formatCounts } from './text-report';

type ProxyCommand = Extract<Command, { kind: 'proxy' }>;

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
  return writeRecording(io, command.record, text);
}
