// Runs anywhere (pure core): decides per exchange, with evidence, whether it is MCP traffic
// (docs/traffic-classification.md gives the signals, their order and the readings of the ambiguous cases).
import { headerValue } from '../mcp/headers';
import { isMcpMethod, MCP_HEADERS } from '../mcp/methods';
import type { JsonRpcMessage } from '../mcp/types';
import { stripQuery, type ParsedConnection } from './connection';

/** Why an exchange is MCP (`evidence`), or why it is not (`reason`). */
export type Reading = { mcp: true; evidence: string } | { mcp: false; reason: string };

/** What an exchange's own heads and bodies decide; undefined when they say nothing either way. */
export function readExchange(conn: ParsedConnection): Reading | undefined {
  const { record, signals } = conn;
  for (const [name, label] of MCP_HEADERS) {
    if (headerValue(record.requestHeaders, name) !== undefined) return mcp(`${label} request header`);
    if (headerValue(record.responseHeaders, name) !== undefined) return mcp(`${label} response header`);
  }
  if (conn.endpointData !== undefined && record.method.toUpperCase() === 'GET') return mcp('2024-11-05 endpoint event');
  const bodies: [where: string, messages: readonly JsonRpcMessage[]][] = [
    ['the request body', conn.requestMessages],
    ['the response body', conn.responseMessages],
  ];
  for (const [where, messages] of bodies) {
    const method = messages.find((m) => m.method !== undefined && isMcpMethod(m.method))?.method;
    if (method !== undefined) return mcp(`MCP method ${method} in ${where}`);
  }
  if (signals.mcpMethod !== undefined) return mcp(`MCP method ${signals.mcpMethod} in the SSE events`);
  const other =
    [...conn.requestMessages, ...conn.responseMessages].find((m) => m.method !== undefined)?.method ??
    signals.otherMethod;
  if (other !== undefined) return { mcp: false, reason: `JSON-RPC 2.0 without an MCP method (${other})` };
  for (const [where, messages] of bodies) if (messages.length > 0) return mcp(`JSON-RPC 2.0 message in ${where}`);
  if (signals.jsonRpc) return mcp('JSON-RPC 2.0 message in the SSE events');
  if (signals.tornJsonRpc) return mcp('JSON-RPC 2.0 text (torn) in the SSE events');
  if (signals.foreign) return { mcp: false, reason: 'SSE events whose data is not JSON-RPC' };
  return undefined;
}

/**
 * Reads every exchange (in start order). One its own heads and bodies leave open is MCP when it is a raw
 * event-stream file (the user gave it as MCP), or when it is a stream or a resume (`Last-Event-ID`) at the
 * endpoint of an exchange read as MCP; else it is not MCP.
 */
export function readExchanges(connections: readonly ParsedConnection[]): Reading[] {
  const own = connections.map(readExchange);
  const endpoints = new Map<string, string>();
  own.forEach((reading, i) => {
    const conn = connections[i] as ParsedConnection;
    const endpoint = stripQuery(conn.record.url);
    if (reading?.mcp && !endpoints.has(endpoint)) endpoints.set(endpoint, conn.record.id);
  });
  return own.map((reading, i) => {
    if (reading) return reading;
    const conn = connections[i] as ParsedConnection;
    if (conn.record.source === 'raw') return mcp('a raw event-stream file with nothing against MCP');
    const endpoint = stripQuery(conn.record.url);
    const neighbour = endpoints.get(endpoint);
    const resume = headerValue(conn.record.requestHeaders, 'last-event-id') !== undefined;
    if (neighbour !== undefined && (conn.isSse || resume))
      return mcp(`the endpoint of MCP exchange ${neighbour} (${endpoint})`);
    return { mcp: false, reason: 'no MCP header, no JSON-RPC and no endpoint event' };
  });
}

function mcp(evidence: string): Reading {
  return { mcp: true, evidence };
}
