// Runs in Node (CLI): `mcp-stream-inspector replay`. Reads a capture file or HAR, serves it again (src/replay/),
// prints the URL first, then what is missing from the input, a line per exchange, each divergence of the live client
// as it happens and each finding; on SIGINT or SIGTERM writes the live client's recording and stops.
import { InputError } from '../core/capture/errors';
import { serializeCapture } from '../core/capture/format';
import { exportHar } from '../core/capture/har-export';
import { loadInput } from '../core/capture/load';
import type { Capture } from '../core/capture/model';
import { DEFAULT_SILENCE } from '../core/model/silence';
import type { Divergence } from '../core/replay/planner';
import { CaptureRecorder } from '../proxy/capture-recorder';
import { type ReplayServer, startReplay } from '../replay/replay-server';
import type { Command } from './args';
import type { CliIo } from './io';
import { errorText, exchangeLine, faultLine, liveFindings, writeRecording } from './live-report';
import { ansi, plain, type Style } from './style';
import { countBySeverity, formatCounts } from './text-report';

type ReplayCommand = Extract<Command, { kind: 'replay' }>;

export async function runReplay(command: ReplayCommand, io: CliIo): Promise<number> {
  const style = io.color ? ansi : plain;
  const capture = await readCapture(command, io);
  if (!capture) return 2;
  const live = liveFindings(io, style, DEFAULT_SILENCE);
  let stopped = false;
  const recorder = new CaptureRecorder({ name: 'mcp-stream-inspector', version: io.version }, (record, change) => {
    if (stopped) return;
    if (change === 'end') io.stdout(`${exchangeLine(record, style)}\n`);
    live.changed(recorder.capture());
  });
  let replay: ReplayServer;
  try {
    replay = await startReplay({
      capture,
      port: command.port,
      speed: command.speed,
      faults: command.faults,
      recorder,
      onDivergence: (divergence) => {
        if (!stopped) io.stdout(`${divergenceLine(divergence, style)}\n`);
      },
      onFault: (report) => {
        if (!stopped) io.stdout(`${faultLine(report, style)}\n`);
      },
    });
  } catch (error) {
    io.stderr(`mcp-stream-inspector: cannot listen on 127.0.0.1:${command.port}: ${errorText(error)}\n`);
    return 2;
  }
  io.stdout(`${replay.url}\n`);
  const faults = command.faults.map((f) => f.spec).join(', ') || 'none';
  const speed = command.speed === 0 ? 'as fast as possible' : `speed ${command.speed}`;
  io.stdout(
    style.dim(`replaying ${capture.connections.length} exchanges of ${command.file} (${speed}; faults: ${faults})`) +
      '\n',
  );
  for (const missing of replay.missingBodies())
    io.stdout(
      style.yellow(`missing body: ${missing}: its head and end are replayed, its body was not in the file`) + '\n',
    );

  const signal = await io.untilStopped();
  stopped = true;
  // The recording as it stands, open streams still open, before stopping ends them.
  const recording = recorder.capture();
  const findings = live.flush(recording);
  const divergences = replay.divergences();
  const text =
    command.record === undefined
      ? undefined
      : /\.har$/i.test(command.record)
        ? exportHar(recording)
        : serializeCapture(recording, { findings: [...findings, ...divergences.map(divergenceEntry)] });
  await replay.close();
  const counts = formatCounts(countBySeverity(findings), style);
  io.stdout(
    `${signal}: stopped after ${recording.connections.length} exchanges; ${divergences.length} divergence(s); ${counts}\n`,
  );
  if (text === undefined || command.record === undefined) return 0;
  return writeRecording(io, command.record, text);
}

async function readCapture(command: ReplayCommand, io: CliIo): Promise<Capture | undefined> {
  const read = async (file: string): Promise<Uint8Array | undefined> => {
    try {
      return await io.readFile(file);
    } catch (error) {
      io.stderr(`mcp-stream-inspector: ${file}: cannot read: ${errorText(error)}\n`);
      return undefined;
    }
  };
  const bytes = await read(command.file);
  const chunks = command.chunks === undefined ? undefined : await read(command.chunks);
  if (!bytes || (command.chunks !== undefined && !chunks)) return undefined;
  try {
    const options = chunks && { chunksNdjson: new TextDecoder().decode(chunks) };
    const capture = loadInput(bytes, command.file, options);
    if (capture.connections.length > 0) return capture;
    io.stderr(`mcp-stream-inspector: ${command.file}: no exchange to replay\n`);
  } catch (error) {
    const why = error instanceof InputError ? error.message : errorText(error);
    io.stderr(`mcp-stream-inspector: ${command.file}: ${why}\n`);
  }
  return undefined;
}

/** `divergence reissued-request  POST /mcp tools/call #3: refused 400: ...` */
function divergenceLine(divergence: Divergence, style: Style): string {
  return `${style.bold(style.yellow(`divergence ${divergence.kind}`))}  ${divergence.message.slice(divergence.kind.length + 2)}`;
}

/**
 * A divergence as the recording's findings list carries it: beside the core's findings, under an id of its own
 * (`replay-divergence`, never a guard rule: it compares two clients, not a client and a server). Never read back.
 */
function divergenceEntry(divergence: Divergence): object {
  return { rule: 'replay-divergence', severity: 'warning', ...divergence };
}
