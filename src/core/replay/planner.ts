// Runs anywhere (pure core): the replay's decisions, request by request. Matches each live request to a recorded
// exchange (matcher.ts), plans its response (the recorded head, then the recorded chunks with their times and what
// each waits for, then the recorded end), rewrites what must follow the live client (the JSON-RPC ids and progress
// tokens of its requests, the replay's own origin in a 2024-11-05 endpoint URL), and says where the live client
// diverged, with the policy's answer (docs/replay.md). No clock and no I/O: src/replay/ plays the plan.
import type { Capture, EndReason, HttpHeader } from '../capture/model';
import { idKey } from '../mcp/jsonrpc';
import { TextEncoder } from '../web/globals';
import { BodyRewriter } from './body-rewriter';
import { type Divergence, type DivergenceKind, describeRequest } from './divergence';
import { endGates, type Gate, type ScriptGates, scriptGates } from './gates';
import { RequestLookup } from './lookup';
import { ExchangeMatcher } from './matcher';
import { continuation, refusal } from './policy';
import { type RequestShape, shapeOf } from './request-shape';
import type { IdSite, Span } from './json-sites';
import { type RecordedChunk, type RecordedExchange, type ReplayScript, replayScript } from './script';

export type { Divergence, DivergenceKind } from './divergence';
export type { Gate } from './gates';

/** A live request as the replay server read it. */
export interface ReplayRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: readonly HttpHeader[];
  body?: string;
}

/** One chunk to send: when (ms after the response head, as recorded), after what, and its bytes (asked at send time). */
export interface PlannedChunk {
  atMs: number;
  /** Recorded exchanges the live client must have sent first; the chunk goes `afterMs` after the latest of them. */
  waitsFor: Gate[];
  /** The chunk's bytes, rewritten with what the live client has sent by now. Call once, in order. */
  take(): Uint8Array;
}

export type ReplayAnswer =
  | {
      kind: 'play';
      /** The recorded exchange played. */
      exchangeId: string;
      /** Absent: the recording had no head: cut at once after a network error, else held unanswered (see `end`). */
      status?: number;
      statusText: string;
      headers: HttpHeader[];
      headDelayMs: number;
      chunks: PlannedChunk[];
      end: EndReason;
      /** Ms after the head when the recorded body ended. */
      endAtMs?: number;
      /** Recorded exchanges the live client must have sent before the end (a DELETE that ended the stream). */
      endWaitsFor: Gate[];
      divergence?: Divergence;
    }
  | { kind: 'refuse'; status: number; headers: HttpHeader[]; body: string; divergence: Divergence };

export interface ReplayPlannerOptions {
  /** The replay server's origin (`http://127.0.0.1:PORT`): absolute endpoint URLs are given this origin. */
  origin: string;
}

export class ReplayPlanner {
  readonly script: ReplayScript;
  private readonly lookup: RequestLookup;
  private readonly gates: ScriptGates;
  private readonly matcher: ExchangeMatcher;
  /** What each played request carried live, by recorded exchange id. */
  private readonly live = new Map<string, RequestShape>();
  private readonly seen: Divergence[] = [];
  private readonly origin: Uint8Array;
  private readonly encoder = new TextEncoder();
  private readonly spans = new Map<string, ExchangeSpans>();

  constructor(capture: Capture | ReplayScript, options: ReplayPlannerOptions) {
    this.script = 'connections' in capture ? replayScript(capture) : capture;
    this.lookup = new RequestLookup(this.script);
    this.gates = scriptGates(this.script, this.lookup);
    this.matcher = new ExchangeMatcher(this.script);
    // Ready before the first request: a replay's start-up, not its first answer, pays for reading a long stream.
    for (const exchange of this.script.exchanges) this.spansOf(exchange);
    this.origin = new TextEncoder().encode(options.origin.replace(/\/+$/, ''));
  }

  /** Every divergence so far, in the order the requests came. */
  get divergences(): readonly Divergence[] {
    return this.seen;
  }

  answer(request: ReplayRequest): ReplayAnswer {
    const shape = shapeOf(request.method, request.path, request.headers, request.body);
    const match = this.matcher.match(shape);
    if (match.kind === 'matched') {
      const divergence =
        match.divergence &&
        this.diverged(shape, 'other-params', 'played', match.exchange, 'its params differ from the recorded request');
      return this.play(match.exchange, shape, 0, divergence);
    }
    if (match.divergence === 'reissued-request' && match.again?.end === 'complete') {
      const divergence = this.diverged(shape, match.divergence, 'played', match.again, 'answered as recorded before');
      return this.play(match.again, shape, 0, divergence);
    }
    if (shape.kind === 'resume') return this.resume(shape);
    return this.refuse(shape, match.divergence);
  }

  /** A resume no recorded resume matches: continued from the recorded stream after its cursor, or refused. */
  private resume(shape: RequestShape): ReplayAnswer {
    const from = continuation(this.script, shape);
    const kind = from?.resumedElsewhere === false ? 'resumed-where-recorded-gave-up' : 'other-cursor';
    if (!from?.offset.hasMore) return this.refuse(shape, from ? kind : 'other-cursor');
    const divergence = this.diverged(shape, kind, 'continued', from.exchange, `continued after ${from.offset.at} B`);
    return this.play(from.exchange, shape, from.offset.at, divergence);
  }

  private refuse(shape: RequestShape, kind: DivergenceKind): ReplayAnswer {
    const answer = refusal(shape, kind);
    const divergence = this.diverged(shape, kind, answer.accepted ? 'accepted' : 'refused', undefined, answer.words);
    divergence.status = answer.status;
    return { kind: 'refuse', status: answer.status, headers: answer.headers, body: answer.body, divergence };
  }

  private diverged(
    shape: RequestShape,
    kind: DivergenceKind,
    answer: Divergence['answer'],
    exchange: RecordedExchange | undefined,
    words: string,
  ): Divergence {
    const divergence: Divergence = {
      kind,
      request: describeRequest(shape),
      message: `${kind}: ${describeRequest(shape)}: ${words}${exchange ? ` (recorded ${exchange.id})` : ''}`,
      answer,
      ...(exchange && { exchangeId: exchange.id }),
      ...(exchange?.status !== undefined && { status: exchange.status }),
    };
    this.seen.push(divergence);
    return divergence;
  }

  /** The recorded exchange's response, from body offset `from` (a continued resume starts after its cursor). */
  private play(exchange: RecordedExchange, shape: RequestShape, from: number, divergence?: Divergence): ReplayAnswer {
    this.live.set(exchange.id, shape);
    const gates = this.gates.get(exchange.id) ?? [];
    const rewriter = this.rewriter(exchange, from);
    const first = exchange.chunks.findIndex((c) => c.end > from);
    const startMs = from > 0 && first > 0 ? (exchange.chunks[first - 1]?.atMs ?? 0) : 0;
    const chunks = (first < 0 ? [] : exchange.chunks.slice(first)).map((chunk, i): PlannedChunk => {
      const waitsFor = from > 0 ? [] : (gates[first + i] ?? []);
      return { atMs: chunk.atMs - startMs, waitsFor, take: () => rewriter.take(chunk.end) };
    });
    return {
      kind: 'play',
      exchangeId: exchange.id,
      ...(exchange.status !== undefined && { status: exchange.status }),
      statusText: exchange.statusText,
      headers: exchange.headers,
      headDelayMs: from > 0 ? 0 : exchange.headDelayMs,
      chunks,
      end: exchange.end,
      ...(exchange.endAtMs !== undefined && { endAtMs: Math.max(0, exchange.endAtMs - startMs) }),
      endWaitsFor: endGates(exchange, this.script),
      ...(divergence && { divergence }),
    };
  }

  private rewriter(exchange: RecordedExchange, from: number): BodyRewriter {
    const headTime = exchange.startTime + exchange.headDelayMs;
    const { spans, sites, own } = this.spansOf(exchange);
    const replacement = (site: IdSite, request: RecordedExchange | undefined): Uint8Array | undefined => {
      const live = request && this.live.get(request.id);
      const now = site.kind === 'response-id' ? live?.rpc?.id : live?.progressToken;
      return now === undefined || idKey(now) === idKey(site.value)
        ? undefined
        : this.encoder.encode(JSON.stringify(now));
    };
    // A site of the exchange's own request (its answer's id, its progress token) becomes the same bytes every time:
    // decided once per kind, not per event.
    const ownReplacement = new Map<IdSite['kind'], Uint8Array | undefined>();
    return new BodyRewriter(
      exchange.body,
      {
        spans,
        replace: (index) => {
          const site = sites[index];
          if (!site) return this.origin; // an endpoint URL's origin
          if (own[index]) {
            if (!ownReplacement.has(site.kind)) ownReplacement.set(site.kind, replacement(site, exchange));
            return ownReplacement.get(site.kind);
          }
          const at = headTime + (chunkAt(exchange.chunks, site.start)?.atMs ?? 0);
          return replacement(site, this.lookup.find(exchange, site.kind, site.value, at));
        },
      },
      from,
    );
  }

  /** An exchange's replaceable spans in body order (made once: every replay of it reads the same), with their ids. */
  private spansOf(exchange: RecordedExchange): ExchangeSpans {
    const known = this.spans.get(exchange.id);
    if (known) return known;
    const all: { span: Span; site?: IdSite }[] = [
      ...exchange.sites.ids.map((site) => ({ span: site, site })),
      ...exchange.sites.endpointOrigins.map((span) => ({ span })),
    ].sort((a, b) => a.span.start - b.span.start);
    const made = {
      spans: all.map((s) => s.span),
      sites: all.map((s) => s.site),
      own: all.map((s) => s.site !== undefined && this.lookup.isOwn(exchange, s.site.kind, s.site.value)),
    };
    this.spans.set(exchange.id, made);
    return made;
  }
}

interface ExchangeSpans {
  spans: Span[];
  /** Per span, the id it holds; undefined for an endpoint URL's origin. */
  sites: (IdSite | undefined)[];
  /** Per span, whether its id is the exchange's own request's (RequestLookup.isOwn). */
  own: boolean[];
}

/** The recorded chunk that holds body offset `offset` (chunks in body order). */
function chunkAt(chunks: readonly RecordedChunk[], offset: number): RecordedChunk | undefined {
  let low = 0;
  let high = chunks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((chunks[mid] as RecordedChunk).end <= offset) low = mid + 1;
    else high = mid;
  }
  return chunks[low];
}
