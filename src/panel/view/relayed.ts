// Panel (pure): how a relayed session or exchange is labelled. The MCP Inspector's backend made its requests out of
// the browser's sight and reported them; the panel shows the decoded exchanges, never bytes it did not see.
import type { RelayOrigin } from '../../core/model/types';

/** The badge on a relayed session and exchange (the CLI's reports say the same words). */
export { RELAYED_LABEL } from '../../core/model/relayed-label';

/** What the badge's tooltip says: who relayed, on which connection, and what cannot be judged. */
export function relayedTitle(origin: RelayOrigin): string {
  return (
    `Made by the MCP Inspector's backend and decoded from its reports on ${origin.carrier} (/api/mcp/events). ` +
    'Its requests, headers, statuses, whole bodies and messages are shown; chunk boundaries, byte offsets, torn ' +
    'events and the event ids of its GET stream are not visible, so the checks that need them do not run.'
  );
}
