// Runs in Node (lab server): one origin process of the lab. A real MCP server (the SDK's
// McpServer + StreamableHTTPServerTransport, stateful sessions, an event store) on 127.0.0.1,
// plus the 2024-11-05 HTTP+SSE endpoints. The proxy runs two of them for a rolling restart.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { closeServer, headerValue, listen, readBody, trackSockets } from '../../../src/proxy/node-http';
import { jsonRpcError, sendJson } from '../node-http';
import type { OriginSettings } from '../scenarios';
import { createEventStore } from './stores/index';
import type { LabEventStore, UnknownCursorPolicy } from './stores/lab-event-store';
import { LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH, LegacySseEndpoints } from './legacy-sse';
import { createLabServer } from './tools';

export const MCP_PATH = '/mcp';
/** Self-call header: initialize a session under a given id (session restore on a new instance). */
const ADOPT_HEADER = 'x-lab-restore-session';
const ERROR_LIMIT = 200;

export interface InstanceOptions {
  name: string;
  origin: OriginSettings;
  /** What the store does with a cursor from another process (see UnknownCursorPolicy). */
  onUnknownCursor?: UnknownCursorPolicy;
  /**
   * Restore sessions this instance never saw (as with a shared session registry), so a rolling
   * restart keeps the session id alive. Off: unknown sessions get 404.
   */
  restoreUnknownSessions?: boolean;
  /** `retry:` in priming events; the SDK client then waits this long before reconnecting. */
  retryIntervalMs?: number;
  /** An epoch this instance must not pick (the one it replaces). */
  notEpoch?: string;
}

export interface ServerInstance {
  readonly name: string;
  readonly url: string;
  readonly epoch: string;
  readonly store: LabEventStore | undefined;
  /** Errors the SDK reported (kept for test diagnostics, never printed). */
  readonly errors: readonly string[];
  sessionIds(): string[];
  /** Forgets a session as a server that lost it would: its streams end, later requests get 404. */
  dropSession(sessionId: string): Promise<boolean>;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

function newEpoch(not?: string): string {
  for (;;) {
    const epoch = randomBytes(3).toString('hex');
    if (epoch !== not) return epoch;
  }
}

class LabInstance implements ServerInstance {
  readonly epoch: string;
  readonly store: LabEventStore | undefined;
  readonly errors: string[] = [];
  url = '';
  private readonly sessions = new Map<string, Session>();
  private readonly restoring = new Map<string, Promise<Session | undefined>>();
  private readonly shutdown = new AbortController();
  private readonly http = createServer((req, res) => {
    this.route(req, res).catch((error: unknown) => this.fail(res, error));
  });
  private readonly sockets = trackSockets(this.http);
  private readonly legacy = new LegacySseEndpoints(this.shutdown.signal, (error) => this.noteError(error));

  constructor(private readonly options: InstanceOptions) {
    this.epoch = newEpoch(options.notEpoch);
    this.store = createEventStore({
      idScheme: options.origin.idScheme,
      epoch: this.epoch,
      ring: options.origin.ring,
      onUnknownCursor: options.onUnknownCursor ?? 'reject',
    });
  }

  get name(): string {
    return this.options.name;
  }

  async listen(): Promise<void> {
    const port = await listen(this.http);
    this.url = `http://127.0.0.1:${port}`;
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  async dropSession(sessionId: string): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (!session) return false;
    this.sessions.delete(sessionId);
    await session.server.close();
    return true;
  }

  async close(): Promise<void> {
    this.shutdown.abort();
    // Like a process going away: connections drop first, then the sessions are released.
    await closeServer(this.http, this.sockets);
    await Promise.all([...this.sessions.values()].map((session) => session.server.close()));
    this.sessions.clear();
    await this.legacy.closeAll();
  }

  private noteError(error: unknown): void {
    if (this.errors.length < ERROR_LIMIT) this.errors.push(error instanceof Error ? error.message : String(error));
  }

  private fail(res: ServerResponse, error: unknown): void {
    this.noteError(error);
    if (!res.headersSent) sendJson(res, 500, jsonRpcError(-32603, 'Internal error'));
    else res.destroy();
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === MCP_PATH) return this.handleMcp(req, res);
    if (url.pathname === LEGACY_SSE_PATH && req.method === 'GET') return this.legacy.open(res);
    if (url.pathname === LEGACY_MESSAGES_PATH && req.method === 'POST') {
      return this.legacy.post(req, res, url.searchParams.get('sessionId'));
    }
    sendJson(res, 404, { error: 'not found' });
  }

  private async handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    if (req.method === 'POST') {
      const raw = (await readBody(req)).toString('utf8');
      try {
        body = JSON.parse(raw);
      } catch {
        sendJson(res, 400, jsonRpcError(-32700, 'Parse error: Invalid JSON'));
        return;
      }
    }
    const sessionId = headerValue(req, 'mcp-session-id');
    if (!sessionId) {
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const restoreId = this.options.restoreUnknownSessions ? headerValue(req, ADOPT_HEADER) : undefined;
        const session = await this.openSession(restoreId ?? randomUUID());
        await session.transport.handleRequest(req, res, body);
        return;
      }
      sendJson(res, 400, jsonRpcError(-32000, 'Bad Request: Mcp-Session-Id header is required'));
      return;
    }
    const session =
      this.sessions.get(sessionId) ?? (await this.restore(sessionId, headerValue(req, 'mcp-protocol-version')));
    if (!session) {
      sendJson(res, 404, jsonRpcError(-32001, 'Session not found'));
      return;
    }
    await session.transport.handleRequest(req, res, body);
  }

  private async openSession(sessionId: string): Promise<Session> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: this.store?.forSession(sessionId),
      retryInterval: this.store ? (this.options.retryIntervalMs ?? 150) : undefined,
    });
    transport.onclose = () => {
      if (this.sessions.get(sessionId)?.transport === transport) this.sessions.delete(sessionId);
    };
    const server = createLabServer(this.shutdown.signal);
    server.server.onerror = (error) => this.noteError(error);
    await server.connect(transport);
    const session = { transport, server };
    this.sessions.set(sessionId, session);
    return session;
  }

  private restore(sessionId: string, protocolVersion: string | undefined): Promise<Session | undefined> {
    if (!this.options.restoreUnknownSessions) return Promise.resolve(undefined);
    let pending = this.restoring.get(sessionId);
    if (!pending) {
      pending = this.handshake(sessionId, protocolVersion ?? LATEST_PROTOCOL_VERSION).finally(() =>
        this.restoring.delete(sessionId),
      );
      this.restoring.set(sessionId, pending);
    }
    return pending;
  }

  /** Re-creates the session here by running the MCP handshake against this instance under the old id. */
  private async handshake(sessionId: string, protocolVersion: string): Promise<Session | undefined> {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'session-restore', version: '1' },
      },
    };
    const opened = await fetch(`${this.url}${MCP_PATH}`, {
      method: 'POST',
      headers: { ...headers, [ADOPT_HEADER]: sessionId },
      body: JSON.stringify(initialize),
    });
    await opened.text();
    if (!opened.ok) throw new Error(`session restore failed: ${opened.status}`);
    const initialized = await fetch(`${this.url}${MCP_PATH}`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await initialized.text();
    return this.sessions.get(sessionId);
  }
}

export async function startInstance(options: InstanceOptions): Promise<ServerInstance> {
  const instance = new LabInstance(options);
  await instance.listen();
  return instance;
}
