// Runs anywhere (pure core): what the faults read of a JSON-RPC body: its messages, the request's method, tool and
// id, and whether a request is one a fault's match strikes.
import type { RequestMatch } from './fault';

/** The messages of a JSON-RPC body (a batch is several). */
export function messages(rpc: unknown): Record<string, unknown>[] {
  const list = Array.isArray(rpc) ? (rpc as unknown[]) : [rpc];
  return list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m));
}

export function paramsOf(message: Record<string, unknown> | undefined): Record<string, unknown> {
  const params = message?.['params'];
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
}

/** The id of the body's first request. */
export function requestId(rpc: unknown): string | number | undefined {
  const id = messages(rpc).find((m) => typeof m['method'] === 'string')?.['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

export function rpcTarget(rpc: unknown): { method: string; tool?: string } {
  const first = messages(rpc).find((m) => typeof m['method'] === 'string');
  const method = typeof first?.['method'] === 'string' ? first['method'] : '';
  const params = first?.['params'];
  const name = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)['name'] : undefined;
  return { method, ...(typeof name === 'string' && { tool: name }) };
}

export function matches(rpc: unknown, match: RequestMatch): boolean {
  return messages(rpc).some((message) => {
    if (message['method'] !== match.method || message['method'] === 'initialize' || !('id' in message)) return false;
    const { tool } = rpcTarget(message);
    return match.tool === undefined || match.tool === tool;
  });
}
