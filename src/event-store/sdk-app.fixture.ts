// Runs in Node (vitest): a real MCP server on the TypeScript SDK 1.32 (McpServer + StreamableHTTPServerTransport) on
// 127.0.0.1, guarded by an event store of this library, that the tests can restart as a new "process" (new store,
// new transports) behind the same URL, restoring its sessions from a shared registry; test support, not shipped.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { closeServer, headerValue, listen, readBody, trackSockets } from '../proxy/node-http';
import { refuseStaleResumeNode } from './node';
import type { GuardedEventStore } from './types';

/** The header of the app's self-call that re-creates a known session in a new process (loopback only). */
const RESTORE_HEADER = 'x-restore-session';

/** The tool's exact answer, so the client's copy can be compared byte for byte with what the server produced. */
export function resultText(count: number, bytes: number): string {
  let text = `streamed ${count} steps;`;
  for (let i = 0; text.length < bytes; i++) text += ` ${i.toString(36)}:${((i * 2654435761) >>> 0).toString(16)}`;
  return text.slice(0, bytes);
}

/** What every process of the app shares, as a real deployment keeps it in Redis or a database. */
interface Shared {
  /** The initialize request of each session: what a new process needs to re-create the session. */
  registry: Map<string, unknown>;
  /** Tool results as the server produced them (JSON text of the whole result), in order. */
  produced: string[];
  guard: boolean;
  retryMs: number;
  url: string;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** One process of the app: its store, its SDK transports, its running tools. */
class AppProcess {
  private readonly sessions = new Map<string, Session>();
  /** Calls not yet answered, by request id: a graceful restart waits for them. */
  private readonly running = new Map<RequestId, Promise<void>>();
  private readonly answering = new Map<RequestId, () => void>();

  constructor(
    readonly store: GuardedEventStore,
    private readonly shared: Shared,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    if (req.method === 'POST') body = JSON.parse((await readBody(req)).toString('utf8'));
    const sessionId = headerValue(req, 'mcp-session-id');
    if (!sessionId) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Mcp-Session-Id required' } });
        return;
      }
      const adopted = headerValue(req, RESTORE_HEADER);
      const id = adopted ?? randomUUID();
      if (adopted === undefined) this.shared.registry.set(id, body);
      const session = await this.open(id);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    const session = this.sessions.get(sessionId) ?? (await this.restore(sessionId));
    if (!session) {
      sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      return;
    }
    // The pre-check: a resume the store cannot continue exactly gets the refusal that says why.
    if (this.shared.guard && (await refuseStaleResumeNode(req, res, this.store, sessionId))) return;
    await session.transport.handleRequest(req, res, body);
  }

  /** Resolves once every call this process took has been answered (the answer is in the store, or on the wire). */
  async drained(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** Notes a call running until the transport has sent its answer. */
  private track(requestId: RequestId): void {
    this.running.set(requestId, new Promise((resolve) => this.answering.set(requestId, resolve)));
  }

  /** The transport's send, noting each answer once the SDK has stored (and maybe written) it. */
  private noteAnswers(transport: StreamableHTTPServerTransport): void {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      await send(message, options);
      const id = 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined;
      if (id !== undefined) {
        this.answering.get(id)?.();
        this.answering.delete(id);
        this.running.delete(id);
      }
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.server.close()));
    this.sessions.clear();
  }

  private async open(sessionId: string): Promise<Session> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: this.store.forSession(sessionId),
      retryInterval: this.shared.retryMs,
    });
    this.noteAnswers(transport);
    const server = this.mcpServer();
    await server.connect(transport);
    const session = { transport, server };
    this.sessions.set(sessionId, session);
    return session;
  }

  /** Re-creates a session another process created: the SDK keeps sessions per process, in its transports. */
  private async restore(sessionId: string): Promise<Session | undefined> {
    const initialize = this.shared.registry.get(sessionId);
    if (initialize === undefined) return undefined;
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    // The SDK 1.32 Node transport only takes an initialize from an HTTP request: the app calls itself.
    const opened = await fetch(this.shared.url, {
      method: 'POST',
      headers: { ...headers, [RESTORE_HEADER]: sessionId },
      body: JSON.stringify(initialize),
    });
    await opened.text();
    const done = await fetch(this.shared.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await done.text();
    return this.sessions.get(sessionId);
  }

  private mcpServer(): McpServer {
    const server = new McpServer({ name: 'event-store-test', version: '1.0.0' });
    server.registerTool(
      'stream',
      {
        description: 'Sends `count` progress notifications `delayMs` apart, then a text result of `bytes` bytes.',
        inputSchema: { count: z.number().int(), delayMs: z.number().int(), bytes: z.number().int() },
      },
      async (args, extra) => {
        this.track(extra.requestId);
        const token = extra._meta?.progressToken;
        for (let step = 1; step <= args.count; step++) {
          await sleep(args.delayMs);
          if (token !== undefined)
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: args.count },
            });
        }
        const result = { content: [{ type: 'text' as const, text: resultText(args.count, args.bytes) }] };
        this.shared.produced.push(JSON.stringify(result));
        return result;
      },
    );
    return server;
  }
}

export interface AppOptions {
  store: GuardedEventStore;
  /** Run the pre-check (default true); without it the store's SDK methods refuse on their own. */
  guard?: boolean;
  /** The `retry:` of priming events: how long the SDK client waits before it resumes. */
  retryMs?: number;
}

export interface GuardedApp {
  /** The MCP endpoint. */
  readonly url: string;
  readonly produced: readonly string[];
  /**
   * Restarts the app as a new process on `store`: requests wait meanwhile (a load balancer holding them), every open
   * connection drops, the old process finishes its running tools first when `drain` is set (a graceful deploy).
   */
  restart(store: GuardedEventStore, options?: { drain?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function startGuardedApp(options: AppOptions): Promise<GuardedApp> {
  const shared: Shared = {
    registry: new Map(),
    produced: [],
    guard: options.guard ?? true,
    retryMs: options.retryMs ?? 100,
    url: '',
  };
  let current: Promise<AppProcess> = Promise.resolve(new AppProcess(options.store, shared));
  const http = createServer((req, res) => {
    current
      .then((process) => process.handle(req, res))
      .catch(() => (res.headersSent ? res.destroy() : sendJson(res, 500, { error: 'internal' })));
  });
  const sockets = trackSockets(http);
  shared.url = `http://127.0.0.1:${await listen(http)}/mcp`;
  return {
    url: shared.url,
    produced: shared.produced,
    async restart(store, { drain = false } = {}) {
      const old = await current;
      let release: (next: AppProcess) => void = () => undefined;
      current = new Promise((resolve) => (release = resolve));
      for (const socket of sockets) socket.destroy();
      if (drain) await old.drained();
      await old.close();
      release(new AppProcess(store, shared));
    },
    async close() {
      await (await current).close();
      await closeServer(http, sockets);
    },
  };
}
