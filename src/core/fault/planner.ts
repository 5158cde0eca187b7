// Runs anywhere (pure core): decides, exchange by exchange, what a fault proxy does with a list of faults.
// Faults never strike initialize; a cut strikes the first matching request's response stream; the resume faults
// strike the first resume (GET with Last-Event-ID) after that cut (`close-resumes` every one); the silence faults
// (silence.ts) pace the response streams they strike; each fault is armed once every cut (an idle cut included)
// listed before it has struck, so several compose in the order given; each strikes once unless `@every`.
import { TextEncoder } from '../web/globals';
import { EpochRewriter, EventIdRewriter } from './epoch-rewriter';
import { claimedRewriter, FaultStream } from './fault-stream';
import {
  breaksStream,
  type CutFault,
  type Fault,
  isCut,
  isResumeFault,
  type ResumeFault,
  type StreamFault,
} from './fault';
import { classifyFrame } from './frame-kind';
import { nextEventId } from './next-event-id';
import { LegacyStreams } from './legacy-sse';
import { cutDetail, type FaultReport, type ReportDetail } from './report';
import { otherId, ResponseIdRewriter } from './response-id-rewriter';
import { matches, messages, paramsOf, requestId, rpcTarget } from './rpc';
import { type Armed, claimPacing, silenceFor } from './silence';
import type { Frame } from './sse-framer';
import type { CutInfo, TapPolicy } from './sse-tap';

export type { FaultReport } from './report';

/** What a proxy knows of a request before forwarding it. */
export interface Exchange {
  method: string;
  sessionId?: string;
  lastEventId?: string;
  /** The parsed JSON-RPC body of a POST. */
  rpc?: unknown;
  /**
   * The request's path and query. With it, the planner also strikes the 2024-11-05 HTTP+SSE transport (its answers
   * ride a `GET` stream, found by the POST endpoint it names); without it, only response streams of their own.
   */
  url?: string;
}

export type ExchangePlan =
  /**
   * Forward upstream after `delayMs`; pass an SSE body through `stream` and call its finish() at the end; send
   * `rewrite`'s headers (replacing those of the same name) and body instead of the client's.
   */
  | { kind: 'forward'; delayMs: number; stream?: FaultStream; rewrite?: RequestRewrite }
  /** Answer without contacting the upstream. */
  | { kind: 'respond'; fault: string; status: number; headers: Record<string, string>; body: string }
  /** Answer 200 as an event stream that only ever carries keep-alive comments. */
  | { kind: 'silent'; fault: string };

/** What a request fault sends upstream instead of what the client sent. */
export interface RequestRewrite {
  headers: Record<string, string>;
  /** The new body, when it changed. */
  body?: string;
}

export interface PlannerOptions {
  report(report: FaultReport): void;
  /** A fresh epoch for `restart-epoch` without one (the proxy draws it at random). */
  newEpoch(): string;
  /** After a cut struck (the lab restarts or forgets the session then). */
  onCut?(exchange: Exchange, info: CutInfo): void;
}

/** A response `rewrite-response-id` may cross: its request's id, and the one it was crossed with. */
interface Crossing {
  id: string | number | undefined;
  partner?: Crossing;
}

/** How many delivered events the proxy remembers for `replay-cursor`. */
const REMEMBERED_EVENTS = 256;

export class FaultPlanner {
  private readonly faults: Armed[];
  private cutSession: string | undefined;
  private readonly delivered = new Map<string, Uint8Array>();
  private readonly legacy = new LegacyStreams();
  /** The responses `rewrite-response-id` may cross, while they stream. */
  private readonly crossings = new Set<Crossing>();

  constructor(
    faults: readonly Fault[],
    private readonly options: PlannerOptions,
  ) {
    this.faults = faults.map((fault) => ({ fault, struck: 0, inFlight: false }));
  }

  /** The session of the last cut: the resume faults strike only its resumes. */
  get cutSessionId(): string | undefined {
    return this.cutSession;
  }

  /** Every fault has struck and none strikes again (`@every`): the planner has nothing left to do. */
  get spent(): boolean {
    return this.faults.every((a) => !a.fault.every && a.struck > 0);
  }

  plan(exchange: Exchange): ExchangePlan {
    const silence = silenceFor(this.ready(), exchange);
    const plan = this.planExchange(exchange);
    if (silence.length === 0 || plan.kind !== 'forward') return plan;
    // The silence faults ride the stream planned for the other faults, or a pass-through one of their own.
    const stream = plan.stream ?? new FaultStream(this.remembering(PASS), undefined);
    stream.pace(() =>
      claimPacing(silence, exchange, {
        report: (report) => this.options.report(report),
        cut: (request, info) => {
          this.cutSession = request.sessionId;
          this.options.onCut?.(exchange, info);
        },
      }),
    );
    return { ...plan, stream };
  }

  private planExchange(exchange: Exchange): ExchangePlan {
    if (exchange.method === 'GET' && exchange.lastEventId !== undefined) return this.planResume(exchange);
    if (exchange.method === 'GET' && exchange.sessionId === undefined && exchange.url !== undefined)
      return this.planSessionlessGet(exchange.url);
    if (exchange.method !== 'POST' || exchange.rpc === undefined) return this.forward(0, this.observer());
    let delayMs = 0;
    for (const armed of this.ready()) {
      const { fault } = armed;
      if (fault.kind !== 'delay' || !matches(exchange.rpc, fault.match)) continue;
      armed.struck += 1;
      delayMs += fault.ms;
      this.options.report({ fault: fault.spec, action: 'delay', detail: { method: fault.match.method, ms: fault.ms } });
    }
    const cut = this.ready().find(
      (a): a is Armed & { fault: CutFault } =>
        isCut(a.fault) && (a.fault.every || !a.inFlight) && matches(exchange.rpc, a.fault.match),
    );
    const rewrite = this.requestFault(exchange);
    if (rewrite) {
      const stream = this.streamFault(exchange) ?? this.observer();
      return { kind: 'forward', delayMs, rewrite, ...(stream && { stream }) };
    }
    if (!cut) return this.forward(delayMs, this.streamFault(exchange) ?? this.observer());
    cut.inFlight = true;
    const struck = (info: CutInfo): void => this.struckCut(exchange, cut, info);
    const missed = (): void => {
      cut.inFlight = false; // a stream that ended before its cut point leaves the cut for the next request
    };
    const carrier = exchange.url === undefined ? undefined : this.legacy.carrierOf(exchange.url);
    if (carrier) {
      carrier.cut = { policy: this.cutRules(cut), struck, missed };
      return this.forward(delayMs, this.observer());
    }
    const stream = new FaultStream(this.remembering(this.cutRules(cut)), undefined, { cut: struck, finish: missed });
    return this.forward(delayMs, stream);
  }

  /**
   * A `GET` without a session header may be a 2024-11-05 session's answer stream: while any cut is listed, it is
   * watched for its `endpoint` event, so a cut of a request POSTed there can strike it.
   */
  private planSessionlessGet(url: string): ExchangePlan {
    if (!this.faults.some((a) => isCut(a.fault))) return this.forward(0, this.observer());
    const legacy = this.legacy.watch(url);
    const stream = new FaultStream(this.remembering(legacy.policy), undefined, {
      cut: (info) => legacy.struck(info),
      finish: () => this.legacy.release(legacy),
    });
    return this.forward(0, stream);
  }

  private forward(delayMs: number, stream: FaultStream | undefined): ExchangePlan {
    return { kind: 'forward', delayMs, ...(stream && { stream }) };
  }

  /** Faults armed (every cut listed before them has struck) and not spent. */
  private ready(): Armed[] {
    const out: Armed[] = [];
    for (const armed of this.faults) {
      if (armed.fault.every || armed.struck === 0) out.push(armed);
      if (breaksStream(armed.fault) && armed.struck === 0) break;
    }
    return out;
  }

  private planResume(exchange: Exchange): ExchangePlan {
    if (this.cutSession !== undefined && exchange.sessionId !== this.cutSession)
      return this.forward(0, this.observer());
    const resumeFaults = this.ready().filter((a): a is Armed & { fault: ResumeFault } => isResumeFault(a.fault));
    const answer = resumeFaults.find(
      (a) => a.fault.kind === 'resume-status' || a.fault.kind === 'resume-silent' || a.fault.kind === 'close-resumes',
    );
    if (answer) return this.answerResume(exchange, answer);
    if (resumeFaults.length === 0) return this.forward(0, this.observer());
    let drop = 0;
    let prefix: Uint8Array | undefined;
    let rewriter: EpochRewriter | undefined;
    const lastEventId = exchange.lastEventId ?? null;
    for (const armed of resumeFaults) {
      const { fault } = armed;
      armed.struck += 1;
      const report = (action: string, detail: ReportDetail): void =>
        this.options.report({ fault: fault.spec, action, detail: { lastEventId, ...detail } });
      if (fault.kind === 'drop-first-replayed') {
        drop += fault.count;
      } else if (fault.kind === 'replay-cursor') {
        prefix = exchange.lastEventId === undefined ? undefined : this.delivered.get(exchange.lastEventId);
        report('repeat-event', { eventId: lastEventId, bytes: prefix?.length ?? 0, seen: prefix !== undefined });
      } else if (fault.kind === 'restart-epoch') {
        rewriter = new EpochRewriter(fault.epoch ?? this.options.newEpoch());
        report('restart-epoch', { epoch: rewriter.epoch });
      }
    }
    const dropping = resumeFaults.find((a) => a.fault.kind === 'drop-first-replayed')?.fault.spec ?? '';
    return this.forward(0, new FaultStream(this.resumePolicy(drop, prefix, dropping), rewriter));
  }

  private answerResume(exchange: Exchange, armed: Armed & { fault: ResumeFault }): ExchangePlan {
    const { fault } = armed;
    armed.struck += 1;
    const lastEventId = exchange.lastEventId ?? null;
    if (fault.kind === 'close-resumes') return this.closeResume(fault.spec, exchange.lastEventId ?? '');
    if (fault.kind !== 'resume-status') {
      this.options.report({ fault: fault.spec, action: 'silent-resume', detail: { lastEventId } });
      return { kind: 'silent', fault: fault.spec };
    }
    const retryAfter = fault.retryAfterSeconds;
    this.options.report({
      fault: fault.spec,
      action: 'reject-resume',
      detail: { lastEventId, status: fault.status, retryAfterSeconds: retryAfter ?? null },
    });
    const message = fault.message ?? `resumption refused by the fault proxy (${fault.spec})`;
    return {
      kind: 'respond',
      fault: fault.spec,
      status: fault.status,
      headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
      body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
    };
  }

  /**
   * `close-resumes`: 200, an event stream holding one new priming event (the id after the cursor, in its scheme;
   * empty data), then the end: a server with nothing to replay that closes the stream at once, as a 2025-11-25
   * polling server may. Why a priming event: a client keeps the last id it saw per connection, so a stream ended
   * without one makes its next reconnect a GET without a cursor, no longer a resume; why a new id rather than the
   * cursor again: the cursor's id with other data reads as a restart (resume-not-honored).
   */
  private closeResume(spec: string, lastEventId: string): ExchangePlan {
    const primingId = nextEventId(lastEventId);
    this.options.report({ fault: spec, action: 'close-resume', detail: { lastEventId, primingId } });
    return {
      kind: 'respond',
      fault: spec,
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: `id: ${primingId}\ndata: \n\n`,
    };
  }

  private struckCut(exchange: Exchange, armed: Armed & { fault: CutFault }, info: CutInfo): void {
    armed.struck += 1;
    this.cutSession = exchange.sessionId;
    const { method, tool } = rpcTarget(exchange.rpc);
    this.options.report({
      fault: armed.fault.spec,
      action: 'cut',
      detail: {
        method,
        tool: tool ?? null,
        sessionId: exchange.sessionId ?? null,
        ...cutDetail(info),
      },
    });
    this.options.onCut?.(exchange, info);
  }

  /** Counts the events the cut waits for, then cuts at their end or inside the next event that carries data. */
  private cutRules(armed: Armed & { fault: CutFault }): TapPolicy {
    const { after, at } = armed.fault;
    let seen = 0;
    let ready = after.count === 0;
    return {
      atFrameStart: () =>
        ready && at !== 'boundary' ? { kind: 'cut-into-data', dataBytes: at.dataBytes } : { kind: 'pass' },
      onFrameEnd: (frame) => {
        if (ready || !counts(frame, after.kind)) return 'continue';
        seen += 1;
        if (seen < after.count) return 'continue';
        if (at === 'boundary') return 'cut';
        ready = true;
        return 'continue';
      },
    };
  }

  private resumePolicy(drop: number, prefix: Uint8Array | undefined, dropSpec: string): TapPolicy {
    let dropped = 0;
    return this.remembering({
      ...(prefix && { prefix: () => prefix }),
      atFrameStart: () => (dropped < drop ? { kind: 'drop' } : { kind: 'pass' }),
      onFrameEnd: (frame, delivered) => {
        if (!delivered && frame.isEvent) {
          dropped += 1;
          this.options.report({
            fault: dropSpec,
            action: 'skip-event',
            detail: { eventId: frame.id ?? null, kind: classifyFrame(frame) },
          });
        }
        return 'continue';
      },
    });
  }

  /** A 2026-07-28 request fault armed for this request: a header replaced, or the echoed requestState changed. */
  private requestFault(exchange: Exchange): RequestRewrite | undefined {
    const state = messages(exchange.rpc).find((m) => typeof paramsOf(m)['requestState'] === 'string');
    const armed = this.ready().find(
      (a) =>
        (a.fault.kind === 'set-header' && matches(exchange.rpc, a.fault.match)) ||
        (a.fault.kind === 'alter-request-state' && state !== undefined),
    );
    if (!armed) return undefined;
    armed.struck += 1;
    const { method } = rpcTarget(exchange.rpc);
    const { fault } = armed;
    if (fault.kind === 'set-header') {
      this.options.report({
        fault: fault.spec,
        action: 'set-header',
        detail: { method, header: fault.header, value: fault.value },
      });
      return { headers: { [fault.header.toLowerCase()]: fault.value } };
    }
    const echoed = String(paramsOf(state)['requestState']);
    const altered = `${echoed}-altered`;
    this.options.report({ fault: fault.spec, action: 'alter-request-state', detail: { method, echoed, altered } });
    const body = JSON.stringify(exchange.rpc, (key, value: unknown) =>
      key === 'requestState' && value === echoed ? altered : value,
    );
    return { headers: {}, body };
  }

  /**
   * A 2026-07-28 stream fault armed for this request: the ack of a listen stream dropped, a request sent first, the
   * events numbered, or the response's id changed.
   */
  private streamFault(exchange: Exchange): FaultStream | undefined {
    const armed = this.ready().find(
      (a) =>
        (a.fault.kind === 'drop-listen-ack' && rpcTarget(exchange.rpc).method === 'subscriptions/listen') ||
        ((a.fault.kind === 'inject-server-request' ||
          a.fault.kind === 'add-event-ids' ||
          a.fault.kind === 'rewrite-response-id') &&
          matches(exchange.rpc, a.fault.match)),
    );
    if (!armed) return undefined;
    if (armed.fault.kind === 'add-event-ids') return this.numberingStream(exchange, armed, armed.fault);
    if (armed.fault.kind === 'rewrite-response-id') return this.crossingStream(exchange, armed, armed.fault.spec);
    armed.struck += 1;
    const { method } = rpcTarget(exchange.rpc);
    if (armed.fault.kind === 'inject-server-request') {
      this.options.report({
        fault: armed.fault.spec,
        action: 'inject-request',
        detail: { method, injected: 'roots/list' },
      });
      const event = `event: message\ndata: ${JSON.stringify(INJECTED_REQUEST)}\n\n`;
      return new FaultStream({ ...PASS, prefix: () => new TextEncoder().encode(event) }, undefined);
    }
    const spec = armed.fault.spec;
    let dropped = false;
    return new FaultStream(
      {
        atFrameStart: () => (dropped ? { kind: 'pass' } : { kind: 'drop' }),
        onFrameEnd: (frame, delivered) => {
          if (!dropped && !delivered && frame.isEvent) {
            dropped = true;
            this.options.report({ fault: spec, action: 'skip-event', detail: { method, kind: classifyFrame(frame) } });
          }
          return 'continue';
        },
      },
      undefined,
    );
  }

  /**
   * `add-event-ids` (and `rewrite-response-id`) strike on the response's first SSE bytes, not when it is planned, so
   * a plain JSON answer (never an event stream they could change) leaves them for the next matching request.
   */
  private numberingStream(
    exchange: Exchange,
    armed: Armed,
    fault: StreamFault & { kind: 'add-event-ids' },
  ): FaultStream {
    const { method } = rpcTarget(exchange.rpc);
    const claim = (): EventIdRewriter | undefined => {
      if (!fault.every && armed.struck > 0) return undefined; // a concurrent response took it first
      armed.struck += 1;
      this.options.report({
        fault: fault.spec,
        action: 'add-event-ids',
        detail: { method, retryMs: fault.retryMs ?? null },
      });
      return new EventIdRewriter({ kind: 'number', ...(fault.retryMs !== undefined && { retryMs: fault.retryMs }) });
    };
    return new FaultStream(this.remembering(PASS), claimedRewriter(claim));
  }

  /**
   * `rewrite-response-id`, as a gateway pooling exchanges crosses two answers: the first matching response carries
   * the id of another matching request still in flight, and that one's response this one's id (one strike); with no
   * other in flight, it carries its own id + 1000 (a string: "-other" appended), an id no request had.
   */
  private crossingStream(exchange: Exchange, armed: Armed, spec: string): FaultStream {
    const { method } = rpcTarget(exchange.rpc);
    const own: Crossing = { id: requestId(exchange.rpc) };
    this.crossings.add(own);
    const pick = (from: string | number): string | number | undefined => {
      if (own.partner) return own.partner.id;
      if (!armed.fault.every && armed.struck > 0) return undefined;
      const partner = [...this.crossings].find(
        (c) => c !== own && !c.partner && c.id !== undefined && JSON.stringify(c.id) !== JSON.stringify(from),
      );
      armed.struck += 1;
      if (partner) {
        own.partner = partner;
        partner.partner = own;
      }
      const to = partner?.id ?? otherId(from);
      this.options.report({
        fault: spec,
        action: 'rewrite-response-id',
        detail: { method, from, to, crossed: !!partner },
      });
      return to;
    };
    const release = (): void => {
      this.crossings.delete(own);
    };
    return new FaultStream(this.remembering(PASS), new ResponseIdRewriter(pick), { cut: release, finish: release });
  }

  /** A pass-through tap that remembers delivered events, while a `replay-cursor` may still need them. */
  private observer(): FaultStream | undefined {
    return this.wantsEvents() ? new FaultStream(this.remembering(PASS), undefined) : undefined;
  }

  private wantsEvents(): boolean {
    return this.faults.some((a) => a.fault.kind === 'replay-cursor' && (a.fault.every || a.struck === 0));
  }

  private remembering(policy: TapPolicy): TapPolicy {
    if (!this.wantsEvents()) return policy;
    return {
      ...policy,
      onFrameEnd: (frame, delivered) => {
        if (delivered && frame.id !== undefined && frame.raw) this.remember(frame.id, frame.raw);
        return policy.onFrameEnd(frame, delivered);
      },
    };
  }

  private remember(id: string, raw: Uint8Array): void {
    this.delivered.delete(id);
    this.delivered.set(id, raw);
    if (this.delivered.size > REMEMBERED_EVENTS) this.delivered.delete(this.delivered.keys().next().value as string);
  }
}

/** What inject-server-request sends: a server request, which 2026-07-28 forbids on any stream. */
const INJECTED_REQUEST = { jsonrpc: '2.0', id: 'fault-proxy-roots-1', method: 'roots/list', params: {} };

const PASS: TapPolicy = { atFrameStart: () => ({ kind: 'pass' }), onFrameEnd: () => 'continue' };

function counts(frame: Frame, kind: string | undefined): boolean {
  if (kind !== undefined) return classifyFrame(frame) === kind;
  return frame.isEvent && frame.hasData && frame.dataHead !== '';
}
