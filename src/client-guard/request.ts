// Runs anywhere (browsers, Node, Workers): what the client guard reads of an outgoing fetch: method, endpoint,
// headers, and the JSON-RPC messages of a string body. Uses only fetch's own types (Headers, Request, URL).
import { parseMessages } from '../core/mcp/jsonrpc';
import type { JsonRpcMessage } from '../core/mcp/types';

/** `fetch`'s shape, as the MCP SDKs take it (`FetchLike`). */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface OutgoingRequest {
  url: string | URL;
  init: RequestInit;
  method: string;
  /** Origin and path: a session is one endpoint's. */
  endpoint: string;
  headers: Headers;
  /** The body as text when the client gave a string (the SDKs do), for its JSON-RPC messages and a re-issue. */
  bodyText: string | undefined;
  /** The body's JSON-RPC messages (none when it is not a string or not JSON-RPC). */
  messages: JsonRpcMessage[];
}

/** Reads a fetch call as the SDK clients make it: a URL and an init (a Request object's own fields are read too). */
export function describeRequest(url: string | URL, init: RequestInit | undefined): OutgoingRequest {
  const given = init ?? {};
  const method = (given.method ?? (url instanceof Request ? url.method : 'GET')).toUpperCase();
  const href = url instanceof Request ? url.url : String(url);
  const parsed = new URL(href, 'http://unknown.invalid');
  const headers = new Headers(given.headers ?? (url instanceof Request ? url.headers : undefined));
  const bodyText = typeof given.body === 'string' ? given.body : undefined;
  const read = bodyText === undefined ? undefined : parseMessages(bodyText);
  return {
    url,
    init: given,
    method,
    endpoint: `${parsed.origin}${parsed.pathname}`,
    headers,
    bodyText,
    messages: read?.ok ? read.messages : [],
  };
}

/** Whether a response is an SSE stream with a body to read. */
export function isEventStream(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return response.body !== null && /^\s*text\/event-stream\b/i.test(type);
}
