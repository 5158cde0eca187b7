// Runs anywhere (pure core): which recorded request an id in a recorded body belongs to: the request of that
// conversation with that JSON-RPC id (or progress token) that started last before the body said it. The same
// reading decides what a replayed chunk waits for (gates.ts) and what id it carries (planner.ts).
import { idKey } from '../mcp/jsonrpc';
import type { JsonRpcId } from '../mcp/types';
import type { SiteKind } from './json-sites';
import type { RecordedExchange, ReplayScript } from './script';

export class RequestLookup {
  /** Requests by conversation and id key (ids) or token key (progress), in start order. */
  private readonly byId = new Map<string, RecordedExchange[]>();
  private readonly byToken = new Map<string, RecordedExchange[]>();

  constructor(script: ReplayScript) {
    for (const exchange of script.exchanges) {
      const { shape } = exchange;
      if (shape.kind !== 'request') continue;
      if (shape.rpc?.id !== undefined) push(this.byId, key(exchange.conversation, shape.rpc.id), exchange);
      if (shape.progressToken !== undefined)
        push(this.byToken, key(exchange.conversation, shape.progressToken), exchange);
    }
  }

  /** The request a response id or progress token in `within`'s body at recorded epoch ms `at` refers to. */
  find(within: RecordedExchange, kind: SiteKind, value: JsonRpcId, at: number): RecordedExchange | undefined {
    if (kind === 'request-id') return undefined; // the server's own id: nothing of the client's
    if (this.isOwn(within, kind, value)) return within;
    const list = (kind === 'response-id' ? this.byId : this.byToken).get(key(within.conversation, value)) ?? [];
    let found: RecordedExchange | undefined;
    for (const exchange of list) if (exchange.startTime <= at) found = exchange;
    return found ?? list[0];
  }

  /** An id in `within`'s body that is its own request's (its answer's id, its progress token), whenever it comes. */
  isOwn(within: RecordedExchange, kind: SiteKind, value: JsonRpcId): boolean {
    if (kind === 'request-id' || within.shape.kind !== 'request') return false;
    const own = kind === 'response-id' ? within.shape.rpc?.id : within.shape.progressToken;
    return own !== undefined && idKey(own) === idKey(value);
  }
}

function key(conversation: string, id: JsonRpcId): string {
  return `${conversation}\u0000${idKey(id)}`;
}

function push<K, V>(map: Map<K, V[]>, k: K, value: V): void {
  const list = map.get(k);
  if (list) list.push(value);
  else map.set(k, [value]);
}
