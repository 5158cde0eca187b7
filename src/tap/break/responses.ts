// Page MAIN world, only while the Break menu has faults armed: the responses a fault hands the page instead of the
// network's. A cut body errors as the network would, cancels the network body and aborts the underlying fetch
// (cutter.ts): the server sees the disconnect. Answers the planner makes itself never reach the server.
import type { FaultStream } from '../../core/fault/fault-stream';
import { isEventStream } from '../classify';
import { bare } from '../intrinsics';
import type { Natives } from '../natives';
import { type CutHooks, FaultPump } from './pump';

/** The header the product's fault proxy puts on the answers it makes itself (src/proxy/forward.ts), here too. */
const FAULT_HEADER = 'x-mcp-stream-inspector-fault';
/** As the proxy's `resume-silent`: a keep-alive comment at once, then every 10 s, until the page lets go. */
const KEEP_ALIVE_MS = 10_000;

/**
 * The page's response, its event-stream body passed through `stream` (pump.ts); other bodies pass untouched. A held
 * head (buffer) resolves the fetch only with the body's first output, or fails it as the network would.
 */
export async function faultedResponse(
  pending: Promise<Response>,
  stream: FaultStream,
  natives: Natives,
  hooks: CutHooks,
): Promise<Response> {
  let response: Response;
  try {
    response = await pending;
  } catch (error) {
    stream.finish('abandoned');
    throw error;
  }
  const headers = natives.responseHeaders(response);
  const body = natives.responseBody(response);
  if (!body || !isEventStream(natives.headersGet(headers, 'content-type'))) {
    stream.finish();
    return response;
  }
  const timing = stream.opened();
  const pump = new FaultPump(natives.getReader(body), stream, natives, hooks, timing);
  const copy = new natives.Response(new natives.ReadableStream(pump.source()), head(response, headers));
  if (timing.holdHead) await pump.firstOutput();
  return sameHead(copy, response);
}

/** An answer made here: a JSON-RPC error with its status, as the proxy's `resume-status`. */
export function answerResponse(
  natives: Natives,
  status: number,
  headers: Record<string, string>,
  body: string,
  fault: string,
): Response {
  const all = bare({ 'content-type': 'application/json', [FAULT_HEADER]: fault, ...headers });
  return new natives.Response(body, bare({ status, statusText: statusText(status), headers: all }));
}

/** 200, an event stream of keep-alive comments only, until the page cancels it or aborts the fetch. */
export function silentResponse(natives: Natives, fault: string, signal: AbortSignal | undefined): Response {
  const ping = natives.textEncoder.encode(': keep-alive\n\n');
  let stopped = false;
  const source: UnderlyingDefaultSource<Uint8Array> = bare({
    start(controller: ReadableStreamDefaultController<Uint8Array>) {
      const beat = (): void => {
        if (stopped) return;
        controller.enqueue(ping.slice());
        natives.setTimeout(beat, KEEP_ALIVE_MS);
      };
      beat();
      if (signal) {
        natives.addListener(
          signal,
          'abort',
          () => {
            if (stopped) return;
            stopped = true;
            controller.error(signal.reason);
          },
          { once: true },
        );
      }
    },
    cancel() {
      stopped = true;
    },
  });
  const headers = bare({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', [FAULT_HEADER]: fault });
  return new natives.Response(new natives.ReadableStream(source), bare({ status: 200, statusText: 'OK', headers }));
}

function head(response: Response, headers: Headers): ResponseInit {
  return bare({ status: response.status, statusText: response.statusText, headers });
}

/** A constructed Response has no url, type or redirected of its own: it keeps the network response's. */
function sameHead(copy: Response, original: Response): Response {
  for (const key of ['url', 'redirected', 'type'] as const) {
    const value = original[key];
    Object.defineProperty(copy, key, bare({ get: () => value, configurable: true, enumerable: false }));
  }
  return copy;
}

function statusText(status: number): string {
  return status === 404 ? 'Not Found' : status === 409 ? 'Conflict' : status === 400 ? 'Bad Request' : '';
}
