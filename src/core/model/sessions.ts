// Runs anywhere (pure core): groups parsed connections into MCP sessions and finds each session's era.
import { URL } from '../web/globals';
import { asEra, metaProtocolVersion, STATELESS_ERA } from '../mcp/era';
import { parseMessages } from '../mcp/jsonrpc';
import type { Era, JsonRpcEnvelope, JsonRpcMessage } from '../mcp/types';
import { readExchanges, type Reading } from './classify';
import { stripQuery, type ParsedConnection } from './connection';
import { eventData } from './event-data';

export interface SessionGroup {
  key: string;
  sessionId?: string;
  origin: string;
  endpoint: string;
  legacy: boolean;
  /** Exchanges whose requests declared 2026-07-28, to an endpoint, without a session id. */
  stateless?: true;
  connections: ParsedConnection[];
  /** Requests made before the group's initialize that failed (a version probe, a GET without a session). */
  probes?: Set<ParsedConnection>;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'unknown-origin';
  }
}

/** 2024-11-05: the GET /sse stream announces the POST endpoint in an `endpoint` event. */
function legacyEndpointOf(conn: ParsedConnection): string | undefined {
  const announced = conn.endpointData;
  if (announced === undefined) return undefined;
  try {
    return new URL(announced.trim(), conn.record.url).href;
  } catch {
    return undefined;
  }
}

/**
 * Without Mcp-Session-Id, exchanges to one endpoint form one session until the client initializes again: a second
 * `initialize` starts a new one (a new client instance whose request ids start over). Exchanges whose request
 * declares 2026-07-28 are stateless: they form one group per endpoint, in time order, apart from any 2025 client on
 * the same endpoint (its initialize must not decide their era).
 */
function sessionlessKey(
  conn: ParsedConnection,
  state: Map<string, { key: string; count: number; initialized: boolean }>,
): string {
  const endpoint = stripQuery(conn.record.url);
  if (conn.requestEra === STATELESS_ERA) return `${endpoint}#stateless`;
  const initializes = conn.requestMessages.some((m) => m.kind === 'request' && m.method === 'initialize');
  let current = state.get(endpoint);
  if (!current) {
    current = { key: `${endpoint}#no-session`, count: 1, initialized: false };
    state.set(endpoint, current);
  } else if (initializes && current.initialized) {
    current.count += 1;
    current.key = `${endpoint}#no-session-${current.count}`;
    current.initialized = false;
  }
  if (initializes) current.initialized = true;
  return current.key;
}

/** A stream that is not MCP, and why (see classify.ts). */
export interface OtherConnection {
  conn: ParsedConnection;
  reason: string;
}

/** Sessions and the SSE streams that are not MCP. */
export interface Grouping {
  groups: SessionGroup[];
  others: OtherConnection[];
}

/**
 * Groups connections (already in start order) into sessions. Only MCP traffic joins one (see readExchanges); the
 * rest is dropped, except SSE streams, which are listed apart.
 */
export function groupSessions(connections: readonly ParsedConnection[]): Grouping {
  const groups = new Map<string, SessionGroup>();
  const others: OtherConnection[] = [];
  const legacyByEndpoint = new Map<string, string>();
  const sessionless = new Map<string, { key: string; count: number; initialized: boolean }>();
  const readings = readExchanges(connections);
  const groupFor = (key: string, conn: ParsedConnection, init: Partial<SessionGroup>): SessionGroup => {
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        origin: originOf(conn.record.url),
        endpoint: stripQuery(conn.record.url),
        legacy: false,
        connections: [],
        ...init,
      };
      groups.set(key, group);
    }
    return group;
  };
  for (const [index, conn] of connections.entries()) {
    const reading = readings[index] as Reading;
    const endpoint = conn.record.method.toUpperCase() === 'GET' ? legacyEndpointOf(conn) : undefined;
    if (endpoint !== undefined) {
      const key = `legacy:${endpoint}`;
      legacyByEndpoint.set(endpoint, key);
      conn.role = 'legacy-sse';
      conn.evidence = reading.mcp ? reading.evidence : '2024-11-05 endpoint event';
      groupFor(key, conn, { legacy: true }).connections.push(conn);
      continue;
    }
    const legacyKey = legacyByEndpoint.get(conn.record.url);
    if (legacyKey !== undefined && conn.record.method.toUpperCase() === 'POST') {
      conn.role = 'legacy-post';
      conn.evidence = reading.mcp ? reading.evidence : 'a POST to the endpoint a 2024-11-05 stream announced';
      groups.get(legacyKey)?.connections.push(conn);
      continue;
    }
    if (!reading.mcp) {
      if (conn.isSse) others.push({ conn, reason: reading.reason });
      continue;
    }
    conn.evidence = reading.evidence;
    if (conn.sessionId !== undefined && !declaresStateless(conn)) {
      groupFor(conn.sessionId, conn, { sessionId: conn.sessionId }).connections.push(conn);
    } else {
      const init: Partial<SessionGroup> = conn.requestEra === STATELESS_ERA ? { stateless: true } : {};
      groupFor(sessionlessKey(conn, sessionless), conn, init).connections.push(conn);
    }
  }
  joinProbes(groups);
  return { groups: [...groups.values()].filter((g) => g.connections.length > 0), others };
}

/**
 * A request whose body declares 2026-07-28 in its `_meta` belongs to its stateless group whatever `Mcp-Session-Id`
 * it carries or its answer sets (stateless-session-headers reports the header): that era has no sessions, so such an
 * id groups nothing. The Python SDK 2.3.0 server mints one on its `400` to a request whose version header routed it
 * to the 2025 path; split off under that id, the exchange would hide from every 2026-07-28 rule, and a request lost
 * there would never be seen re-issued. The header alone does not decide: a 2025 session may send a wrong one.
 */
function declaresStateless(conn: ParsedConnection): boolean {
  return conn.requestMessages.some((m) => asEra(metaProtocolVersion(m)) === STATELESS_ERA);
}

const initializes = (conn: ParsedConnection) =>
  conn.requestMessages.some((m) => m.kind === 'request' && m.method === 'initialize');

/**
 * A request without a session that failed before any initialize: a 2026-07-28 `server/discover` probe answered
 * with an error (an HTTP error or a JSON-RPC one), or any sessionless request the server refused (a GET stream
 * opened before initializing gets 400 or 405).
 */
function failedProbe(conn: ParsedConnection): boolean {
  if (conn.sessionId !== undefined || conn.role === 'legacy-sse' || conn.role === 'legacy-post' || initializes(conn))
    return false;
  const status = conn.record.status;
  if (status !== undefined && status >= 400) return true;
  const discover = conn.requestMessages.some((m) => m.kind === 'request' && m.method === 'server/discover');
  return discover && conn.responseMessages.some((m) => m.kind === 'error');
}

/**
 * Version probes and failed requests made before an `initialize` join the session that initialize opens, as the
 * client lived them: `@ai-sdk/mcp` and the TypeScript SDK v2 client (`versionNegotiation: auto`) probe
 * `server/discover` at 2026-07-28, get an error from an older server, and initialize at 2025-11-25; alone they
 * would make a phantom stateless session. Only failures right before the initialize move (nothing else between).
 */
function joinProbes(groups: Map<string, SessionGroup>): void {
  const byEndpoint = new Map<string, { conn: ParsedConnection; group: SessionGroup }[]>();
  for (const group of groups.values())
    for (const conn of group.connections) {
      const endpoint = stripQuery(conn.record.url);
      let list = byEndpoint.get(endpoint);
      if (!list) byEndpoint.set(endpoint, (list = []));
      list.push({ conn, group });
    }
  for (const list of byEndpoint.values()) {
    list.sort((a, b) => a.conn.record.startTime - b.conn.record.startTime);
    let pending: { conn: ParsedConnection; group: SessionGroup }[] = [];
    for (const item of list) {
      if (initializes(item.conn)) {
        const target = item.group;
        for (const probe of pending.filter((p) => p.group !== target)) {
          probe.group.connections = probe.group.connections.filter((c) => c !== probe.conn);
          target.connections.push(probe.conn);
        }
        for (const probe of pending) (target.probes ??= new Set()).add(probe.conn);
        if (pending.length > 0) target.connections.sort((a, b) => a.record.startTime - b.record.startTime);
        pending = [];
      } else if (failedProbe(item.conn)) pending.push(item);
      // Anything else in between: those failures belong to what came before, not to a coming initialize.
      else pending = [];
    }
  }
}

/** The era: the negotiated initialize version wins, then the MCP-Protocol-Version header, then the transport shape. */
export function detectEra(group: SessionGroup): Era {
  if (group.legacy) return '2024-11-05';
  if (group.stateless) return STATELESS_ERA;
  for (const conn of group.connections) {
    const init = conn.requestMessages.find((m) => m.kind === 'request' && m.method === 'initialize');
    if (!init) continue;
    const negotiated = asEra(resultField(answerTo(conn, init)?.value, 'protocolVersion'));
    if (negotiated) return negotiated;
    const asked = asEra(paramsField(init.value, 'protocolVersion'));
    if (asked) return asked;
  }
  const counts = new Map<Era, number>();
  for (const conn of group.connections) {
    const era = asEra(conn.protocolVersion);
    if (era) counts.set(era, (counts.get(era) ?? 0) + 1);
  }
  let best: Era = 'unknown';
  let bestCount = 0;
  for (const [era, count] of counts) {
    if (count > bestCount) [best, bestCount] = [era, count];
  }
  return best;
}

/**
 * The first response to `request` in the JSON body, else in the SSE events, of the same connection. The table
 * keeps envelopes only: the answering event's data is read again from the bytes (one small event per session).
 */
export function answerTo(conn: ParsedConnection, request: JsonRpcMessage): JsonRpcMessage | undefined {
  const isAnswer = (m: JsonRpcEnvelope) => m.kind === 'response' && m.id === request.id;
  const inBody = conn.responseMessages.find(isAnswer);
  if (inBody) return inBody;
  const { table } = conn;
  for (let row = 0; row < table.count; row++) {
    if (!table.envelopes(row).some(isAnswer)) continue;
    const parsed = parseMessages(eventData(conn.record.chunks, table, row));
    return parsed.ok ? parsed.messages.find(isAnswer) : undefined;
  }
  return undefined;
}

export function resultField(value: unknown, field: string): unknown {
  const result = (value as { result?: Record<string, unknown> } | undefined)?.result;
  return typeof result === 'object' && result !== null ? result[field] : undefined;
}

export function paramsField(value: unknown, field: string): unknown {
  const params = (value as { params?: Record<string, unknown> } | undefined)?.params;
  return typeof params === 'object' && params !== null ? params[field] : undefined;
}
