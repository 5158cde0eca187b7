// Runs in the demo page (browser): the Vercel AI SDK's MCP client (`@ai-sdk/mcp`, as AI chat apps use it) against
// the lab server: it probes the 2026-07-28 era first (`server/discover`), falls back to an `initialize`, lists the
// tools and calls one. Another real client than the official SDK's, for the panel to understand.
import { createMCPClient } from '@ai-sdk/mcp';
import type { FetchLike } from './run-scenario';

export interface AiSdkRun {
  tools: string[];
  /** The tool result's text content. */
  text: string;
  error?: string;
}

export async function runAiSdkClient(mcpUrl: string, fetch: FetchLike): Promise<AiSdkRun> {
  // The client passes a URL and an init, as FetchLike takes them (a Request is not expected, and read as its URL).
  const viaLab: typeof globalThis.fetch = (input, init) => fetch(input instanceof Request ? input.url : input, init);
  const client = await createMCPClient({ transport: { type: 'http', url: mcpUrl, fetch: viaLab } });
  try {
    const listed = await client.listTools();
    const result = await client.callTool({ name: 'stream_progress', arguments: { count: 3, delayMs: 40 } });
    const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
    const text = content.flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : [])).join('');
    return { tools: listed.tools.map((t) => t.name).sort(), text };
  } catch (error) {
    return { tools: [], text: '', error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close();
  }
}
