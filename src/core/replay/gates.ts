// Runs anywhere (pure core): causality in a replay. A recorded chunk that answered something the client sent after
// its stream opened must wait until the new client has sent it too: the answers on a 2024-11-05 GET stream wait for
// their POSTs, a result that followed the client's answer to an elicitation waits for that answer. Without this a
// slower client would get answers before its questions, which no server can do. Likewise a stream the server ended
// after the client's DELETE of its session ends only after the new client's DELETE (else the client, seeing its
// stream end early, would open it again: a request the recorded client never made).
import { idKey } from '../mcp/jsonrpc';
import type { IdSite } from './json-sites';
import type { RequestLookup } from './lookup';
import type { RecordedExchange, ReplayScript } from './script';

/** A recorded exchange a chunk waits for, and how long after that request the recorded chunk came. */
export interface Gate {
  exchangeId: string;
  afterMs: number;
}

/** Per exchange, per chunk: the gates of that chunk. */
export type ScriptGates = Map<string, Gate[][]>;

export function scriptGates(script: ReplayScript, lookup: RequestLookup): ScriptGates {
  const answers = script.exchanges.filter((e) => e.shape.kind === 'answer');
  return new Map(script.exchanges.map((e) => [e.id, chunkGates(e, lookup, answers)]));
}

function chunkGates(exchange: RecordedExchange, lookup: RequestLookup, answers: RecordedExchange[]): Gate[][] {
  const headTime = exchange.startTime + exchange.headDelayMs;
  const serverRequests = new Set<string>();
  // Sites in body order, walked once alongside the chunks (a 64 MB stream has one in every event).
  const sites = [...exchange.sites.ids].sort((a, b) => a.start - b.start);
  let next = 0;
  return exchange.chunks.map((chunk) => {
    const at = headTime + chunk.atMs;
    const gates = new Map<string, Gate>();
    const wait = (other: RecordedExchange): void => {
      if (other.id !== exchange.id && other.startTime >= exchange.startTime && other.startTime <= at)
        gates.set(other.id, { exchangeId: other.id, afterMs: at - other.startTime });
    };
    for (; next < sites.length && (sites[next] as IdSite).start < chunk.end; next++) {
      const site = sites[next] as IdSite;
      if (site.kind === 'request-id') serverRequests.add(idKey(site.value));
      const request = lookup.find(exchange, site.kind, site.value, at);
      if (request) wait(request);
    }
    // The client's answers to server requests this stream carried before, sent before this chunk came.
    for (const answer of answers) {
      const id = answer.shape.rpc?.id;
      if (answer.conversation === exchange.conversation && id !== undefined && serverRequests.has(idKey(id)))
        wait(answer);
    }
    return [...gates.values()];
  });
}

/**
 * What a recorded exchange's end waits for: the DELETE of its session that the client sent after the stream opened
 * and before the stream ended (the server ended the session's streams because of it).
 */
export function endGates(exchange: RecordedExchange, script: ReplayScript): Gate[] {
  if (exchange.endAtMs === undefined || exchange.end !== 'complete' || exchange.conversation === '') return [];
  const endTime = exchange.startTime + exchange.headDelayMs + exchange.endAtMs;
  return script.exchanges
    .filter(
      (other) =>
        other.shape.kind === 'delete' &&
        other.id !== exchange.id &&
        other.conversation === exchange.conversation &&
        other.startTime >= exchange.startTime &&
        other.startTime <= endTime,
    )
    .map((other) => ({ exchangeId: other.id, afterMs: endTime - other.startTime }));
}
