// Runs in Node (v2 lab): a real TypeScript SDK v2 server (`@modelcontextprotocol/server` `createMcpHandler` +
// `@modelcontextprotocol/node` `toNodeHandler`) on 127.0.0.1. It answers 2026-07-28 per request and 2025 clients
// statelessly (no session ids), with the lab's tools; the wire tap in front records what it sent.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { closeServer, listen, trackSockets } from '../../../src/proxy/node-http';
import { askUserText, bigResultText, streamProgressText } from '../payload';
import { serveStatic } from '../proxy/static-files';
import { WireRecorder } from '../proxy/wire-recorder';
import { tappedListener, type CutPlan, type TapLog } from './wire-tap';

export const V2_SERVER_INFO = { name: 'mcp-stream-inspector-lab-v2', version: '0.1.0' };
/** The opaque state ask_user's first round hands the client; the retry must echo it byte for byte. */
export const ASK_USER_STATE = 'ask_user:round-1:c2VlbiBvbiB0aGUgd2lyZQ==';

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('cancelled: the client closed the response stream'));
      },
      { once: true },
    );
  });

/** The lab's three tools over the v2 API: progress, a large result, and an elicitation as a multi-round trip. */
function labServer(): McpServer {
  const server = new McpServer(V2_SERVER_INFO, { capabilities: { tools: { listChanged: true } } });
  server.registerTool(
    'stream_progress',
    {
      description: 'Sends `count` progress notifications `delayMs` apart, then a text result.',
      inputSchema: z.object({ count: z.number().int().min(1).max(1000), delayMs: z.number().int().min(0).max(5000) }),
    },
    async ({ count, delayMs }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= count; step++) {
        await sleep(delayMs, ctx.mcpReq.signal);
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: count, message: `step ${step}` },
          });
      }
      return { content: [{ type: 'text', text: streamProgressText({ count, delayMs }) }] };
    },
  );
  server.registerTool(
    'big_result',
    {
      description: 'Returns a text result of exactly `sizeBytes` bytes.',
      inputSchema: z.object({ sizeBytes: z.number().int().min(1).max(16_777_216) }),
    },
    ({ sizeBytes }) => ({ content: [{ type: 'text', text: bigResultText(sizeBytes) }] }),
  );
  server.registerTool(
    'ask_user',
    {
      description: 'Asks the client a question (elicitation, as a multi-round-trip request) and returns the answer.',
      inputSchema: z.object({ question: z.string().min(1).max(1000) }),
    },
    ({ question }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'answer')?.['answer'];
      if (typeof answer !== 'string' || ctx.mcpReq.requestState() !== ASK_USER_STATE)
        return inputRequired({
          inputRequests: {
            answer: inputRequired.elicit({
              message: question,
              requestedSchema: {
                type: 'object',
                properties: { answer: { type: 'string', title: 'Answer' } },
                required: ['answer'],
              },
            }),
          },
          requestState: ASK_USER_STATE,
        });
      return { content: [{ type: 'text', text: askUserText(answer) }] };
    },
  );
  return server;
}

export interface V2Lab {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  recorder: WireRecorder;
  /** Cut plans still to apply, in order (each applies once). */
  plans: CutPlan[];
  log: TapLog;
  /** Publishes notifications/tools/list_changed on every open subscriptions/listen stream. */
  toolsChanged(): void;
  close(): Promise<void>;
}

/**
 * Starts the v2 server on 127.0.0.1 (a free port unless `port` is given). With `pageDir` (the built v2 page,
 * buildV2Page) it also serves that page on every other path, and POST /__lab/tools-changed publishes
 * tools/list_changed: the page's client then talks to its own origin.
 */
export async function startV2Lab(port = 0, pageDir?: string): Promise<V2Lab> {
  const handler = createMcpHandler(labServer, { keepAliveMs: 0 });
  const recorder = new WireRecorder();
  const plans: CutPlan[] = [];
  const log: TapLog = { cuts: [] };
  let base = '';
  const mcp = tappedListener(recorder, () => base, toNodeHandler(handler), plans, log);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (pageDir === undefined || path === '/mcp') return mcp(req, res);
    if (req.method === 'POST' && path === '/__lab/tools-changed') {
      handler.notify.toolsChanged();
      res.writeHead(204).end();
      return undefined;
    }
    return void serveStatic(pageDir, path, res);
  });
  const sockets = trackSockets(server);
  const bound = await listen(server, port);
  base = `http://127.0.0.1:${bound}`;
  return {
    url: `${base}/mcp`,
    recorder,
    plans,
    log,
    toolsChanged: () => handler.notify.toolsChanged(),
    close: async () => {
      await handler.close();
      await closeServer(server, sockets);
    },
  };
}
