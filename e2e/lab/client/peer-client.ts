// Runs in the demo page (browser): the official SDK client against another real server than the lab's (the
// reference `server-everything`): it lists the tools and runs its long-running operation, which reports progress.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from './fetch-like';

export interface PeerRun {
  tools: string[];
  /** The progress values the call reported, in order. */
  progress: number[];
  text: string;
  error?: string;
}

export async function runAgainstPeer(mcpUrl: string, fetch: FetchLike): Promise<PeerRun> {
  const client = new Client({ name: 'lab demo page', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch });
  const progress: number[] = [];
  try {
    await client.connect(transport);
    const listed = await client.listTools();
    // 0.3 s in all: well under buffered-stream's 1 s wait, so a page that a busy machine starves for a while still
    // reads its progress before the answer is due (the rule would see them in one late burst, as from a buffer).
    const result = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
    const text = content.flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : [])).join('');
    return { tools: listed.tools.map((t) => t.name).sort(), progress, text };
  } catch (error) {
    return { tools: [], progress, text: '', error: error instanceof Error ? error.message : String(error) };
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}
