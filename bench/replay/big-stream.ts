// Node (benches): one 64 MB MCP answer, as a live origin that writes it and as the capture of that origin: the
// same bytes in the same 64 KiB pieces, so the replay and the proxy move the same writes.
import { createServer, type ServerResponse } from 'node:http';
import type { Capture } from '../../src/core/capture/model';
import { closeServer, listen, readBody, trackSockets } from '../../src/proxy/node-http';

export const PIECE_BYTES = 64 * 1024;
/** The answer's size: 64 MiB of events, then the result. */
export const BIG_BYTES = 64 * 1024 * 1024;

export const BIG_CALL = {
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'export', arguments: {}, _meta: { progressToken: 3 } },
};

/** Progress events (each with the call's progress token, as a real long call sends) up to `bytes`, then the result. */
export function bigBody(bytes: number): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const message = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 3, progress: n, message: `row ${n} of the export`.padEnd(120, '.') },
    };
    const event = Buffer.from(`event: message\nid: ${n}\ndata: ${JSON.stringify(message)}\n\n`);
    parts.push(event);
    size += event.length;
  }
  parts.push(
    Buffer.from(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [] } })}\n\n`),
  );
  return Buffer.concat(parts);
}

const HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** The body's capture: a POST answered 200 with the body in PIECE_BYTES chunks, 0.1 ms apart. */
export function bigCapture(body: Buffer, url: string): Capture {
  const start = 1_800_000_000_000;
  const chunks = [];
  for (let offset = 0, k = 0; offset < body.length; offset += PIECE_BYTES, k++)
    chunks.push({ t: start + 5 + k * 0.1, bytes: body.subarray(offset, offset + PIECE_BYTES) });
  return {
    tool: { name: 'bench', version: '0' },
    createdAt: start,
    connections: [
      {
        id: 'e1',
        source: 'har',
        method: 'POST',
        url,
        requestHeaders: [
          { name: 'content-type', value: 'application/json' },
          { name: 'accept', value: 'application/json, text/event-stream' },
        ],
        requestBody: JSON.stringify(BIG_CALL),
        startTime: start,
        status: 200,
        statusText: 'OK',
        responseHeaders: Object.entries(HEADERS).map(([name, value]) => ({ name, value })),
        responseTime: start + 4,
        chunks,
        endTime: (chunks.at(-1)?.t ?? start) + 0.1,
        end: 'complete',
      },
    ],
  };
}

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

/** A live origin answering every POST with `body` in PIECE_BYTES writes, as fast as the socket takes them. */
export async function startBigOrigin(body: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void readBody(req).then(async () => {
      res.writeHead(200, HEADERS);
      for (let offset = 0; offset < body.length && !res.destroyed; offset += PIECE_BYTES)
        if (!res.write(body.subarray(offset, offset + PIECE_BYTES))) await drained(res);
      res.end();
    });
  });
  const sockets = trackSockets(server);
  const port = await listen(server, 0);
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => closeServer(server, sockets) };
}
