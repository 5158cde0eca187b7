// Page MAIN world: builds the Request of a fetch(input, init) call once and reads what the tap needs from it.
import type { HttpHeader } from '../protocol/records';
import { MAX_REQUEST_BODY, hasMcpHeader, looksLikeJsonRpc } from './classify';
import { bare, construct, reflectGet } from './intrinsics';
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

export function headerList(headers: Headers, natives: Natives): HttpHeader[] {
  const list: HttpHeader[] = [];
  natives.headersForEach(headers, (value, name) => {
    list[list.length] = { name, value };
  });
  return list;
}

/**
 * The Request the native fetch would build from `input` and `init`, built once by the tap so that the page's code
 * runs exactly as often as without it (each init getter once, in the browser's order, `input.toString` once, a
 * headers iterator consumed once) and the tap reads everything else from the Request. `init` is seen through a
 * Proxy that forwards each read to the page's object and keeps the body value it gave (a Request hides its body).
 * Throws what `new Request` throws.
 */
export function buildRequest(input: unknown, init: unknown, natives: Natives): { request: Request; body: unknown } {
  const seen: { body: unknown } = bare({ body: undefined });
  const view = isObject(init)
    ? new Proxy(
        init,
        bare({
          get(target: Record<string, unknown>, key: string | symbol): unknown {
            // The page's getters see their own object as `this`, as when the native fetch reads them.
            const value = reflectGet(target, key, target);
            if (key === 'body') seen.body = value;
            return value;
          },
        }),
      )
    : init;
  const request = construct(natives.Request, [input, view]) as Request;
  return { request, body: seen.body };
}

export function readRequest(request: Request, rawBody: unknown, natives: Natives): RequestInfo {
  const method = natives.requestMethod(request);
  const headers = natives.requestHeaders(request);
  const body = rawBody !== undefined && rawBody !== null ? bodyText(rawBody, natives) : undefined;
  const signal = natives.requestSignal(request);
  const mcp =
    hasMcpHeader((name) => natives.headersGet(headers, name) !== null) ||
    (method === 'POST' && body !== undefined && looksLikeJsonRpc(body));
  return {
    method,
    url: natives.requestUrl(request),
    headers: () => headerList(headers, natives),
    ...(body !== undefined ? { body } : {}),
    signal,
    mcp,
  };
}
