// Runs anywhere (pure core): which recorded exchange answers a live request. A JSON-RPC request by method and
// params, then order; a notification by method; the client's answer to a server request by that request's id; a
// resume by its Last-Event-ID; a GET stream by its path; each recorded exchange is used once. Requests are matched
// within the session they name (the recorded session ids are issued again as they are).
import { idKey } from '../mcp/jsonrpc';
import type { DivergenceKind } from './divergence';
import { comparableParams, type RequestShape } from './request-shape';
import type { RecordedExchange, ReplayScript } from './script';

/** Methods whose params differ between clients by design (client name, capabilities): matched by method alone. */
const HANDSHAKES = new Set(['initialize', 'server/discover']);

export type Match =
  | { kind: 'matched'; exchange: RecordedExchange; divergence?: 'other-params' }
  /** A divergence: `again` is the recorded exchange that answered the same request before, when there was one. */
  | { kind: 'diverged'; divergence: DivergenceKind; again?: RecordedExchange };

export class ExchangeMatcher {
  private readonly used = new Set<string>();
  private readonly sessions = new Set<string>();

  constructor(private readonly script: ReplayScript) {
    for (const exchange of script.exchanges) {
      if (exchange.shape.session !== undefined) this.sessions.add(exchange.shape.session);
      if (exchange.conversation !== '') this.sessions.add(exchange.conversation);
    }
  }

  match(shape: RequestShape): Match {
    if (shape.session !== undefined && !this.sessions.has(shape.session))
      return { kind: 'diverged', divergence: 'unknown-session' };
    const same = this.script.exchanges.filter(
      (e) =>
        e.shape.kind === shape.kind && e.shape.session === shape.session && e.shape.httpMethod === shape.httpMethod,
    );
    const open = same.filter((e) => !this.used.has(e.id));
    switch (shape.kind) {
      case 'request':
        return this.matchRequest(shape, same, open);
      case 'notification':
        return this.take(open.find((e) => e.shape.rpc?.method === shape.rpc?.method)) ?? unrecorded('notification');
      case 'answer': {
        const id = shape.rpc?.id;
        const byId = open.find((e) => e.shape.rpc?.id !== undefined && id !== undefined && sameId(e.shape.rpc.id, id));
        return this.take(byId ?? open[0]) ?? unrecorded('notification');
      }
      case 'resume':
        return this.take(open.find((e) => e.shape.lastEventId === shape.lastEventId)) ?? unrecorded('resume');
      case 'stream':
      case 'delete':
      case 'other':
        return this.take(open.find((e) => e.shape.path === shape.path) ?? open[0]) ?? unrecorded('stream');
    }
  }

  private matchRequest(shape: RequestShape, same: RecordedExchange[], open: RecordedExchange[]): Match {
    const method = shape.rpc?.method;
    const params = comparableParams(shape.rpc?.params);
    const handshake = method !== undefined && HANDSHAKES.has(method);
    const sameMethod = (e: RecordedExchange): boolean => e.shape.rpc?.method === method;
    const exact = (e: RecordedExchange): boolean =>
      sameMethod(e) && (handshake || comparableParams(e.shape.rpc?.params) === params);
    const first = open.find(exact);
    if (first) return this.take(first) as Match;
    // The same request again, after the recording's was used: a retry, not the next recorded request.
    const before = same.filter((e) => this.used.has(e.id) && exact(e));
    if (before.length > 0) {
      const again = before.findLast((e) => e.end === 'complete') ?? before.at(-1);
      return { kind: 'diverged', divergence: 'reissued-request', ...(again && { again }) };
    }
    const next = open.find(sameMethod);
    if (next) return { kind: 'matched', exchange: this.use(next), divergence: 'other-params' };
    return unrecorded('request');
  }

  private take(exchange: RecordedExchange | undefined): Match | undefined {
    return exchange ? { kind: 'matched', exchange: this.use(exchange) } : undefined;
  }

  private use(exchange: RecordedExchange): RecordedExchange {
    this.used.add(exchange.id);
    return exchange;
  }
}

function sameId(a: string | number, b: string | number): boolean {
  return idKey(a) === idKey(b);
}

function unrecorded(what: 'request' | 'notification' | 'resume' | 'stream'): Match {
  const divergence: DivergenceKind =
    what === 'request'
      ? 'unrecorded-request'
      : what === 'notification'
        ? 'unrecorded-notification'
        : what === 'resume'
          ? 'other-cursor' // refined by the planner: which stream the cursor belongs to
          : 'unrecorded-stream';
  return { kind: 'diverged', divergence };
}
