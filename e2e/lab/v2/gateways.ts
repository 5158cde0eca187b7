// Runs in Node (v2 lab): two faulty HTTP gateways in front of the real TS SDK v2 server, for the two 2026-07-28
// violations neither SDK makes by itself (the v2 server's codec is era-gated: even wired the 2025 way, with an event
// store, it answers a 2026-07-28 server/discover -32601; the Python server's 2026-07-28 path writes no ids). Each
// forwards the real server's bytes and changes only what its name says; the lab's wire recorder keeps what the
// client received.
// - `numbering`: a gateway built for the 2025 transport's resumability: it gives every SSE event an `id:` (and the
//   first one `retry: 1000`), which 2026-07-28 removed.
// - `crossing`: a gateway that pools upstream exchanges per tool and crosses two clients' answers: it holds the
//   first big_result call until a second one arrives, forwards both, and writes each upstream answer to the other
//   client.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listen, readBody, trackSockets } from '../../../src/proxy/node-http';
import type { ExchangeTrace } from '../../../src/proxy/trace';
import { WireRecorder } from '../proxy/wire-recorder';

/** `plain` forwards every byte unchanged: the twin that shows the gateway itself adds no finding. */
export type GatewayKind = 'plain' | 'numbering' | 'crossing';

export interface Gateway {
  /** The gateway's MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  recorder: WireRecorder;
  close(): Promise<void>;
}

/** How long `crossing` holds a lone big_result call before forwarding it alone (a run that sends only one). */
const PAIR_WAIT_MS = 2000;
/** The `retry:` the numbering gateway announces, as a 2025 event store's transport would. */
const RETRY_MS = 1000;
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | null;
}

async function forward(upstream: string, req: IncomingMessage, body: Buffer, signal: AbortSignal): Promise<Upstream> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
  const response = await fetch(upstream, {
    method: req.method ?? 'GET',
    headers,
    ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    signal,
  });
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
  });
  return { status: response.status, headers: out, body: response.body };
}

/** Gives each complete SSE event an `id:` (the first also `retry:`); comments and partial tails pass unnumbered. */
function numberer(): (text: string) => string {
  let tail = '';
  let next = 1;
  return (text) => {
    tail += text;
    let out = '';
    for (let end = tail.indexOf('\n\n'); end >= 0; end = tail.indexOf('\n\n')) {
      const frame = tail.slice(0, end + 2);
      tail = tail.slice(end + 2);
      if (frame.startsWith(':')) out += frame;
      else out += `id: ${next}\n${next++ === 1 ? `retry: ${RETRY_MS}\n` : ''}${frame}`;
    }
    return out;
  };
}

/** Writes `upstream` to `res` (and the recorder), through `rewrite` when given. */
async function relay(res: ServerResponse, trace: ExchangeTrace, upstream: Upstream, rewrite?: (t: string) => string) {
  trace.head(upstream.status, '', upstream.headers);
  res.writeHead(upstream.status, upstream.headers);
  const decoder = new TextDecoder();
  const reader = upstream.body?.getReader();
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      const bytes = rewrite ? Buffer.from(rewrite(decoder.decode(chunk.value, { stream: true }))) : chunk.value;
      if (bytes.length === 0) continue;
      trace.write(bytes);
      res.write(bytes);
    }
    res.end();
    trace.end('complete');
  } catch (error) {
    trace.end('aborted', error instanceof Error ? error.message : String(error));
    res.destroy();
  }
}

/** The tool whose calls `crossing` pools. */
const CROSSED_TOOL = 'big_result';

const isCrossedCall = (body: Buffer): boolean => {
  try {
    const rpc = JSON.parse(body.toString('utf8')) as { method?: unknown; params?: { name?: unknown } };
    return rpc.method === 'tools/call' && rpc.params?.name === CROSSED_TOOL;
  } catch {
    return false;
  }
};

/** One big_result call waiting for its partner, and how to hand it the partner's upstream answer. */
interface Held {
  answer: Promise<Upstream>;
  deliver(upstream: Upstream): void;
}

/** Starts `kind` on 127.0.0.1 in front of `upstream` (a free port unless `port` is given). */
export async function startGateway(kind: GatewayKind, upstream: string, port = 0): Promise<Gateway> {
  const recorder = new WireRecorder();
  let base = '';
  let held: Held | undefined;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const trace = recorder.begin(req, base);
    const body = await readBody(req);
    trace.requestBody(body);
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    if (kind !== 'crossing' || !isCrossedCall(body)) {
      const answer = await forward(upstream, req, body, abort.signal);
      const sse = answer.headers['content-type']?.startsWith('text/event-stream') === true;
      return relay(res, trace, answer, kind === 'numbering' && sse ? numberer() : undefined);
    }
    // crossing: the first big_result call waits for a second; each then gets the other's upstream answer.
    const own = forward(upstream, req, body, abort.signal);
    if (held === undefined) {
      let deliver: (u: Upstream) => void = () => undefined;
      const partner = new Promise<Upstream>((resolve) => (deliver = resolve));
      const mine: Held = { answer: own, deliver };
      held = mine;
      const timer = setTimeout(() => {
        if (held === mine) held = undefined;
        void own.then(deliver);
      }, PAIR_WAIT_MS);
      const crossed = await partner;
      clearTimeout(timer);
      return relay(res, trace, crossed);
    }
    const first = held;
    held = undefined;
    first.deliver(await own);
    return relay(res, trace, await first.answer);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  const sockets = trackSockets(server);
  const bound = await listen(server, port);
  base = `http://127.0.0.1:${bound}`;
  return { url: `${base}/mcp`, recorder, close: () => closeServer(server, sockets) };
}
