// Node (`npm run bench guard-client`): the real SDK 1.32 client reading a 64 MB answer stream (progress
// notifications with ids, then the result) through the client guard, against the same client without it. Whole
// client processes (bench/guard/sdk-client.mjs), CPU time, alternated rounds; the server runs in this process.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { builtEntry, compare } from '../cli/processes';

const STREAM_BYTES = 64 * 1024 * 1024;
const MESSAGE_BYTES = 900;
const CHUNK_BYTES = 64 * 1024;

/** The tool's answer stream as the SDK server writes it: a priming event, progress with ids, the result. */
function answerStream(requestId: unknown): Buffer[] {
  const filler = 'x'.repeat(MESSAGE_BYTES);
  const parts: string[] = ['id: 0\ndata: \n\n'];
  let size = 0;
  let id = 0;
  while (size < STREAM_BYTES) {
    id += 1;
    const data = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(requestId)},"progress":${id},"message":"${filler}"}}`;
    const event = `event: message\nid: ${id}\ndata: ${data}\n\n`;
    parts.push(event);
    size += event.length;
  }
  const result = { jsonrpc: '2.0', id: requestId, result: { content: [{ type: 'text', text: `${id} events` }] } };
  parts.push(`event: message\nid: ${id + 1}\ndata: ${JSON.stringify(result)}\n\n`);
  const whole = Buffer.from(parts.join(''));
  const chunks: Buffer[] = [];
  for (let at = 0; at < whole.length; at += CHUNK_BYTES) chunks.push(whole.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

async function readJson(req: IncomingMessage): Promise<{ id?: unknown; method?: string }> {
  let body = '';
  for await (const piece of req) body += String(piece);
  return JSON.parse(body) as { id?: unknown; method?: string };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(req.method === 'GET' ? 405 : 200).end();
    return;
  }
  const message = await readJson(req);
  if (message.method === 'initialize') {
    const result = {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'b', version: '1' },
    };
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'bench-session' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  } else if (message.method === 'tools/call') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'bench-session' });
    for (const chunk of answerStream(message.id)) if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    res.end();
  } else res.writeHead(202).end();
}

const server = createServer((req, res) => void handle(req, res));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
const script = fileURLToPath(new URL('./sdk-client.mjs', import.meta.url));
const guardModule = builtEntry('client-guard.js');
try {
  await compare(
    'guard-client',
    'guard-client: the SDK 1.32 client reading a 64 MB stream, with the client guard vs without',
    [script, url, 'plain', guardModule],
    [script, url, 'guard', guardModule],
    5,
    { ours: 'guarded', target: 1.05 },
  );
} finally {
  server.close();
}
