// Runs in Node (the replay server): plays one planned response: the recorded head after the recorded wait, each
// chunk at its recorded time after the head (scaled) and never before what it waits for, through the overlaid
// faults (the proxy's ResponseWriter and the core's FaultStream), then the recorded end: a clean end, a cut after
// the same byte (a torn event stays torn), or the connection kept open until the client leaves.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type { FaultStream } from '../core/fault/fault-stream';
import type { CutInfo } from '../core/fault/sse-tap';
import type { ReplayAnswer } from '../core/replay/planner';
import { writeHead } from '../proxy/forward';
import { CUT_SETTLE_MS, cutResponse } from '../proxy/node-http';
import { ResponseWriter } from '../proxy/response-writer';
import type { ExchangeTrace } from '../proxy/trace';
import type { Arrivals } from './arrivals';

type Played = Extract<ReplayAnswer, { kind: 'play' }>;

/**
 * A recorded end this close to the last chunk (or the head) was the same write: recorders stamp the end a moment
 * after it (a recorder at the client up to 23 ms later in the lab's fixtures: `nginx-buffered`, whose nginx sent the
 * held response and its end at once; the servers' own waits before an end there are 68 ms and more). Waiting that
 * moment out would let a client that has read what it expects cancel the body first.
 */
const END_WITH_LAST_MS = 40;

/**
 * A first chunk recorded this close to the head was the same write (`res.end('Accepted')`): the head goes with it.
 * Flushed alone, a client that cancels the body at the head (the SDK's 2024-11-05 POST) would race the body.
 */
const HEAD_WITH_FIRST_MS = 2;

/** A cut the recording made, not a fault: no fault hears of it. */
const RECORDED_CUT: CutInfo = { frameIndex: 0, bytesIntoFrame: 0, bytesForwarded: 0, midEvent: false };

export interface PlayOptions {
  /** Recorded ms are multiplied by this (1 / speed; 0 plays as fast as possible). */
  scale: number;
  arrivals: Arrivals;
  trace: ExchangeTrace | undefined;
  /** The overlaid faults' stream for this response, when they strike it. */
  stream: FaultStream | undefined;
}

export async function play(res: ServerResponse, answer: Played, options: PlayOptions): Promise<void> {
  const { scale, trace } = options;
  await sleepUntil(performance.now() + answer.headDelayMs * scale);
  if (res.destroyed) return void options.stream?.finish('abandoned');
  if (answer.status === undefined) {
    // The recorded client left before the head (`aborted`), or the capture was taken first (`open`): the recorded
    // server had not answered yet, so neither does this one, until the live client leaves or the replay stops.
    if (answer.end === 'aborted' || answer.end === 'open') return void options.stream?.finish('abandoned');
    // The recorded connection failed before its head: so does this one.
    trace?.end('failed', 'the recorded connection failed before its response head');
    res.destroy();
    return;
  }
  const status = answer.status;
  const headers = headerRecord(answer.headers);
  const eventStream = /text\/event-stream/i.test(String(headers['content-type'] ?? ''));
  const faulted = eventStream ? options.stream : undefined;
  if (options.stream && !faulted) options.stream.finish();
  const source = Readable.from(
    chunks(answer, options, () => performance.now()),
    { objectMode: true },
  );
  const writer = new ResponseWriter(res, source, faulted, {
    writeHead: () => writeHead(res, trace, status, headers, !headGoesWithFirstChunk(answer)),
    write: (bytes) => {
      trace?.write(bytes);
      return res.write(bytes);
    },
    cut: () => {
      trace?.cut();
      source.destroy();
      cutResponse(res, () => trace?.end('aborted'));
    },
  });
  res.once('close', () => source.destroy());
  writer.start();
  source.on('data', (bytes: Uint8Array) => writer.push(faulted ? faulted.push(bytes) : [{ op: 'write', bytes }]));
  source.on('end', () => {
    if (answer.end === 'complete') writer.end();
    else if (answer.end === 'network-error') {
      // What the faults still hold goes first, then the cut after the recorded last byte.
      writer.push([...(faulted?.finish() ?? []), { op: 'cut', info: RECORDED_CUT }]);
    }
    // `open` and `aborted`: the recorded server had not ended it; the live client (or close()) will.
  });
}

/** The recording wrote the head and the first chunk at once, and that chunk waits for nothing the client sends. */
function headGoesWithFirstChunk(answer: Played): boolean {
  const first = answer.chunks[0];
  return first !== undefined && first.waitsFor.length === 0 && first.atMs <= HEAD_WITH_FIRST_MS;
}

/** The planned chunks at their times, each after what it waits for; then the recorded end's time (clean or cut). */
async function* chunks(answer: Played, options: PlayOptions, now: () => number): AsyncGenerator<Uint8Array> {
  const head = now();
  for (const chunk of answer.chunks) {
    // No promise to wait on for a chunk that waits for nothing and is due (all of them at speed 0): a 64 MB stream
    // has a thousand chunks.
    const gated = chunk.waitsFor.length === 0 ? 0 : await options.arrivals.after(chunk.waitsFor, options.scale);
    const due = Math.max(head + chunk.atMs * options.scale, gated);
    if (due > now()) await sleepUntil(due);
    const bytes = chunk.take();
    if (bytes.length > 0) yield bytes;
  }
  // A clean end or a cut at its recorded time: a cut after a silence (an intermediary's idle timeout) is one. A cut
  // ends the socket CUT_SETTLE_MS after it is made (cutResponse), so it is made that much earlier.
  const last = answer.chunks.at(-1)?.atMs ?? 0;
  const settle = answer.end === 'network-error' ? CUT_SETTLE_MS : 0;
  const endAt = answer.end === 'complete' || settle > 0 ? answer.endAtMs : undefined;
  if (endAt !== undefined && endAt - settle - last > END_WITH_LAST_MS)
    await sleepUntil(head + endAt * options.scale - settle);
  // An end the client caused (its DELETE of the session) comes after the live client's, as long after as recorded.
  if (answer.endWaitsFor.length > 0) await sleepUntil(await options.arrivals.after(answer.endWaitsFor, options.scale));
}

function sleepUntil(time: number): Promise<void> {
  const ms = time - performance.now();
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function headerRecord(list: readonly { name: string; value: string }[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of list) {
    const key = name.toLowerCase();
    const had = out[key];
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return out;
}
