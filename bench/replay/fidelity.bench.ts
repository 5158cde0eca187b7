// Node (`npm run bench replay-fidelity`): a paced stream recorded through the product's proxy, replayed at speed 1
// to a raw-socket client; each chunk's boundaries and arrival time against the recording's.
/*
 * How to read it
 * - The recording: a live origin (paced-origin.ts: 151 events at gaps of 0-80 ms, one of 200 KB) behind the fault
 *   proxy with its CaptureRecorder, as `mcp-stream-inspector proxy --record` makes one. Its chunks are the proxy's
 *   writes, stamped when written.
 * - Measured at the client, on a raw socket (chunked-client.ts): the chunked framing gives each write of the replay
 *   server whole, even where TCP joined two writes into one segment, so boundaries are compared as the replay wrote
 *   them to the wire, and each chunk's time is when its last byte reached the client, after the response head.
 *   node:http's 'data' events would merge writes that arrive together and so could not tell.
 * - boundaries: every replayed chunk has the recorded size and bytes, in every round; otherwise FAIL.
 * - send error: |arrival after head - recorded time after head| per chunk; the figure is the median over rounds of
 *   each round's 95th percentile. The head itself: |request -> head| against the recorded, shown, not gated.
 * - Baselines, alternated with the replay round by round: the same client on the live origin, its arrivals against
 *   the origin's own write times (what the loopback adds) and against the origin's schedule (what a live server's
 *   timers add besides, under this machine's load: the replay's error has the same parts). The load average is shown:
 *   on this shared 2-core machine other suites' browsers make timers late by tens of ms at times.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Capture, ConnectionRecord } from '../../src/core/capture/model';
import { CaptureRecorder } from '../../src/proxy/capture-recorder';
import { startFaultProxy } from '../../src/proxy/fault-proxy';
import { startReplay } from '../../src/replay/index';
import { percentile, summarize, variantOrder } from '../browser/stats';
import { type ChunkedResponse, type RawRequest, requestChunks } from './chunked-client';
import { CALL, schedule, startPacedOrigin } from './paced-origin';

const ROUNDS = 7;
const TARGET_MS = 5;

const POST: RawRequest = {
  method: 'POST',
  path: '/mcp',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify(CALL),
};

/** Records one answer to POST through the proxy. */
async function record(origin: string): Promise<Capture> {
  const recorder = new CaptureRecorder({ name: 'bench', version: '0' });
  const proxy = await startFaultProxy({
    upstream: new URL(origin),
    host: '127.0.0.1',
    port: 0,
    faults: [],
    onReport: () => undefined,
    recorder,
  });
  try {
    await requestChunks(new URL(proxy.url).origin, POST);
    for (let i = 0; i < 100 && recorder.capture().connections.some((c) => c.end === 'open'); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return recorder.capture();
  } finally {
    await proxy.close();
  }
}

interface Round {
  errors: number[];
  headError: number;
  identical: boolean;
}

function replayRound(recorded: ConnectionRecord, got: ChunkedResponse): Round {
  const head = recorded.responseTime ?? recorded.startTime;
  const identical =
    got.complete &&
    got.chunks.length === recorded.chunks.length &&
    got.chunks.every((c, i) => Buffer.compare(c.bytes, recorded.chunks[i]?.bytes ?? Buffer.alloc(0)) === 0);
  const errors = got.chunks.map((c, i) => Math.abs(c.afterHeadMs - ((recorded.chunks[i]?.t ?? Number.NaN) - head)));
  return { errors, headError: Math.abs(got.headMs - (head - recorded.startTime)), identical };
}

/** The origin's arrivals against its own write times (`writes`) or against its schedule (`planned`). */
function originRound(times: readonly number[], got: ChunkedResponse): Round {
  const errors = got.chunks.map((c, i) => Math.abs(c.afterHeadMs - (times[i] ?? Number.NaN)));
  return { errors, headError: 0, identical: got.complete && got.chunks.length === times.length };
}

const f = (n: number): string => n.toFixed(2);

async function main(): Promise<void> {
  const steps = schedule(150);
  let at = 0;
  const planned = steps.map((step) => (at += step.gapMs));
  const origin = await startPacedOrigin(steps);
  try {
    const capture = await record(origin.url);
    const recorded = capture.connections[0];
    if (capture.connections.length !== 1 || !recorded || recorded.end !== 'complete')
      throw new Error('the recording through the proxy did not complete');
    const replayed: Round[] = [];
    const live: Round[] = [];
    const onTime: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const onReplay of variantOrder(round)) {
        if (onReplay) {
          const replay = await startReplay({ capture, speed: 1 });
          try {
            replayed.push(replayRound(recorded, await requestChunks(replay.origin, POST)));
            if (replay.divergences().length > 0) throw new Error(replay.divergences()[0]?.message);
          } finally {
            await replay.close();
          }
        } else {
          const got = await requestChunks(new URL(origin.url).origin, POST);
          live.push(originRound(origin.writes.at(-1) ?? [], got));
          onTime.push(originRound(planned, got));
        }
      }
    }
    const p95 = (rounds: Round[]) => summarize(rounds.map((r) => percentile(r.errors, 95)));
    const replayP95 = p95(replayed);
    const originP95 = p95(live);
    const scheduleP95 = p95(onTime);
    const heads = summarize(replayed.map((r) => r.headError));
    const identical = replayed.every((r) => r.identical);
    const span = (recorded.chunks.at(-1)?.t ?? 0) - (recorded.responseTime ?? 0);
    process.stdout.write(
      `recording: ${recorded.chunks.length} chunks over ${span.toFixed(0)} ms; ${ROUNDS} rounds each, alternated\n` +
        `p95 |arrival - recorded| after the head, ms: replay ${f(replayP95.median)} [${f(replayP95.min)}-${f(replayP95.max)}]\n` +
        `p95 |arrival - written| after the head, ms: live origin ${f(originP95.median)} [${f(originP95.min)}-${f(originP95.max)}] (baseline: the loopback)\n` +
        `p95 |arrival - scheduled| after the head, ms: live origin ${f(scheduleP95.median)} [${f(scheduleP95.min)}-${f(scheduleP95.max)}] (baseline: the loopback and its timers)\n` +
        `max |arrival - recorded| over all replayed chunks: ${f(Math.max(...replayed.flatMap((r) => r.errors)))} ms\n` +
        `|request -> head - recorded| (not gated): median ${f(heads.median)} ms, max ${f(heads.max)} ms\n` +
        `load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${availableParallelism()} cores\n` +
        `boundaries: ${identical ? 'every round identical to the recording' : 'DIFFERENT in some round'}\n`,
    );
    const pass = identical && replayP95.median <= TARGET_MS;
    process.stdout.write(
      `BENCH replay-fidelity p95-send-error-ms=${f(replayP95.median)} boundaries=${identical ? 'identical' : 'different'} ` +
        `target=<=${TARGET_MS} ${pass ? 'PASS' : 'FAIL'}\n`,
    );
  } finally {
    await origin.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
