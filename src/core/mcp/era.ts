// Runs anywhere (pure core): which MCP transport era a session speaks, and which era one request declares.
import type { Era, JsonRpcMessage } from './types';

const KNOWN: readonly Era[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

export function asEra(version: unknown): Era | undefined {
  return typeof version === 'string' && (KNOWN as readonly string[]).includes(version) ? (version as Era) : undefined;
}

/** Eras where Mcp-Session-Id and Last-Event-ID resumption exist ('unknown': a capture that never showed its era). */
export const RESUMABLE_ERAS: readonly Era[] = ['2025-03-26', '2025-06-18', '2025-11-25', 'unknown'];

/** The stateless era: every request carries its version in `_meta` (and the MCP-Protocol-Version header). */
export const STATELESS_ERA: Era = '2026-07-28';

/** Where a 2026-07-28 request names its protocol version: `params._meta[PROTOCOL_VERSION_META]`. */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** The `params._meta` object of a request or notification, when it has one. */
export function metaOf(message: JsonRpcMessage): Record<string, unknown> | undefined {
  const params = (message.value as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** The protocol version a request's `_meta` declares (2026-07-28 and later), when it declares one. */
export function metaProtocolVersion(message: JsonRpcMessage): string | undefined {
  const version = metaOf(message)?.[PROTOCOL_VERSION_META];
  return typeof version === 'string' ? version : undefined;
}
