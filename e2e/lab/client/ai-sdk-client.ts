// Runs in the demo page (browser): the Vercel AI SDK's MCP client (`@ai-sdk/mcp`, as AI chat apps use it) against
// the lab server: it probes the 2026-07-28 era first (`server/discover`), falls back to an `initialize`, lists the
// tools and calls one. Another real client than the official SDK's, for the panel to understand.
import { createMCPClient } from '@ai-sdk/mcp';
import type { ToolCall } from '../scenarios';
import type { FetchLike } from './fetch-like';

export interface AiSdkRun {
  tools: string[];
  /** The tool result's text content. */
  text: string;
  error?: string;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The client over the lab's fetch, with its defaults; what it reports outside a call goes to `onError`. */
function openClient(mcpUrl: string, fetch: FetchLike, onError?: (message: string) => void) {
  // The client passes a URL and an init, as FetchLike takes them (a Request is not expected, and read as its URL).
  const viaLab: typeof globalThis.fetch = (input, init) => fetch(input instanceof Request ? input.url : input, init);
  return createMCPClient({
    transport: { type: 'http', url: mcpUrl, fetch: viaLab },
    ...(onError && { onUncaughtError: (error: unknown) => onError(messageOf(error)) }),
  });
}

export async function runAiSdkClient(mcpUrl: string, fetch: FetchLike): Promise<AiSdkRun> {
  const client = await openClient(mcpUrl, fetch);
  try {
    const listed = await client.listTools();
    const result = await client.callTool({ name: 'stream_progress', arguments: { count: 3, delayMs: 40 } });
    return { tools: listed.tools.map((t) => t.name).sort(), text: textOf(result) };
  } catch (error) {
    return { tools: [], text: '', error: messageOf(error) };
  } finally {
    await client.close();
  }
}

/** What @ai-sdk/mcp gave back for one call: the result's text, or why there is none. */
export interface AiSdkCallOutcome {
  tool: string;
  /** The text content of a result that came. */
  text?: string;
  /** The call ended with no answer within the timeout. */
  timedOut: boolean;
  error?: string;
  elapsedMs: number;
}

export interface AiSdkCalls {
  /** One per call made; calls stop after the first that got no result. */
  outcomes: AiSdkCallOutcome[];
  /** What the client reported apart from the calls (its transport errors), in order. */
  clientErrors: string[];
}

function textOf(result: object): string {
  const content =
    'content' in result && Array.isArray(result.content)
      ? (result.content as { type?: unknown; text?: unknown }[])
      : [];
  return content.flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : [])).join('');
}

/**
 * A lab scenario's calls made by @ai-sdk/mcp with its defaults (it probes 2026-07-28 first and falls back), each
 * with `timeoutMs`: the client as AI chat apps use it, for the scenarios that show how it reconnects.
 */
export async function callWithAiSdk(
  mcpUrl: string,
  fetch: FetchLike,
  calls: readonly ToolCall[],
  timeoutMs: number,
): Promise<AiSdkCalls> {
  const clientErrors: string[] = [];
  const client = await openClient(mcpUrl, fetch, (message) => clientErrors.push(message));
  const outcomes: AiSdkCallOutcome[] = [];
  try {
    for (const call of calls) {
      const started = Date.now();
      try {
        const result = await client.callTool({
          name: call.tool,
          arguments: { ...call.args },
          options: { timeout: timeoutMs },
        });
        outcomes.push({ tool: call.tool, text: textOf(result), timedOut: false, elapsedMs: Date.now() - started });
      } catch (error) {
        const detail = messageOf(error);
        // The client's own words for its timeout: "Request timed out after <n>ms".
        const timedOut = /timed out/i.test(detail);
        outcomes.push({ tool: call.tool, timedOut, error: detail, elapsedMs: Date.now() - started });
        break;
      }
    }
  } finally {
    await client.close();
  }
  return { outcomes, clientErrors };
}
