// Runs in Node (lab server and proxy): the lab's JSON answers; the node:http helpers it shares with the product's
// fault proxy live in src/proxy/node-http.ts.
import type { ServerResponse } from 'node:http';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The JSON-RPC error body the SDK transport sends with HTTP errors. */
export function jsonRpcError(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
