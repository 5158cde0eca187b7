// Runs in Node (vitest): the memory store in a real TypeScript SDK v2 server (`@modelcontextprotocol/server`
// McpServer + WebStandardStreamableHTTPServerTransport, served by `@modelcontextprotocol/node`'s toNodeHandler) with
// the web-standard pre-check; the SDK 1.32 client through the fault proxy; a restart refuses the old cursor.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { isInitializeRequest, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeServer, listen, trackSockets } from '../proxy/node-http';
import { createEpochEventStore, type EpochEventStore } from './memory';
import { resultText } from './sdk-app.fixture';
import { bodyText, callThrough, resumes, serious, startProxy } from './sdk-client.fixture';
import { refuseStaleResume } from './web';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** One v2 server process: sessions in its transports, restored in-process from the shared registry. */
class V2Process {
  private readonly sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  private readonly servers: McpServer[] = [];

  constructor(
    readonly store: EpochEventStore,
    private readonly registry: Map<string, unknown>,
  ) {}

  async fetch(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (!sessionId) {
      const body: unknown = request.method === 'POST' ? await request.json() : undefined;
      if (!isInitializeRequest(body)) return new Response('session required', { status: 400 });
      const id = randomUUID();
      this.registry.set(id, body);
      return (await this.open(id)).handleRequest(request, { parsedBody: body });
    }
    const transport = this.sessions.get(sessionId) ?? (await this.restore(sessionId));
    if (!transport) return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001 } }, { status: 404 });
    return (await refuseStaleResume(request, this.store)) ?? transport.handleRequest(request);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close()));
  }

  private async open(sessionId: string): Promise<WebStandardStreamableHTTPServerTransport> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: this.store.forSession(sessionId),
      retryInterval: 100,
    });
    const server = new McpServer({ name: 'event-store-v2-test', version: '1.0.0' });
    server.registerTool(
      'stream',
      { inputSchema: z.object({ count: z.number().int(), delayMs: z.number().int(), bytes: z.number().int() }) },
      async ({ count, delayMs, bytes }, ctx) => {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= count; step++) {
          await sleep(delayMs);
          if (progressToken !== undefined)
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: step } });
        }
        return { content: [{ type: 'text', text: resultText(count, bytes) }] };
      },
    );
    await server.connect(transport);
    this.servers.push(server);
    this.sessions.set(sessionId, transport);
    return transport;
  }

  /** The web-standard transport takes the recorded initialize in-process: no HTTP self-call is needed. */
  private async restore(sessionId: string): Promise<WebStandardStreamableHTTPServerTransport | undefined> {
    const initialize = this.registry.get(sessionId);
    if (initialize === undefined) return undefined;
    const transport = await this.open(sessionId);
    const url = 'http://127.0.0.1/mcp';
    await (
      await transport.handleRequest(
        new Request(url, { method: 'POST', headers: json, body: JSON.stringify(initialize) }),
      )
    ).text();
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const headers = { ...json, 'mcp-session-id': sessionId };
    await (
      await transport.handleRequest(new Request(url, { method: 'POST', headers, body: JSON.stringify(initialized) }))
    ).text();
    return transport;
  }
}

let closeAll: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeAll?.();
  closeAll = undefined;
});

describe('the memory store in a real SDK v2 server', () => {
  it('refuses the cursor of the process before a restart as foreign-epoch, through refuseStaleResume', async () => {
    const registry = new Map<string, unknown>();
    const after = createEpochEventStore();
    let current = new V2Process(createEpochEventStore(), registry);
    const before = current.store;
    const handler = toNodeHandler({ fetch: (request) => current.fetch(request) });
    const http = createServer((req, res) => void handler(req, res).catch(() => res.destroy()));
    const sockets = trackSockets(http);
    const url = `http://127.0.0.1:${await listen(http)}/mcp`;
    const restart = async () => {
      const old = current;
      current = new V2Process(after, registry);
      for (const socket of sockets) socket.destroy();
      await sleep(400);
      await old.close();
    };
    const proxied = await startProxy(url, ['cut-at-boundary:3'], () => void restart());
    closeAll = async () => {
      await proxied.proxy.close();
      await current.close();
      await closeServer(http, sockets);
    };
    const run = await callThrough(proxied, { count: 10, delayMs: 30, bytes: 4096 }, (connections) =>
      resumes(connections).some((c) => c.end !== 'open'),
    );
    expect(run.progress).toEqual([1, 2, 3]);
    const refused = resumes(run.connections);
    expect(refused.map((c) => c.status)).toEqual([400]);
    const cursor = refused[0]?.requestHeaders.find((h) => h.name.toLowerCase() === 'last-event-id')?.value;
    expect(cursor?.startsWith(`${before.epoch}:`)).toBe(true);
    expect(JSON.parse(bodyText(refused[0]!))).toMatchObject({
      error: { data: { reason: 'foreign-epoch', cursor, serverEpoch: after.epoch } },
    });
    // Until the client calls again in a new session, the inspector counts the call the restart lost.
    expect(serious(run.findings).map((f) => f.rule)).toEqual(['unanswered-after-disconnect']);
    const again = await callThrough(proxied, { count: 10, delayMs: 30, bytes: 4096 });
    expect(again.result).toBe(JSON.stringify({ content: [{ type: 'text', text: resultText(10, 4096) }] }));
    expect(again.findings.filter((f) => f.rule === 'resumption-rejected').map((f) => f.severity)).toEqual(['info']);
    expect(serious(again.findings)).toEqual([]);
  });
});
