// Runs anywhere (pure core): which MCP transport era a session speaks.
import type { Era } from './types';

const KNOWN: readonly Era[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

export function asEra(version: unknown): Era | undefined {
  return typeof version === 'string' && (KNOWN as readonly string[]).includes(version) ? (version as Era) : undefined;
}

/** Eras where Mcp-Session-Id and Last-Event-ID resumption exist ('unknown': a capture that never showed its era). */
export const RESUMABLE_ERAS: readonly Era[] = ['2025-03-26', '2025-06-18', '2025-11-25', 'unknown'];
