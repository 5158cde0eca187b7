// Node (benches): a live MCP-shaped origin on 127.0.0.1 that answers POST /mcp (a tools/call) with an SSE stream of
// progress notifications on an irregular schedule, then the result: bursts a millisecond apart, steady steps,
// longer pauses, and one large event that the socket splits. It logs when it wrote each piece (ms after its head),
// so a client can be measured against a live server's own writes as well as against a recording.
import { createServer, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { closeServer, listen, readBody, trackSockets } from '../../src/proxy/node-http';

export interface PacedOrigin {
  /** The MCP endpoint, http://127.0.0.1:PORT/mcp */
  url: string;
  /** Per request served, in order: each write's ms after the head was written. */
  writes: number[][];
  close(): Promise<void>;
}

export interface Step {
  /** Ms after the previous write (after the head for the first). */
  gapMs: number;
  bytes: Buffer;
}

/** A seeded generator (mulberry32): the same schedule every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CALL = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'stream_progress', arguments: { count: 150 }, _meta: { progressToken: 7 } },
};

const sse = (id: number, message: unknown): Buffer =>
  Buffer.from(`event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`);

/** `count` progress events at gaps of 0-2 ms (a quarter), 5-25 ms (half) or 40-80 ms, then the result. */
export function schedule(count: number): Step[] {
  const next = random(30);
  const steps: Step[] = [];
  for (let n = 1; n <= count; n++) {
    const roll = next();
    const gapMs = roll < 0.25 ? next() * 2 : roll < 0.75 ? 5 + next() * 20 : 40 + next() * 40;
    // Event 100 carries 200 KB: the origin writes it at once, the socket hands it on in pieces.
    const message = n === 100 ? 'x'.repeat(200_000) : 'y'.repeat(Math.floor(next() * 2000));
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 7, progress: n, message },
    };
    steps.push({ gapMs: n === 1 ? 5 : gapMs, bytes: sse(n, progress) });
  }
  steps.push({ gapMs: 10, bytes: sse(count + 1, { jsonrpc: '2.0', id: 7, result: { content: [] } }) });
  return steps;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function play(res: ServerResponse, steps: readonly Step[], log: number[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const head = performance.now();
  let due = head;
  for (const step of steps) {
    // Each gap counts from when the previous write was due, so late timers do not add up.
    due += step.gapMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (res.destroyed) return;
    log.push(performance.now() - head);
    res.write(step.bytes);
  }
  res.end();
}

export async function startPacedOrigin(steps: readonly Step[]): Promise<PacedOrigin> {
  const writes: number[][] = [];
  const server = createServer((req, res) => {
    void readBody(req).then(() => {
      const log: number[] = [];
      writes.push(log);
      return play(res, steps, log);
    });
  });
  const sockets = trackSockets(server);
  const port = await listen(server, 0);
  return { url: `http://127.0.0.1:${port}/mcp`, writes, close: () => closeServer(server, sockets) };
}
