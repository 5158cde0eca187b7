// Node (`npm run bench replay-throughput`): a 64 MB recorded SSE answer replayed at speed 0 against the product's
// fault proxy forwarding the same bytes from a live local origin; MB/s at one client, rounds alternated.
/*
 * How to read it
 * - The capture is built in memory (big-stream.ts): a tools/call answered with ~64 MB of progress events carrying
 *   the call's progress token (so the replay's id rewriting has every event to look at), then the result, in 64 KiB
 *   chunks. The origin writes the same bytes in the same 64 KiB writes.
 * - One round = one request on each side, the order alternating: the replay (a fresh startReplay each round, its
 *   start-up not timed, shown apart) and the proxy in front of the origin (no faults, no recorder on either side).
 *   The origin runs in a child process, as a live server would; the replay, the proxy and the client share this one.
 * - MB/s = body bytes / (connect -> the server closed the connection after the last chunk), at a raw-socket client
 *   that only counts bytes, so the client costs both sides the same and little. Figure: median replay / median proxy.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startFaultProxy } from '../../src/proxy/fault-proxy';
import { startReplay } from '../../src/replay/index';
import { summarize, variantOrder } from '../browser/stats';
import { BIG_BYTES, BIG_CALL, bigBody, bigCapture } from './big-stream';

const ROUNDS = 9;
const TERMINATOR = Buffer.from('0\r\n\r\n');

/** POSTs the call and counts what comes back until the server closes; throws unless the last chunk came. */
function download(origin: string, size: number): Promise<number> {
  const { hostname, port } = new URL(origin);
  const body = JSON.stringify(BIG_CALL);
  const request =
    `POST /mcp HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
    `accept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let bytes = 0;
    let tail: Buffer = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      bytes += data.length;
      tail = data.length >= 5 ? data.subarray(-5) : Buffer.concat([tail, data]).subarray(-5);
    });
    socket.once('error', reject);
    socket.once('close', () => {
      const ms = performance.now() - started;
      if (bytes < BIG_BYTES || !tail.equals(TERMINATOR)) reject(new Error(`${origin}: ${bytes} B, not a whole answer`));
      else resolve(size / 1e6 / (ms / 1000));
    });
  });
}

/** The origin in a child process (big-origin-process.ts); closing its stdin stops it. */
async function startOriginProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('big-origin-process.ts', import.meta.url))],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const exited = once(child, 'exit');
  return {
    url: line,
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const body = bigBody(BIG_BYTES);
  const origin = await startOriginProcess();
  const capture = bigCapture(body, origin.url);
  const proxy = await startFaultProxy({
    upstream: new URL(origin.url),
    host: '127.0.0.1',
    port: 0,
    faults: [],
    onReport: () => undefined,
  });
  const replayRates: number[] = [];
  const proxyRates: number[] = [];
  const startups: number[] = [];
  try {
    // One untimed run each first, so both run optimized code.
    await download(new URL(proxy.url).origin, body.length);
    const warm = await startReplay({ capture, speed: 0 });
    try {
      await download(warm.origin, body.length);
    } finally {
      await warm.close();
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const onReplay of variantOrder(round)) {
        if (!onReplay) {
          proxyRates.push(await download(new URL(proxy.url).origin, body.length));
          continue;
        }
        const began = performance.now();
        const replay = await startReplay({ capture, speed: 0 });
        startups.push(performance.now() - began);
        try {
          replayRates.push(await download(replay.origin, body.length));
          if (replay.divergences().length > 0) throw new Error(replay.divergences()[0]?.message);
        } finally {
          await replay.close();
        }
      }
    }
  } finally {
    await proxy.close();
    await origin.close();
  }
  const replay = summarize(replayRates);
  const forwarded = summarize(proxyRates);
  const ratio = replay.median / forwarded.median;
  // Each round's pair ran seconds apart: the spread of these says how far the machine's load moved one comparison.
  const paired = summarize(replayRates.map((r, i) => r / (proxyRates[i] ?? Number.NaN)));
  const range = (s: typeof replay) => `${s.median.toFixed(0)} [${s.min.toFixed(0)}-${s.max.toFixed(0)}]`;
  process.stdout.write(
    `${(body.length / 1e6).toFixed(1)} MB in ${capture.connections[0]?.chunks.length} chunks, ${ROUNDS} rounds alternated, MB/s median [min-max]\n` +
      `replay (speed 0): ${range(replay)}\nproxy from a live origin: ${range(forwarded)}\n` +
      `per-round ratio replay/proxy: ${paired.median.toFixed(2)} [${paired.min.toFixed(2)}-${paired.max.toFixed(2)}]\n` +
      `replay start-up (capture read into a script, not timed above): median ${summarize(startups).median.toFixed(0)} ms\n` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores\n`,
  );
  process.stdout.write(
    `BENCH replay-throughput replay-over-proxy=${ratio.toFixed(2)} replay-mb-s=${replay.median.toFixed(0)} ` +
      `proxy-mb-s=${forwarded.median.toFixed(0)} target=>=1.0 ${ratio >= 1 ? 'PASS' : 'FAIL'}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
