// Runs anywhere (pure core): what kind of MCP request an HTTP request is, for the recorded one and the live one
// alike, so that both are matched by the same reading.
import { headerValue } from '../capture/headers';
import type { HttpHeader } from '../capture/model';
import type { JsonRpcId } from '../mcp/types';

/**
 * `request` (a JSON-RPC request: an answer is awaited), `notification`, `answer` (the client's response to a server
 * request), `stream` (a GET opening an event stream), `resume` (a GET with Last-Event-ID), `delete` (session end),
 * `other` (anything else: matched by method and path only).
 */
export type RequestKind = 'request' | 'notification' | 'answer' | 'stream' | 'resume' | 'delete' | 'other';

/** The first JSON-RPC message of a POST body, as matching reads it. */
export interface RpcCall {
  method?: string;
  id?: JsonRpcId;
  params?: unknown;
}

export interface RequestShape {
  kind: RequestKind;
  httpMethod: string;
  /** Path and query, as the client sent them. */
  path: string;
  /** Mcp-Session-Id, or the 2024-11-05 `sessionId` query parameter: the session the request names, if any. */
  session?: string;
  lastEventId?: string;
  /** The first JSON-RPC message (a batch is matched by its first). */
  rpc?: RpcCall;
  /** The request's `_meta.progressToken`, which the server echoes in its progress notifications. */
  progressToken?: JsonRpcId;
}

export function shapeOf(httpMethod: string, path: string, headers: readonly HttpHeader[], body?: string): RequestShape {
  const method = httpMethod.toUpperCase();
  const session = headerValue(headers, 'mcp-session-id') ?? legacySession(path);
  const lastEventId = headerValue(headers, 'last-event-id');
  const base = { httpMethod: method, path, ...(session !== undefined && { session }) };
  if (method === 'GET')
    return lastEventId === undefined ? { ...base, kind: 'stream' } : { ...base, kind: 'resume', lastEventId };
  if (method === 'DELETE') return { ...base, kind: 'delete' };
  const rpc = method === 'POST' && body !== undefined ? firstMessage(body) : undefined;
  if (!rpc) return { ...base, kind: 'other' };
  const token = progressTokenOf(rpc.params);
  const shape = { ...base, rpc, ...(token !== undefined && { progressToken: token }) };
  if (rpc.method === undefined) return { ...shape, kind: rpc.id === undefined ? 'other' : 'answer' };
  return { ...shape, kind: rpc.id === undefined ? 'notification' : 'request' };
}

function firstMessage(body: string): RpcCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined; // not JSON: matched as `other`
  }
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'object' || first === null) return undefined;
  const record = first as Record<string, unknown>;
  const id = record['id'];
  const method = record['method'];
  return {
    ...(typeof method === 'string' && { method }),
    ...((typeof id === 'string' || typeof id === 'number') && { id }),
    ...('params' in record && { params: record['params'] }),
  };
}

function progressTokenOf(params: unknown): JsonRpcId | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as Record<string, unknown>)['_meta'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  const token = (meta as Record<string, unknown>)['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** The 2024-11-05 transport names its session in the POST endpoint's query: `/messages?sessionId=...`. */
function legacySession(path: string): string | undefined {
  const query = path.split('?')[1];
  if (query === undefined) return undefined;
  for (const pair of query.split('&')) {
    const [name, value] = pair.split('=');
    if (name === 'sessionId' && value !== undefined) return decodeURIComponent(value);
  }
  return undefined;
}

/** Params as matching compares them: `_meta` (progress tokens, client details that differ per run) left out. */
export function comparableParams(params: unknown): string {
  if (typeof params !== 'object' || params === null) return JSON.stringify(params ?? null);
  const { _meta: _ignored, ...rest } = params as Record<string, unknown>;
  return canonical(rest);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
}
