// Page MAIN world: reads what the tap needs from fetch(input, init) arguments, without consuming anything.
import type { HttpHeader } from '../protocol/records';
import { MAX_REQUEST_BODY, hasMcpHeader, looksLikeJsonRpc } from './classify';
import type { Natives } from './natives';

export interface RequestInfo {
  method: string;
  url: string;
  /** Built only when the request is recorded: a plain request pays for a header lookup, not a copy. */
  headers: () => HttpHeader[];
  body?: string;
  signal?: AbortSignal;
  /** A JSON-RPC POST or a request carrying an MCP header: recorded whatever the response. */
  mcp: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function bodyText(body: unknown, natives: Natives): string | undefined {
  if (typeof body === 'string') return body.length <= MAX_REQUEST_BODY ? body : undefined;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    if (body.byteLength > MAX_REQUEST_BODY) return undefined;
    return natives.textDecoder.decode(body);
  }
  if (body instanceof URLSearchParams) return body.toString();
  // Streams, Blobs and FormData are left alone: reading them would consume or copy what the page sends.
  return undefined;
}

function resolveUrl(input: unknown, natives: Natives, baseUrl: string): string {
  if (input instanceof natives.Request) return input.url;
  if (input instanceof natives.URL) return input.href;
  return new natives.URL(String(input), baseUrl).href;
}

export function headerList(headers: Headers, natives: Natives): HttpHeader[] {
  const list: HttpHeader[] = [];
  natives.headersForEach(headers, (value, name) => list.push({ name, value }));
  return list;
}

export function readRequest(input: unknown, init: unknown, natives: Natives, baseUrl: string): RequestInfo {
  const request = input instanceof natives.Request ? input : null;
  const options = isObject(init) ? init : null;
  // fetch() itself stringifies the method (WebIDL ByteString): an object's toString is what the server gets.
  // eslint-disable-next-line typescript/no-base-to-string
  const method = String(options?.method ?? request?.method ?? 'GET').toUpperCase();
  const headerSource = options && options.headers !== undefined ? options.headers : request?.headers;
  const headers =
    headerSource instanceof natives.Headers
      ? headerSource
      : new natives.Headers(headerSource as HeadersInit | undefined);
  const body =
    options && options.body !== undefined && options.body !== null ? bodyText(options.body, natives) : undefined;
  const signalSource = options && options.signal !== undefined ? options.signal : request?.signal;
  const signal = signalSource instanceof natives.AbortSignal ? signalSource : undefined;
  const mcp =
    hasMcpHeader((name) => natives.headersGet(headers, name) !== null) ||
    (method === 'POST' && body !== undefined && looksLikeJsonRpc(body));
  return {
    method,
    url: resolveUrl(input, natives, baseUrl),
    headers: () => headerList(headers, natives),
    ...(body !== undefined ? { body } : {}),
    ...(signal ? { signal } : {}),
    mcp,
  };
}
