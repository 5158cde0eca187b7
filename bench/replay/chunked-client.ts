// Node (benches): an HTTP/1.1 client on a raw socket that keeps what Node's http client hides: each chunk of a
// chunked response as the server wrote it, and when its last byte arrived. Node frames every res.write() of a
// chunked response as one chunk, so the chunk frames are the server's writes even when TCP joins several into one
// segment (which would merge them for a reader of the decoded body, as node:http's 'data' events do).
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ReadChunk {
  bytes: Buffer;
  /** Ms after the response head arrived that the chunk's last byte arrived. */
  afterHeadMs: number;
}

export interface ChunkedResponse {
  status: number;
  /** Ms from the request's first byte sent to the response head arrived. */
  headMs: number;
  chunks: ReadChunk[];
  /** The terminating chunk arrived (not a cut). */
  complete: boolean;
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends one request to `origin` and reads the chunked response to its end (or the connection's). */
export function requestChunks(origin: string, request: RawRequest): Promise<ChunkedResponse> {
  const { hostname, port } = new URL(origin);
  const body = Buffer.from(request.body ?? '');
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: ${hostname}:${port}`, 'connection: close'];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (body.length > 0) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parser = new ChunkedParser();
    let sentAt = 0;
    socket.once('connect', () => {
      sentAt = performance.now();
      socket.write(Buffer.concat([head, body]));
    });
    socket.on('data', (data: Buffer) => {
      try {
        if (parser.push(data, performance.now(), sentAt)) socket.destroy();
      } catch (error) {
        socket.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(parser.result()));
  });
}

/** The response head, then `size\r\n bytes \r\n` frames until a zero-size one. */
class ChunkedParser {
  private pending: Buffer = Buffer.alloc(0);
  private status = 0;
  private headAt = -1;
  private headMs = -1;
  private readonly chunks: ReadChunk[] = [];
  private complete = false;

  /** True once the terminating chunk is read. */
  push(data: Buffer, now: number, sentAt: number): boolean {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (this.headAt < 0) {
      const end = this.pending.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const text = this.pending.subarray(0, end).toString('latin1');
      if (!/\r\ntransfer-encoding: *chunked/i.test(text)) throw new Error(`not a chunked response: ${text}`);
      this.status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
      this.headAt = now;
      this.headMs = now - sentAt;
      this.pending = this.pending.subarray(end + 4);
    }
    for (;;) {
      const line = this.pending.indexOf('\r\n');
      if (line < 0) return false;
      const size = Number.parseInt(this.pending.subarray(0, line).toString('latin1'), 16);
      if (this.pending.length < line + 2 + size + 2) return false;
      if (size === 0) return (this.complete = true);
      const start = line + 2;
      this.chunks.push({ bytes: this.pending.subarray(start, start + size), afterHeadMs: now - this.headAt });
      this.pending = this.pending.subarray(start + size + 2);
    }
  }

  result(): ChunkedResponse {
    return { status: this.status, headMs: this.headMs, chunks: this.chunks, complete: this.complete };
  }
}
