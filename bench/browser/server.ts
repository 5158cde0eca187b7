// Node (benches): the one server the browser benches talk to, on 127.0.0.1 only. It plays an MCP server:
// a blank page to run in, POST /mcp answered with an SSE stream (at full loopback speed, or paced), and
// POST /rpc answered with a small JSON-RPC result.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamBytes, type StreamShape } from './streams';

export interface BenchServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/** Socket writes of this size: the size of the chunks a page's reader gets from a fast local server. */
const WRITE_BYTES = 64 * 1024;

export const PAGE_PATH = '/page.html';

/** The query string that asks POST /mcp for a stream of `shape`, paced at `mbPerSecond` (0 = as fast as it goes). */
export function streamQuery(shape: StreamShape, mbPerSecond = 0): string {
  return `/mcp?events=${shape.events}&eventBytes=${shape.eventBytes}&pace=${mbPerSecond}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Resolves when the socket takes more, or closes (the page cancelled); removes both listeners either way. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes `bytes` in WRITE_BYTES pieces, waiting for 'drain' when the socket is full (so "full speed" is what the
 * page reads, not what Node buffers). Paced: piece k leaves no earlier than k * WRITE_BYTES / rate after the start,
 * so the rate holds on average even though timers fire late.
 */
async function writeStream(res: ServerResponse, bytes: Buffer, bytesPerMs: number): Promise<void> {
  const start = performance.now();
  for (let offset = 0; offset < bytes.length && !res.destroyed; offset += WRITE_BYTES) {
    if (bytesPerMs > 0) {
      const due = start + offset / bytesPerMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
    }
    if (!res.write(bytes.subarray(offset, offset + WRITE_BYTES))) await drained(res);
  }
  res.end();
}

async function answerStream(url: URL, res: ServerResponse): Promise<void> {
  const shape: StreamShape = {
    events: Number(url.searchParams.get('events')),
    eventBytes: Number(url.searchParams.get('eventBytes')),
  };
  const pace = Number(url.searchParams.get('pace') ?? '0');
  const bytes = streamBytes(shape);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    'mcp-session-id': 'bench-session',
  });
  // MB/s is 1e6 bytes per second, i.e. 1000 bytes per ms.
  await writeStream(res, bytes, pace * 1000);
}

function answerRpc(body: string, res: ServerResponse): void {
  const request = JSON.parse(body) as { id?: unknown };
  const reply = JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result: { content: [] } });
  res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'bench-session' });
  res.end(reply);
}

const PAGE = '<!doctype html><meta charset="utf-8"><title>bench page</title><p>bench page</p>\n';

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname === PAGE_PATH) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
    return;
  }
  if (req.method === 'POST' && (url.pathname === '/mcp' || url.pathname === '/rpc')) {
    const body = await readBody(req);
    if (url.pathname === '/mcp') await answerStream(url, res);
    else answerRpc(body, res);
    return;
  }
  res.writeHead(404).end();
}

/** Starts the server with the bodies of `shapes` already built (building 300k events takes seconds: not in a timing). */
export async function startBenchServer(shapes: readonly StreamShape[]): Promise<BenchServer> {
  for (const shape of shapes) streamBytes(shape);
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`bench server: ${String(error)}\n`);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
