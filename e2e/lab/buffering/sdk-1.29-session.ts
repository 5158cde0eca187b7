// Runs in Node (lab server for the intermediaries): one MCP session on `@modelcontextprotocol/sdk` 1.29.0 (installed as
// `mcp-sdk-1.29`), the last release whose POST response streams carry only `Cache-Control: no-cache`: no `no-transform`,
// no `X-Accel-Buffering: no`, no keep-alive comments (1.30 added all three). Only the lab's `stream_progress` tool.
import { McpServer } from 'mcp-sdk-1.29/server/mcp.js';
import { StreamableHTTPServerTransport } from 'mcp-sdk-1.29/server/streamableHttp.js';
import { z } from 'zod';
import { streamProgressText } from '../payload';
import { LAB_SERVER_INFO } from '../server/tools';
import type { OriginSession, SessionSettings } from './session';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

export async function openSdk129Session(options: SessionSettings): Promise<OriginSession> {
  const server = new McpServer(LAB_SERVER_INFO, { capabilities: { logging: {} } });
  server.registerTool(
    'stream_progress',
    {
      description: 'Sends `count` progress notifications `delayMs` apart, then a text result.',
      inputSchema: { count: z.number().int().min(1).max(10_000), delayMs: z.number().int().min(0).max(60_000) },
    },
    async ({ count, delayMs }, extra) => {
      const signal = AbortSignal.any([extra.signal, options.shutdown]);
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= count; step++) {
        await sleep(delayMs, signal);
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: count, message: `step ${step}` },
          });
        }
      }
      return { content: [{ type: 'text', text: streamProgressText({ count, delayMs }) }] };
    },
  );
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => options.sessionId,
    eventStore: options.eventStore,
    retryInterval: options.retryIntervalMs,
  });
  transport.onclose = options.onClosed;
  transport.onerror = options.onError;
  server.server.onerror = options.onError;
  await server.connect(transport);
  return {
    handle: (req, res, body) => transport.handleRequest(req, res, body),
    close: () => server.close(),
  };
}
