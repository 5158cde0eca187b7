// Runs in Node (lab server for the intermediaries): an SDK server transport mounted in Express as the SDK's own examples
// do (`createMcpExpressApp`, one StreamableHTTPServerTransport per session, the lab's tools and event store), SDK 1.32 or
// 1.29, optionally behind the `compression()` middleware, with a log of every write the SDK made, before any middleware.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import compression from 'compression';
import type { Request, Response } from 'express';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { closeServer, trackSockets } from '../../../src/proxy/node-http';
import { MCP_PATH } from '../server/instance';
import { createEventStore } from '../server/stores/index';
import { openSdk129Session } from './sdk-1.29-session';
import { openSdk132Session, type OriginSession, type SessionSettings } from './session';

export interface ExpressOriginOptions {
  /** Which SDK serves the sessions: 1.32.2 (the lab's; every SSE response `no-transform`, `X-Accel-Buffering: no`), or
   * 1.29.0 (POST streams with `Cache-Control: no-cache` only, no keep-alives: the servers deployed before 1.30). */
  sdk?: '1.32' | '1.29';
  /** Put `compression()` (its defaults) in front of the MCP route, as many Node servers do for every route. */
  compression?: boolean;
  /** The SDK transport's `keepAliveMs`: a `: keepalive` comment on every open SSE stream this often (SDK default 15 s). */
  keepAliveMs?: number;
  /** `retry:` in the priming events (ms). */
  retryIntervalMs?: number;
  /** A fixed port (the fixture recorder's, so URLs stay the same); an ephemeral one by default. */
  port?: number;
}

/** One write of the SDK transport into its response, as the server made it (before compression). */
export interface OriginWrite {
  /** Epoch ms, the clock the client's recording fetch uses. */
  t: number;
  /** The request this response answers: its method and path. */
  method: string;
  path: string;
  /** The JSON-RPC method of a POST (`tools/call`, ...); undefined for GET and DELETE. */
  rpc?: string;
  /** True for the response's last write (`end`). */
  end: boolean;
  text: string;
}

/** One message the SDK put into the event store (every SSE message of a resumable stream, delivered or not). */
export interface OriginStored {
  t: number;
  streamId: string;
  eventId: string;
  message: JSONRPCMessage;
}

export interface ExpressOrigin {
  /** `http://127.0.0.1:<port>`; the MCP endpoint is at `${url}/mcp`. */
  url: string;
  /** Every write so far, in order. */
  writes(): readonly OriginWrite[];
  /** Every message the SDK stored, in order: what the server produced, whether or not a stream carried it. */
  stored(): readonly OriginStored[];
  /** What the SDK reported through onerror (a 409 to a resume, ...), with the time: for test diagnostics. */
  errors(): readonly { t: number; message: string }[];
  close(): Promise<void>;
}

const decoder = new TextDecoder();

function textOf(chunk: unknown): string {
  if (typeof chunk === 'string') return chunk;
  if (chunk instanceof Uint8Array) return decoder.decode(chunk);
  return '';
}

function rpcMethod(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const method = (body as { method?: unknown }).method;
  return typeof method === 'string' ? method : 'response';
}

/** Logs what the SDK writes into `res`: installed after compression, so it sees the SDK's bytes, not gzip's. */
function logWrites(req: Request, res: Response, log: OriginWrite[]): void {
  const write = res.write;
  const end = res.end;
  const note = (chunk: unknown, last: boolean): void => {
    const text = textOf(chunk);
    if (text === '' && !last) return;
    log.push({ t: Date.now(), method: req.method, path: req.path, rpc: rpcMethod(req.body), end: last, text });
  };
  res.write = function loggedWrite(this: Response, chunk: unknown, ...rest: unknown[]): boolean {
    note(chunk, false);
    return Reflect.apply(write, this, [chunk, ...rest]) as boolean;
  } as Response['write'];
  res.end = function loggedEnd(this: Response, ...args: unknown[]): Response {
    note(typeof args[0] === 'function' ? undefined : args[0], true);
    return Reflect.apply(end, this, args) as Response;
  } as Response['end'];
}

/** The session's event store, logging what the SDK stores into it. */
function loggedStore(inner: EventStore, log: OriginStored[]): EventStore {
  const streamOf = inner.getStreamIdForEventId?.bind(inner);
  return {
    storeEvent: async (streamId, message) => {
      const eventId = await inner.storeEvent(streamId, message);
      log.push({ t: Date.now(), streamId, eventId, message });
      return eventId;
    },
    replayEventsAfter: (lastEventId, options) => inner.replayEventsAfter(lastEventId, options),
    ...(streamOf && { getStreamIdForEventId: streamOf }),
  };
}

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

export async function startExpressOrigin(options: ExpressOriginOptions = {}): Promise<ExpressOrigin> {
  if (options.sdk === '1.29' && options.keepAliveMs !== undefined)
    throw new Error('SDK 1.29 has no keep-alive option (keepAliveMs came with 1.30)');
  const sessions = new Map<string, OriginSession>();
  const shutdown = new AbortController();
  const store = createEventStore({ idScheme: 'sdk-stream', epoch: 'express', onUnknownCursor: 'reject' });
  const log: OriginWrite[] = [];
  const errors: { t: number; message: string }[] = [];
  const stored: OriginStored[] = [];
  const app = createMcpExpressApp({ host: '127.0.0.1' });
  if (options.compression) app.use(compression());
  app.use((req, res, next) => {
    logWrites(req, res, log);
    next();
  });

  const openSession = async (): Promise<OriginSession> => {
    const sessionId = randomUUID();
    const settings: SessionSettings = {
      sessionId,
      eventStore: store && loggedStore(store.forSession(sessionId), stored),
      retryIntervalMs: options.retryIntervalMs ?? 150,
      keepAliveMs: options.keepAliveMs,
      shutdown: shutdown.signal,
      onError: (error) => errors.push({ t: Date.now(), message: error.message }),
      onClosed: () => sessions.delete(sessionId),
    };
    const session = options.sdk === '1.29' ? await openSdk129Session(settings) : await openSdk132Session(settings);
    sessions.set(sessionId, session);
    return session;
  };

  app.all(MCP_PATH, (req, res) => {
    const handle = async (): Promise<void> => {
      const sessionId = req.header('mcp-session-id');
      if (!sessionId) {
        if (req.method === 'POST' && isInitializeRequest(req.body)) {
          await (await openSession()).handle(req, res, req.body);
          return;
        }
        jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return;
      }
      const session = sessions.get(sessionId);
      if (!session) {
        jsonRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      await session.handle(req, res, req.body);
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, error instanceof Error ? error.message : 'Internal error');
      else res.destroy();
    });
  });

  const http = await new Promise<Server>((resolve, reject) => {
    const server = app.listen(options.port ?? 0, '127.0.0.1', (error?: Error) =>
      error ? reject(error) : resolve(server),
    );
  });
  const sockets: Set<Socket> = trackSockets(http);
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the Express origin has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    writes: () => log,
    errors: () => errors,
    stored: () => stored,
    close: async () => {
      shutdown.abort();
      await closeServer(http, sockets);
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
    },
  };
}
