// Node (bench only, a process of its own): the real SDK 1.32 client calls one tool on the bench server and reads its
// 64 MB answer stream to the end, through the client guard (`guard` as argv[3]) or not. Prints what it got.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, mode, guardModule] = process.argv.slice(2);
let fetchFn = (input, init) => fetch(input, init);
if (mode === 'guard') {
  const { createClientGuard } = await import(guardModule);
  fetchFn = createClientGuard({ fetch: fetchFn }).fetch;
}
const client = new Client({ name: 'guard-client-bench', version: '0.1.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFn }));
let progress = 0;
const result = await client.callTool({ name: 'stream', arguments: {} }, undefined, {
  timeout: 600_000,
  onprogress: () => (progress += 1),
});
await client.close();
const text = result.content?.[0]?.text ?? '';
process.stdout.write(`${progress} progress notifications, result ${text.length} characters\n`);
