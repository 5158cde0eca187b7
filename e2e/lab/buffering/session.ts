// Runs in Node (lab server for the intermediaries): one MCP session of the Express origin on the lab's SDK 1.32 (its
// McpServer with the lab's tools, its StreamableHTTPServerTransport), and the session shape both SDK versions share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type EventStore, StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createLabServer } from '../server/tools';

/** One session of either SDK, as the origin drives it. */
export interface OriginSession {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface SessionSettings {
  sessionId: string;
  eventStore: EventStore | undefined;
  retryIntervalMs: number;
  keepAliveMs: number | undefined;
  shutdown: AbortSignal;
  /** What the SDK reported through the transport's and the server's onerror. */
  onError: (error: Error) => void;
  /** The transport closed (set before connect: the SDK's Protocol chains the handlers it finds). */
  onClosed: () => void;
}

export async function openSdk132Session(settings: SessionSettings): Promise<OriginSession> {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => settings.sessionId,
    eventStore: settings.eventStore,
    retryInterval: settings.retryIntervalMs,
    ...(settings.keepAliveMs !== undefined && { keepAliveMs: settings.keepAliveMs }),
  });
  transport.onclose = settings.onClosed;
  transport.onerror = settings.onError;
  const server: McpServer = createLabServer(settings.shutdown);
  server.server.onerror = settings.onError;
  await server.connect(transport);
  return {
    handle: (req, res, body) => transport.handleRequest(req, res, body),
    close: () => server.close(),
  };
}
