// Runs anywhere (pure core): which rules judge relayed sessions (the MCP Inspector's backend traffic, decoded from
// its reports). A relay reports requests, heads, statuses, the bodies it read whole and the messages it received,
// never the bytes as they arrived: no chunk boundaries or byte offsets, no torn tail, no body of a cut stream, no
// event ids of its GET stream, and which stream carried a message is inferred. Only rules that judge messages and
// heads run on them; every other rule's reports about a relayed session are dropped (docs/relayed-traffic.md).

/** Rules whose evidence a relay reports faithfully: request and response messages, headers, statuses. */
export const RELAY_RULES: ReadonlySet<string> = new Set([
  'client-posted-response',
  'header-mismatch-not-rejected',
  'method-header-mismatch',
  'protocol-version-mismatch',
  'reissued-with-same-id',
  'request-state-altered',
  'response-id-mismatch',
  'resumption-rejected',
  'session-not-reinitialized',
  'stale-cursor-retry',
  'stateless-session-headers',
  'unsolicited-response',
  'version-fallback',
]);

/**
 * Rules that need the bytes or the streams as they were (torn events, byte offsets, event ids, stream ends and
 * reconnect timing): they do not run on relayed sessions. Every rule is in one of the two lists (a test checks).
 */
export const BYTE_RULES: ReadonlySet<string> = new Set([
  'buffered-stream',
  'capture-gap',
  'cross-stream-replay',
  'duplicate-id-across-streams',
  'epoch-mismatch',
  'idle-timeout-cut',
  'incomplete-json',
  'legacy-stream-lost',
  'listen-not-acknowledged',
  'orphaned-server-request',
  'post-stream-not-resumed',
  'reconnect-storm',
  'replayed-event-duplicate',
  'request-hang',
  'resume-after-answer',
  'resume-id-gap',
  'resume-not-honored',
  'retry-ignored',
  'server-request-on-stream',
  'stateless-event-ids',
  'stateless-request-not-reissued',
  'torn-event-reconnect',
  'unanswered-after-disconnect',
]);
