// Page MAIN world (pure helpers): which requests and responses matter to MCP. Built-ins come from intrinsics.ts:
// the page may have replaced Array.prototype.some or String.prototype.includes by the time these run.
import { cutOf, findIn, trimmedStart } from './intrinsics';

/** Request headers that only MCP Streamable HTTP clients send. */
const MCP_REQUEST_HEADERS = ['mcp-session-id', 'last-event-id', 'mcp-protocol-version'] as const;

/** Largest non-SSE response body (JSON) the tap copies: enough for JSON-RPC answers and errors. */
export const MAX_JSON_BODY = 1024 * 1024;

/** Largest request body text the tap keeps. */
export const MAX_REQUEST_BODY = 1024 * 1024;

export function hasMcpHeader(has: (name: string) => boolean): boolean {
  for (let i = 0; i < MCP_REQUEST_HEADERS.length; i++) if (has(MCP_REQUEST_HEADERS[i] as string)) return true;
  return false;
}

/** A cheap look at a POST body: JSON text that names the JSON-RPC version. */
export function looksLikeJsonRpc(body: string): boolean {
  const first = trimmedStart(body)[0];
  return (first === '{' || first === '[') && findIn(body, '"jsonrpc"') >= 0;
}

export function isEventStream(contentType: string | null): boolean {
  return contentType !== null && /^\s*text\/event-stream\s*(?:;|$)/i.test(contentType);
}

export function isJson(contentType: string | null): boolean {
  return contentType !== null && /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType);
}

/** Abort reasons can be any page value (even a throwing Proxy): read them defensively. */
export function isAbortError(error: unknown): boolean {
  try {
    return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
  } catch {
    return false;
  }
}

export function errorText(error: unknown): string {
  try {
    if (typeof error === 'object' && error !== null) {
      const { name, message } = error as { name?: unknown; message?: unknown };
      if (typeof message === 'string') return typeof name === 'string' && name ? `${name}: ${message}` : message;
    }
    return cutOf(String(error), 0, 1000);
  } catch {
    return 'unprintable error';
  }
}
