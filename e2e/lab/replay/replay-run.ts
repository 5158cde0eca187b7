// Runs in Node (vitest): a recorded lab fixture served again by the product's replay server (src/replay/) to a real
// client, recorded by the proxy's recorder; and how the replay's recording compares with the original.
import { analyze } from '../../../src/core/analyze';
import type { Capture, ConnectionRecord } from '../../../src/core/capture/model';
import type { Fault } from '../../../src/core/fault/fault';
import type { Divergence } from '../../../src/core/replay/planner';
import { shapeOf } from '../../../src/core/replay/request-shape';
import { pathAndQuery } from '../../../src/core/fault/legacy-sse';
import { fixtureCapture } from '../../../src/core/replay/replay.fixture';
import { CaptureRecorder } from '../../../src/proxy/capture-recorder';
import { startReplay } from '../../../src/replay/replay-server';
import { until } from '../proxy-run';

export interface Replayed<T> {
  result: T;
  original: Capture;
  recording: Capture;
  divergences: readonly Divergence[];
}

export interface ReplayRunOptions {
  speed?: number;
  faults?: Fault[];
  /** The capture to serve instead of the fixture's as recorded. */
  capture?: Capture;
}

/** Serves fixture `name` on a fresh replay server, runs `drive(url)` against it, and returns both recordings. */
export async function replayFixture<T>(
  name: string,
  drive: (url: string) => Promise<T>,
  options: ReplayRunOptions = {},
): Promise<Replayed<T>> {
  const original = fixtureCapture(name);
  const recorder = new CaptureRecorder({ name: 'replay-lab', version: '0' });
  const replay = await startReplay({
    capture: options.capture ?? original,
    recorder,
    speed: options.speed ?? 1,
    ...(options.faults && { faults: options.faults }),
  });
  try {
    const result = await drive(replay.url);
    // The client has closed: its streams end a moment later (a guard against a hang, not a timing check).
    await until(() => recorder.capture().connections.every((c) => c.end !== 'open'));
    return { result, original, recording: recorder.capture(), divergences: replay.divergences() };
  } finally {
    await replay.close();
  }
}

/** Rule ids the core finds, sorted, unique. */
export function rulesOf(capture: Capture): string[] {
  return [...new Set(analyze(capture).findings.map((f) => f.rule))].sort();
}

/** What a connection is, for pairing the replay's with the recording's: method, JSON-RPC method, cursor. */
function signature(record: ConnectionRecord): string {
  const shape = shapeOf(record.method, pathAndQuery(record.url, '/'), record.requestHeaders, record.requestBody);
  return [shape.kind, shape.httpMethod, shape.rpc?.method ?? '', shape.lastEventId ?? ''].join(' ');
}

/** Each replayed connection with the recorded one of the same signature, in order (unpaired ones left out). */
export function paired(original: Capture, recording: Capture): [ConnectionRecord, ConnectionRecord][] {
  const pools = new Map<string, ConnectionRecord[]>();
  for (const record of original.connections) {
    const key = signature(record);
    pools.set(key, [...(pools.get(key) ?? []), record]);
  }
  return recording.connections.flatMap((live): [ConnectionRecord, ConnectionRecord][] => {
    const recorded = pools.get(signature(live))?.shift();
    return recorded ? [[recorded, live]] : [];
  });
}

/** A connection's chunk sizes, its body length and how it ended: the cuts and boundaries to compare. */
export function wireShape(record: ConnectionRecord): { chunks: number[]; end: string } {
  return { chunks: record.chunks.map((c) => c.bytes.length), end: record.end === 'aborted' ? 'open' : record.end };
}
