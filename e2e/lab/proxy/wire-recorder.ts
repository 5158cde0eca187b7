// Runs in Node (lab proxy): records every proxied exchange as the client received it: the request as it
// arrived, the response head the proxy wrote, each body chunk it wrote (after the fault was applied), and how
// the response ended. What the fixture recorder turns into HAR + chunks.ndjson; the product's tap plays no part.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ExchangeRecorder, ExchangeTrace } from '../../../src/proxy/trace';

/** How a response ended, from the proxy's side of the client connection. */
export type WireEnd = 'complete' | 'failed' | 'aborted' | 'open';

export interface WireChunk {
  /** ms since the recording started (monotonic). */
  at: number;
  offset: number;
  length: number;
}

export interface WireExchange {
  /** 1-based, in the order requests arrived. */
  seq: number;
  /** 1-based number of the client's TCP connection, in the order the proxy first saw each. */
  conn: number;
  method: string;
  url: string;
  httpVersion: string;
  /** As the client sent them: order and spelling kept. */
  requestHeaders: [string, string][];
  requestBody?: Buffer;
  startAt: number;
  status?: number;
  statusText?: string;
  responseHeaders?: [string, string][];
  responseAt?: number;
  chunks: WireChunk[];
  body: Buffer[];
  bytes: number;
  end: WireEnd;
  endAt?: number;
  /** Why a failed response failed, in the proxy's words. */
  error?: string;
}

export class WireRecorder implements ExchangeRecorder {
  /** Wall-clock ms of `at` = 0. */
  private origin = performance.timeOrigin + performance.now();
  private originMono = performance.now();
  private list: WireExchange[] = [];
  private connections = new WeakMap<Socket, number>();
  private nextConn = 1;
  private waiters: (() => void)[] = [];

  /** Forgets what was recorded and starts the clock again (one recording per scenario). */
  reset(): void {
    this.list = [];
    this.connections = new WeakMap();
    this.nextConn = 1;
    this.originMono = performance.now();
    this.origin = performance.timeOrigin + this.originMono;
  }

  /** Wall-clock ms (epoch) of the recording's time 0. */
  get startedAt(): number {
    return this.origin;
  }

  exchanges(): readonly WireExchange[] {
    return this.list;
  }

  /** Resolves true once every exchange has ended, false if some are still open after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (this.list.some((e) => e.end === 'open')) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  begin(req: IncomingMessage, baseUrl: string): ExchangeTrace {
    const exchange: WireExchange = {
      seq: this.list.length + 1,
      conn: this.connectionNumber(req.socket),
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', baseUrl).href,
      httpVersion: `HTTP/${req.httpVersion}`,
      requestHeaders: pairs(req.rawHeaders),
      startAt: this.now(),
      chunks: [],
      body: [],
      bytes: 0,
      end: 'open',
    };
    this.list.push(exchange);
    let cut = false;
    const finish = (how: Exclude<WireEnd, 'open'>, error?: string): void => {
      if (exchange.end !== 'open') return;
      exchange.end = how;
      exchange.endAt = this.now();
      if (error !== undefined) exchange.error = error;
      for (const wake of this.waiters.splice(0)) wake();
    };
    return {
      requestBody: (body) => {
        if (body && body.length > 0) exchange.requestBody = Buffer.from(body);
      },
      // A request fault's rewrite: the fixture keeps the request as the server got it.
      rewritten: (headers, body) => {
        const replaced = new Set(Object.keys(headers));
        exchange.requestHeaders = [
          ...exchange.requestHeaders.filter(([name]) => !replaced.has(name.toLowerCase())),
          ...Object.entries(headers),
        ];
        if (body && body.length > 0) exchange.requestBody = Buffer.from(body);
      },
      head: (status, statusText, headers) => {
        if (exchange.end !== 'open') return;
        exchange.status = status;
        exchange.statusText = statusText;
        exchange.responseHeaders = Object.entries(headers).flatMap(([name, value]): [string, string][] =>
          Array.isArray(value) ? value.map((v): [string, string] => [name, v]) : [[name, value]],
        );
        exchange.responseAt = this.now();
      },
      write: (bytes) => {
        if (bytes.length === 0 || exchange.end !== 'open') return;
        exchange.chunks.push({ at: this.now(), offset: exchange.bytes, length: bytes.length });
        exchange.body.push(Buffer.from(bytes));
        exchange.bytes += bytes.length;
      },
      cut: () => {
        cut = true;
      },
      end: (how, error) => {
        if (cut && how !== 'complete')
          finish('failed', 'cut by the lab proxy: the connection ended without the terminating chunk');
        else finish(how, error);
      },
    };
  }

  private now(): number {
    return performance.now() - this.originMono;
  }

  private connectionNumber(socket: Socket): number {
    let n = this.connections.get(socket);
    if (n === undefined) {
      n = this.nextConn++;
      this.connections.set(socket, n);
    }
    return n;
  }
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}
