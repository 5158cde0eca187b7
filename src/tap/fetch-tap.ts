// Page MAIN world: replaces window.fetch with a Proxy of the native one that records MCP traffic.
// A Proxy keeps name, length, toString ("[native code]") and every property of the native function.
import type { TapBreaker } from './break/breaker';
import type { DeltaSink } from './channel';
import { errorText, isAbortError, isEventStream, isJson } from './classify';
import { ConnectionTap } from './connection';
import { BodyTap, tapSmallBody } from './body';
import { attempt, guarded } from './guard';
import { apply } from './intrinsics';
import type { Natives } from './natives';
import { buildRequest, headerList, readRequest, type RequestInfo } from './request';

export interface TapContext {
  natives: Natives;
  /** Registers a replacement so that it prints as the native it replaces. */
  disguise: (replacement: object, original: object) => void;
  sink: DeltaSink;
  nextId: () => string;
  baseUrl: () => string;
  documentUrl: () => string;
  /** The Break menu's faults: consulted only while armed. */
  breaker?: TapBreaker;
}

/** One fetch call as the tap follows it; the record starts at once for MCP requests, on an SSE answer otherwise. */
class FetchCall {
  private conn: ConnectionTap | null = null;

  constructor(
    readonly request: RequestInfo,
    private readonly startTime: number,
    private readonly ctx: TapContext,
    private readonly bodies: BodyTap,
  ) {
    if (request.mcp) this.startRecord();
  }

  private startRecord(): ConnectionTap {
    if (this.conn) return this.conn;
    const conn = new ConnectionTap(this.ctx.nextId(), this.ctx.sink, this.ctx.natives);
    const { method, url, body, signal } = this.request;
    conn.start({
      source: 'fetch',
      method,
      url,
      requestHeaders: this.request.headers(),
      ...(body !== undefined ? { requestBody: body } : {}),
      startTime: this.startTime,
      documentUrl: this.ctx.documentUrl(),
    });
    if (signal) {
      const { natives } = this.ctx;
      const onAbort = (): void => guarded(() => conn.end('aborted', errorText(natives.signalReason(signal))));
      natives.addListener(signal, 'abort', onAbort, { once: true });
      // Removed once the record ends (the fetch and its body settled): a signal shared by many fetches, and the
      // request signals that follow it, must not keep one listener, and its record, per fetch ever made.
      conn.onEnd = () => natives.removeListener(signal, 'abort', onAbort);
    }
    this.conn = conn;
    return conn;
  }

  get recordId(): string | undefined {
    return this.conn?.id;
  }

  responded(response: Response): void {
    const { natives } = this.ctx;
    const headers = natives.responseHeaders(response);
    const contentType = natives.headersGet(headers, 'content-type');
    const sse = isEventStream(contentType);
    if (!sse && !this.conn) return;
    const conn = this.startRecord();
    conn.response(response.status, response.statusText, headerList(headers, natives));
    if (sse) this.bodies.register(response, conn);
    else if (isJson(contentType)) tapSmallBody(response, conn, natives);
    else conn.end('complete');
  }

  failed(error: unknown): void {
    this.conn?.end(isAbortError(error) ? 'aborted' : 'network-error', errorText(error));
  }
}

async function follow(pending: Promise<Response>, call: FetchCall): Promise<Response> {
  let response: Response;
  try {
    response = await pending;
  } catch (error) {
    guarded(() => call.failed(error));
    throw error;
  }
  guarded(() => call.responded(response));
  return response;
}

export function tapFetch(target: { fetch: typeof fetch }, ctx: TapContext): void {
  const { natives } = ctx;
  const bodies = new BodyTap(natives, ctx.disguise);
  const tapped = new Proxy(natives.fetch, {
    apply(nativeFetch, thisArg: unknown, args: unknown[]): Promise<Response> {
      // A call the native fetch refuses before reading its arguments (no arguments, a foreign `this`) stays its own.
      if (args.length === 0 || (thisArg !== undefined && thisArg !== null && thisArg !== target))
        return apply(nativeFetch, thisArg, args) as Promise<Response>;
      const startTime = attempt(() => ctx.sink.now()) ?? 0;
      let built: { request: Request; body: unknown };
      try {
        built = buildRequest(args[0], args[1], natives);
      } catch {
        // The native fetch fails on the same arguments, with its own message ("Failed to execute 'fetch'..."); only
        // then are the page's getters read a second time, and nothing is sent.
        return apply(nativeFetch, thisArg, args) as Promise<Response>;
      }
      const forwarded: unknown[] = [built.request];
      const call = attempt(
        () => new FetchCall(readRequest(built.request, built.body, natives), startTime, ctx, bodies),
      );
      const breaker = ctx.breaker;
      const pending =
        call && breaker?.armed
          ? breaker.fetch(nativeFetch, thisArg, forwarded, call.request, call.recordId)
          : (apply(nativeFetch, thisArg, forwarded) as Promise<Response>);
      return call ? follow(pending, call) : pending;
    },
  });
  ctx.disguise(tapped, natives.fetch);
  target.fetch = tapped;
}
