// Runs in Node (lab server): the 2024-11-05 HTTP+SSE endpoints (GET /sse, POST /messages) with
// the SDK's SSEServerTransport, one MCP server per SSE connection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { jsonRpcError, sendJson } from '../node-http';
import { createLabServer } from './tools';

export const LEGACY_SSE_PATH = '/sse';
export const LEGACY_MESSAGES_PATH = '/messages';

export class LegacySseEndpoints {
  private readonly transports = new Map<string, SSEServerTransport>();

  constructor(
    private readonly shutdown: AbortSignal,
    private readonly onError: (error: Error) => void,
  ) {}

  async open(res: ServerResponse): Promise<void> {
    const transport = new SSEServerTransport(LEGACY_MESSAGES_PATH, res);
    this.transports.set(transport.sessionId, transport);
    transport.onclose = () => this.transports.delete(transport.sessionId);
    const server = createLabServer(this.shutdown);
    server.server.onerror = this.onError;
    await server.connect(transport);
  }

  async post(req: IncomingMessage, res: ServerResponse, sessionId: string | null): Promise<void> {
    const transport = sessionId ? this.transports.get(sessionId) : undefined;
    if (!transport) {
      sendJson(res, 404, jsonRpcError(-32001, 'Session not found'));
      return;
    }
    await transport.handlePostMessage(req, res);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.transports.values()].map((transport) => transport.close()));
    this.transports.clear();
  }
}
