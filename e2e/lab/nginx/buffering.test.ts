// Runs in Node (vitest): real buffering between the real SDK 1.32 client and an SDK server: Express's compression()
// and nginx's default proxy_buffering in front of SDK 1.29 (no `no-transform`, no `X-Accel-Buffering: no` on its POST
// streams) hold a stream_progress response until it ends; in front of SDK 1.32 compression() passes it through.
// Judged by causality against the server's own log of its writes, not by durations.
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../../src/core/capture/model';
import { bodyText } from '../client/recording-fetch';
import { findRun, runIntermediary, type RunOutcome } from './runs';
import { callWrites, only, responseHeader, standaloneGets, toolCall } from './wire-facts';

const PROGRESS = { count: 5, delayMs: 300 };

/** The server wrote the call's events over time (its own log): priming, every progress, the result. */
function expectWrittenOverTime(o: RunOutcome): void {
  const written = callWrites(o);
  expect(written).toHaveLength(1 + PROGRESS.count + 1);
  // The tool sleeps delayMs before each progress: the writes span at least the sleeps between the first and last.
  const span = (written.at(-1)?.t as number) - (written[0]?.t as number);
  expect(span).toBeGreaterThanOrEqual((PROGRESS.count - 1) * PROGRESS.delayMs);
}

/** Every byte of the response reached the client at or after the server's last write: one burst at the end. */
function expectOneBurstAtTheEnd(o: RunOutcome, call: ConnectionRecord): void {
  const written = callWrites(o);
  const lastWrite = written.at(-1)?.t as number;
  expect(call.chunks.length).toBeGreaterThan(0);
  for (const chunk of call.chunks) expect(chunk.t).toBeGreaterThanOrEqual(lastWrite);
  // What arrived is exactly what the server wrote (the client's fetch undid the gzip, if any).
  expect(bodyText(call)).toBe(written.map((w) => w.text).join(''));
}

describe('buffering intermediaries in front of the SDK 1.29 server', () => {
  it('compression(): the progress and the result reach the client in one gzip burst after the last write', async () => {
    const o = await runIntermediary(findRun('compression-buffered'));
    expect(o.result.verdict).toBe('ok');
    expect(o.result.calls[0]?.progress).toEqual([1, 2, 3, 4, 5]);
    const call = toolCall(o);
    expect(responseHeader(call, 'content-encoding')).toBe('gzip');
    expect(responseHeader(call, 'cache-control')).toBe('no-cache');
    expectWrittenOverTime(o);
    expectOneBurstAtTheEnd(o, call);
    // SDK 1.29's standalone GET already said no-transform: compression() left it alone.
    const get = only(standaloneGets(o), 'standalone GETs');
    expect(responseHeader(get, 'content-encoding')).toBeUndefined();
    expect(responseHeader(get, 'cache-control')).toBe('no-cache, no-transform');
  });

  it("nginx's default proxy_buffering: the head and the whole body arrive after the last write", async () => {
    const o = await runIntermediary(findRun('nginx-buffered'));
    expect(o.result.verdict).toBe('ok');
    expect(o.result.calls[0]?.progress).toEqual([1, 2, 3, 4, 5]);
    const call = toolCall(o);
    expect(responseHeader(call, 'x-accel-buffering')).toBeUndefined();
    expect(responseHeader(call, 'content-encoding')).toBeUndefined();
    expectWrittenOverTime(o);
    expectOneBurstAtTheEnd(o, call);
    // Even the response head waited for the end (nginx holds less than postpone_output without a flush).
    expect(call.responseTime).toBeGreaterThanOrEqual(callWrites(o).at(-1)?.t as number);
    // The standalone GET, on which the server writes nothing, never got its head before the client closed.
    const get = only(standaloneGets(o), 'standalone GETs');
    expect(get.status).toBeUndefined();
    expect(get.end).toBe('aborted');
  });
});

describe('compression() in front of the SDK 1.32 server (the control)', () => {
  it('passes every progress event through when the server writes it: no-transform', async () => {
    const o = await runIntermediary(findRun('compression-streamed'));
    expect(o.result.verdict).toBe('ok');
    const call = toolCall(o);
    expect(responseHeader(call, 'content-encoding')).toBeUndefined();
    expect(responseHeader(call, 'cache-control')).toBe('no-cache, no-transform');
    expectWrittenOverTime(o);
    const written = callWrites(o);
    // Each write the tool then slept after (the priming, progress 1 to 4) had reached the client before the next one.
    let sent = 0;
    for (const [i, write] of written.entries()) {
      sent += Buffer.byteLength(write.text);
      const next = written[i + 1];
      if (!next) break;
      if (next.t - write.t < PROGRESS.delayMs / 2) continue;
      const received = call.chunks.filter((c) => c.t <= next.t).reduce((n, c) => n + c.bytes.length, 0);
      expect(received, `bytes received before write ${i + 2}`).toBeGreaterThanOrEqual(sent);
    }
    expect(bodyText(call)).toBe(written.map((w) => w.text).join(''));
  });
});
