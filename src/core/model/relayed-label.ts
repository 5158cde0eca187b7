// Runs anywhere (pure core): how every report names a relayed session (docs/relayed-traffic.md), so the panel's
// badge and the CLI's reports say the same words.
import type { RelayOrigin, SessionView } from './types';

/** The badge on a relayed session and exchange, in the panel and in every CLI report. */
export const RELAYED_LABEL = 'relayed: bytes not visible';

/** Who relayed, and where its reports came: `the MCP Inspector's backend, reported on e3 (/api/mcp/events)`. */
export function relayedBy(origin: RelayOrigin): string {
  return `the MCP Inspector's backend, reported on ${origin.carrier} (/api/mcp/events)`;
}

/** The keys of the relayed sessions, each with its relay. */
export function relayedSessions(sessions: readonly SessionView[]): Map<string, RelayOrigin> {
  return new Map(sessions.flatMap((s) => (s.relayed === undefined ? [] : [[s.key, s.relayed] as const])));
}
