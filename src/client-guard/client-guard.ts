// Runs anywhere (browsers, Node, Workers): the client guard, a fetch wrapper for any fetch-based MCP client (the
// TypeScript SDK's `fetch` option or `Middleware`). Uses only fetch and the web streams API.
import type { SseEvent, SseTail } from '../core/sse';
import { scanEnvelopes } from '../core/mcp/envelope-scan';
import { parseMessages } from '../core/mcp/jsonrpc';
import type { JsonRpcEnvelope } from '../core/mcp/types';
import type { ParsedId } from '../core/ids/scheme';
import { judgeResumedEvent } from './continuity';
import { ResumptionRejectedError, type RejectionRule } from './errors';
import { guardBody, type BodyEnd, type BodyHooks } from './guarded-body';
import { keyOf, SessionState, StreamState } from './ledger';
import { reissueHooks, wantsReissue, type ReissuePolicy } from './reissue';
import { describeRequest, isEventStream, type FetchLike, type OutgoingRequest } from './request';
import type { Verdict } from './whole-events';

/** What the guard did, named by the inspector's rule for the hazard it stopped. */
export interface GuardFinding {
  /** The rule id the inspector's panel and CLI use for this hazard. */
  rule: string;
  /** `withheld` a torn event's bytes, `dropped` an event already delivered, `refused` a resume, `restored` a lost
   * `Last-Event-ID`, `resumed` a stream the server closed before its answer, `reissued` a broken 2026-07-28 request. */
  action: 'withheld' | 'dropped' | 'refused' | 'restored' | 'resumed' | 'reissued';
  message: string;
  /** The endpoint (origin and path). */
  endpoint: string;
  sessionId?: string;
}

/** How a client guard is made: the fetch it wraps, what it tells the app, and its few policies. */
export interface ClientGuardOptions {
  /** The fetch to guard; `globalThis.fetch` by default. */
  fetch?: FetchLike;
  /** Called with each intervention, as it happens. */
  onFinding?: (finding: GuardFinding) => void;
  /** Called once per refused resume, with the error its stream ended with. */
  onRejected?: (error: ResumptionRejectedError) => void;
  /**
   * 2026-07-28 (no resumption): a response stream broken before its answer is re-issued once as a new request with a
   * new id. `true` (default) for every request, `false` never, or a function that says per request (return false for
   * tools that must not run twice).
   */
  reissue?: ReissuePolicy;
  /** Resumes of one stream in a row that deliver no message while its request waits before the guard refuses. */
  maxEmptyResumes?: number;
  /**
   * Refuse a resume that delivers no new event for this long while its request waits (a 200 that stays silent).
   * 0 (default) never: a long tool with nothing to replay yet is silent too; set it above your longest such wait.
   */
  silentResumeMs?: number;
  /**
   * Resume a stream the server closed cleanly before its answer (a 2025-11-25 server-side disconnect), after its
   * `retry:`, for clients that never do (default true).
   */
  resumeClosedStreams?: boolean;
}

/** A client guard: the guarded fetch (or middleware) to give the client, its counts, and the recovery call. */
export interface ClientGuard {
  /** The guarded fetch: give it to the client (`new StreamableHTTPClientTransport(url, { fetch: guard.fetch })`). */
  readonly fetch: FetchLike;
  /** The same guard as an SDK `Middleware` over another fetch (sharing this guard's sessions). */
  middleware(next: FetchLike): FetchLike;
  /** How many times each rule's hazard was stopped. */
  counts(): Record<string, number>;
  /**
   * What the field reports prescribe after a refused resume, in one call: close the client (the SDK then fails every
   * pending request at once and aborts the handlers of the server's requests; a late retry of the old session's
   * refused cursor still fails at once, without reaching the server), and re-initialize through `reconnect` (typically `() => client.connect(new StreamableHTTPClientTransport(url, {
   * fetch: guard.fetch }))`).
   */
  recover(client: { close(): Promise<void> }, reconnect: () => Promise<void>): Promise<void>;
}

const DEFAULT_MAX_EMPTY_RESUMES = 2;
const MAX_SESSIONS = 64;
const PROTOCOL_HEADER = 'mcp-protocol-version';
const STATELESS = '2026-07-28';

/** Creates a client guard; see docs/client-guard.md. */
export function createClientGuard(options: ClientGuardOptions = {}): ClientGuard {
  const sessions = new Map<string, SessionState>();
  const counted = new Map<string, number>();
  const maxEmptyResumes = options.maxEmptyResumes ?? DEFAULT_MAX_EMPTY_RESUMES;

  const report = (finding: GuardFinding): void => {
    counted.set(finding.rule, (counted.get(finding.rule) ?? 0) + 1);
    options.onFinding?.(finding);
  };
  const sessionOf = (request: OutgoingRequest): SessionState => {
    const sessionId = request.headers.get('mcp-session-id') ?? undefined;
    const key = `${request.endpoint} ${sessionId ?? ''}`;
    let session = sessions.get(key);
    if (!session) {
      sessions.set(key, (session = new SessionState(sessionId)));
      // Old sessions are kept (their refused streams keep failing fast), the oldest forgotten past a bound.
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    }
    return session;
  };
  const reject = (
    request: OutgoingRequest,
    session: SessionState,
    stream: StreamState | undefined,
    rule: RejectionRule,
    cursor: string,
    message: string,
    eventId?: string,
  ): ResumptionRejectedError => {
    const error = new ResumptionRejectedError(`ResumptionRejectedError: ${message}`, {
      rule,
      cursor,
      ...(eventId !== undefined && { eventId }),
      ...(session.sessionId !== undefined && { sessionId: session.sessionId }),
      pendingRequestIds: stream?.pendingIds() ?? [],
    });
    if (stream) stream.rejected = error;
    if (session.lostCursor?.stream === stream) session.lostCursor = undefined;
    report({ rule, action: 'refused', message, endpoint: request.endpoint, ...sessionField(session) });
    options.onRejected?.(error);
    return error;
  };

  const wrap =
    (next: FetchLike): FetchLike =>
    async (url, init) => {
      const request = describeRequest(url, init);
      const session = request.headers.has('mcp-session-id') ? sessionOf(request) : undefined;
      // A session the server no longer knows: every later request on it fails the same way, so none is sent.
      if (session?.gone && request.method !== 'DELETE') throw session.gone;
      const response = request.method === 'GET' ? await getStream(next, request) : await exchange(next, request);
      if (session && response.status === 404 && (await sessionGone(request, response)))
        endSession(request, session, response.status);
      return response;
    };

  /** A POST (or any other method): an event-stream answer is guarded, anything else handed back as it came. */
  async function exchange(next: FetchLike, request: OutgoingRequest): Promise<Response> {
    const response = await next(request.url, request.init);
    if (request.method !== 'POST' || !isEventStream(response)) return response;
    const session = sessionOf(request);
    const stream = session.newStream('POST');
    for (const message of request.messages)
      if (message.kind === 'request' && message.id !== undefined) stream.pending.set(keyOf(message.id), message.id);
    const stateless = request.headers.get(PROTOCOL_HEADER) === STATELESS;
    const hooks = streamHooks(next, request, session, stream, undefined);
    const reissuing =
      stateless && wantsReissue(options.reissue, request) ? withReissue(next, request, stream, hooks) : hooks;
    return rebuilt(response, guardBody(response.body as ReadableStream<Uint8Array>, reissuing));
  }

  /**
   * The server no longer knows the session (404): the spec's "start a new session". Every stream of it is refused
   * at once, with every request still waiting on them.
   */
  function endSession(request: OutgoingRequest, session: SessionState, status: number): void {
    const cursor = request.headers.get('last-event-id') ?? '';
    const message = `the server no longer knows session ${session.sessionId ?? ''} (${status} to ${request.method}${cursor ? ` with Last-Event-ID ${cursor}` : ''}): re-initialize`;
    const rule: RejectionRule = cursor ? 'resumption-rejected' : 'session-not-reinitialized';
    const error = new ResumptionRejectedError(`ResumptionRejectedError: ${message}`, {
      rule,
      cursor,
      ...sessionField(session),
      pendingRequestIds: session.pendingIds(),
    });
    session.gone = error;
    for (const stream of session.openStreams()) stream.rejected ??= error;
    session.lostCursor = undefined;
    report({ rule, action: 'refused', message, endpoint: request.endpoint, ...sessionField(session) });
    options.onRejected?.(error);
  }

  async function getStream(next: FetchLike, request: OutgoingRequest): Promise<Response> {
    const session = sessionOf(request);
    let cursor = request.headers.get('last-event-id') ?? undefined;
    let init = request.init;
    const lost = session.lostCursor;
    if (cursor === undefined && lost && lost.stream.pending.size > 0) {
      // typescript-sdk #2499: a resumed stream that dropped before a new id makes the next reconnect a GET without
      // a cursor (a standalone stream instead of the resume). Its cursor is the last id the stream delivered.
      cursor = lost.cursor;
      const headers = new Headers(request.headers);
      headers.set('last-event-id', cursor);
      init = { ...request.init, headers };
      report({
        rule: 'post-stream-not-resumed',
        action: 'restored',
        message: `a reconnect lost its Last-Event-ID; sent ${cursor} again (the last event ${lost.stream.label} delivered)`,
        endpoint: request.endpoint,
        ...sessionField(session),
      });
    }
    session.lostCursor = undefined;
    if (cursor === undefined) {
      const response = await next(request.url, init);
      if (!isEventStream(response)) return response;
      const stream = session.newStream('GET');
      return rebuilt(
        response,
        guardBody(response.body as ReadableStream<Uint8Array>, streamHooks(next, request, session, stream, undefined)),
      );
    }
    const stream = session.find(cursor)?.stream ?? (lost?.cursor === cursor ? lost.stream : undefined);
    // A refused cursor fails the same way every time: do not ask the server again.
    if (stream?.rejected) throw stream.rejected;
    const response = await next(request.url, init);
    // A refusal is handed back as it came; a 404 for the session is ended by the wrapper (endSession).
    if (!response.ok) {
      await refusedResume(request, session, stream, cursor, response);
      return response;
    }
    if (!isEventStream(response)) return response;
    const resumed = stream ?? session.newStream('resumed GET');
    return rebuilt(
      response,
      guardBody(response.body as ReadableStream<Uint8Array>, streamHooks(next, request, session, resumed, cursor)),
    );
  }

  /** The hooks of one connection of `stream`; `cursor` when it resumes the stream. */
  function streamHooks(
    next: FetchLike,
    request: OutgoingRequest,
    session: SessionState,
    stream: StreamState,
    cursor: string | undefined,
  ): BodyHooks {
    let judging = cursor !== undefined;
    let refusal: ResumptionRejectedError | undefined;
    /** The last id this connection delivered, parsed. */
    let previousId: ParsedId | undefined;
    let messages = 0;
    const where = { endpoint: request.endpoint, ...sessionField(session) };
    const refuseWith = (rule: RejectionRule, message: string, eventId?: string): ResumptionRejectedError =>
      (refusal = reject(request, session, stream, rule, cursor ?? '', message, eventId));

    const judge = (event: SseEvent): Verdict => {
      if (event.hasId) {
        const id = event.lastEventId;
        if (judging) {
          const judgement = judgeResumedEvent(session, stream, cursor ?? '', id, event.data);
          if (judgement.kind === 'duplicate') {
            report({ rule: 'replayed-event-duplicate', action: 'dropped', message: judgement.message, ...where });
            return 'drop';
          }
          if (judgement.kind === 'refuse') {
            refuseWith(judgement.rule, judgement.message, id);
            return 'stop';
          }
          judging = false;
        }
        previousId = session.deliver(stream, id, event.data, cursor !== undefined, previousId);
      }
      if (event.data !== '') {
        messages += 1;
        if (stream.pending.size > 0 && event.data.includes('"id"')) settle(stream, event.data);
      }
      return 'keep';
    };

    return {
      judge,
      refusal: () => refusal,
      silenceMs: cursor !== undefined ? (options.silentResumeMs ?? 0) : 0,
      silence: () =>
        judging && stream.pending.size > 0 && !refusal
          ? refuseWith(
              'resume-not-honored',
              `the resume after ${cursor ?? ''} sent no new event in ${options.silentResumeMs ?? 0} ms while ${stream.label}'s request waited`,
            )
          : undefined,
      ended: async (torn: SseTail | undefined, error: unknown, retryMs: number | undefined): Promise<BodyEnd> => {
        if (torn?.hasData)
          report({
            rule: 'torn-event-reconnect',
            action: 'withheld',
            message: `${stream.label} ended inside an event; its ${torn.bytes.length} bytes were not handed on`,
            ...where,
          });
        if (retryMs !== undefined) stream.retryMs = retryMs;
        if (stream.pending.size === 0 || refusal) return { kind: 'end' };
        if (cursor !== undefined) {
          // A resume that ended having delivered no message while the request waits.
          stream.emptyResumes = messages === 0 ? stream.emptyResumes + 1 : 0;
          if (stream.emptyResumes >= maxEmptyResumes)
            return {
              kind: 'fail',
              error: refuseWith(
                previousId === undefined ? 'resume-not-honored' : 'reconnect-storm',
                `${stream.emptyResumes} resumes of ${stream.label} in a row delivered nothing while its request waited`,
              ),
            };
        }
        if (error === undefined && options.resumeClosedStreams !== false) {
          const resumed = await resumeClosed(next, request, session, stream);
          if (resumed) return resumed;
        }
        if (cursor !== undefined && previousId === undefined && stream.lastId !== undefined)
          session.lostCursor = { stream, cursor: stream.lastId };
        return { kind: 'end' };
      },
    };
  }

  /**
   * What a failed answer to a resume means: `session-gone` for a 404 that says so (the whole session ends), the
   * refusal of the cursor for any other 4xx (reported, and the stream marked), nothing for the rest (a 5xx may pass).
   */
  async function refusedResume(
    request: OutgoingRequest,
    session: SessionState,
    stream: StreamState | undefined,
    cursor: string,
    response: Response,
  ): Promise<ResumptionRejectedError | 'session-gone' | undefined> {
    if (response.status === 404 && (await sessionGone(request, response))) return 'session-gone';
    if (!refusesCursor(response)) return undefined;
    return reject(
      request,
      session,
      stream,
      'resumption-rejected',
      cursor,
      `the server refused the resume after ${cursor} with ${response.status}`,
    );
  }

  /**
   * A stream the server closed cleanly before its answer (a 2025-11-25 server-side disconnect): the guard resumes it
   * itself after the server's `retry:`, so a client that never resumes a closed stream still gets its answer.
   */
  async function resumeClosed(
    next: FetchLike,
    request: OutgoingRequest,
    session: SessionState,
    stream: StreamState,
  ): Promise<BodyEnd | undefined> {
    const cursor = stream.lastId;
    const retryMs = stream.retryMs;
    const signal = request.init.signal ?? undefined;
    if (cursor === undefined || request.headers.get(PROTOCOL_HEADER) === STATELESS) return undefined;
    if (retryMs) await new Promise((resolve) => setTimeout(resolve, retryMs));
    if (signal?.aborted) return undefined;
    const headers = new Headers(request.headers);
    headers.delete('content-type');
    headers.delete('content-length');
    headers.set('accept', 'text/event-stream');
    headers.set('last-event-id', cursor);
    report({
      rule: 'post-stream-not-resumed',
      action: 'resumed',
      message: `the server closed ${stream.label} before its answer; resumed it after ${cursor}`,
      endpoint: request.endpoint,
      ...sessionField(session),
    });
    const init: RequestInit = { method: 'GET', headers, ...(signal && { signal }) };
    const response = await next(request.url, init).catch(() => undefined);
    // A resume that could not be made is the clean end the server gave: the client decides what comes next.
    if (!response) return undefined;
    const refused = await refusedResume(request, session, stream, cursor, response);
    if (refused) {
      await response.body?.cancel();
      if (refused === 'session-gone') endSession(request, session, response.status);
      return { kind: 'fail', error: refused === 'session-gone' ? session.gone : refused };
    }
    if (!response.ok || !isEventStream(response)) {
      await response.body?.cancel();
      return undefined;
    }
    const resumed = { ...request, method: 'GET', init, headers };
    return {
      kind: 'follow',
      body: response.body as ReadableStream<Uint8Array>,
      hooks: streamHooks(next, resumed, session, stream, cursor),
    };
  }

  /** A stateless stream whose answer did not come is asked again, once, with a new id. */
  function withReissue(next: FetchLike, request: OutgoingRequest, stream: StreamState, hooks: BodyHooks): BodyHooks {
    return {
      ...hooks,
      ended: async (torn, error, retryMs) => {
        const end = await hooks.ended(torn, error, retryMs);
        if (end.kind !== 'end' || stream.pending.size === 0 || request.init.signal?.aborted) return end;
        const again = reissueHooks(request, stream, (finding) => report({ ...finding, endpoint: request.endpoint }));
        if (!again) return end;
        const response = await next(request.url, { ...request.init, body: again.body }).catch(() => undefined);
        if (!response || !isEventStream(response)) return end;
        return { kind: 'follow', body: response.body as ReadableStream<Uint8Array>, hooks: again.hooks(hooks) };
      },
    };
  }

  return {
    fetch: wrap(options.fetch ?? ((url, init) => globalThis.fetch(url, init))),
    middleware: wrap,
    counts: () => Object.fromEntries(counted),
    async recover(client, reconnect) {
      await client.close();
      await reconnect();
    },
  };
}

/**
 * Whether a failed resume refuses its cursor: any 4xx. A retry with the same cursor fails the same way, as the epoch
 * report says; a 409 with `Retry-After` is the torn-event report's "force a new session".
 */
function refusesCursor(response: Response): boolean {
  return response.status >= 400 && response.status < 500;
}

/**
 * Whether a 404 means the session is gone: always for a POST (the endpoint took the initialize), for a GET only when
 * its body says so (the SDKs answer "Session not found"; a server may 404 a GET route it does not serve).
 */
async function sessionGone(request: OutgoingRequest, response: Response): Promise<boolean> {
  if (request.method === 'POST') return true;
  if (request.method !== 'GET') return false;
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  return /session/i.test(text.slice(0, 4096));
}

function sessionField(session: SessionState): { sessionId?: string } {
  return session.sessionId === undefined ? {} : { sessionId: session.sessionId };
}

/** Marks the requests an event answers as answered. */
function settle(stream: StreamState, data: string): void {
  const envelopes = scanEnvelopes(data) ?? envelopesOf(data);
  for (const envelope of envelopes)
    if ((envelope.kind === 'response' || envelope.kind === 'error') && envelope.id !== undefined)
      stream.pending.delete(keyOf(envelope.id));
}

function envelopesOf(data: string): JsonRpcEnvelope[] {
  const parsed = parseMessages(data);
  return parsed.ok ? parsed.messages : [];
}

/** The response with the guarded body in place of its own: status, status text and headers as they came. */
function rebuilt(response: Response, body: ReadableStream<Uint8Array>): Response {
  const guarded = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(guarded, 'url', { value: response.url });
  return guarded;
}
