// Runs in Node (the fault proxy): one exchange through the proxy. Forwards the request upstream and the response
// back chunk by chunk as it arrives (never buffered unless the `buffer` fault says so), passing event-stream bodies
// through the planned faults (response-writer.ts times them), and tells the recorder what the client received. Used by `mcp-stream-inspector proxy` and by the fault lab.
import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse, STATUS_CODES } from 'node:http';
import { request as requestTls } from 'node:https';
import type { FaultStream } from '../core/fault/fault-stream';
import type { Exchange, ExchangePlan } from '../core/fault/planner';
import { cutResponse, headerValue, readBody } from './node-http';
import { ResponseWriter } from './response-writer';
import type { ExchangeTrace } from './trace';

/** The one header the proxy adds, on the answers it makes itself (a fault that answered a resume). */
export const FAULT_HEADER = 'x-mcp-stream-inspector-fault';
/** How often a `resume-silent` answer sends its keep-alive comment. */
const KEEP_ALIVE_MS = 10_000;
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

export interface ForwardOptions {
  /** The upstream origin (`http://host:port`) at the time the request is sent; the request keeps its path. */
  upstream(): string;
  /** What to do with this exchange (may wait, e.g. for the lab's restart after a cut). */
  plan(exchange: Exchange): ExchangePlan | Promise<ExchangePlan>;
  trace?: ExchangeTrace;
}

export async function forwardExchange(
  req: IncomingMessage,
  res: ServerResponse,
  options: ForwardOptions,
): Promise<void> {
  const { trace } = options;
  if (trace) {
    res.once('finish', () => trace.end('complete'));
    res.once('close', () => trace.end(res.writableFinished ? 'complete' : 'aborted'));
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
  trace?.requestBody(body);
  const plan = await options.plan(exchangeOf(req, body));
  if (plan.kind !== 'forward') return answerForFault(res, trace, plan);
  if (plan.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  if (res.destroyed) {
    plan.stream?.finish('abandoned');
    return;
  }
  const sent = plan.rewrite?.body === undefined ? body : Buffer.from(plan.rewrite.body);
  if (plan.rewrite) trace?.rewritten?.(plan.rewrite.headers, sent);
  sendUpstream(req, res, sent, options, plan.stream, plan.rewrite?.headers);
}

/** A fault that answers the request itself (`respond`, `silent`): the proxy and the replay answer alike. */
export function answerForFault(
  res: ServerResponse,
  trace: ExchangeTrace | undefined,
  plan: Exclude<ExchangePlan, { kind: 'forward' }>,
): void {
  if (plan.kind === 'silent') return answerSilently(res, trace, plan.fault);
  const headers = { 'content-type': 'application/json', [FAULT_HEADER]: plan.fault, ...plan.headers };
  writeHead(res, trace, plan.status, { ...headers, 'content-length': String(Buffer.byteLength(plan.body)) });
  const bytes = Buffer.from(plan.body);
  trace?.write(bytes);
  res.end(bytes);
}

/** What a fault planner reads of a request: method, session, cursor, JSON-RPC body, path. */
export function exchangeOf(req: IncomingMessage, body: Buffer | undefined): Exchange {
  return {
    method: req.method ?? 'GET',
    ...optional('sessionId', headerValue(req, 'mcp-session-id')),
    ...optional('lastEventId', headerValue(req, 'last-event-id')),
    ...optional('rpc', parseJson(body)),
    ...optional('url', req.url),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}

function parseJson(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined; // not JSON-RPC: forwarded as it is, never struck
  }
}

function forwardableHeaders(headers: IncomingHttpHeaders, drop: string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || drop.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

export function writeHead(
  res: ServerResponse,
  trace: ExchangeTrace | undefined,
  status: number,
  headers: Record<string, string | string[]>,
  flush = true,
): void {
  res.writeHead(status, headers);
  trace?.head(status, STATUS_CODES[status] ?? '', headers);
  // Unflushed, Node sends the head with the first body write: one write, as a server that wrote both at once.
  if (flush) res.flushHeaders();
}

/** `resume-silent`: 200, an event stream, keep-alive comments only, until the client goes. */
function answerSilently(res: ServerResponse, trace: ExchangeTrace | undefined, fault: string): void {
  writeHead(res, trace, 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    [FAULT_HEADER]: fault,
  });
  const ping = (): void => {
    trace?.write(KEEP_ALIVE);
    res.write(KEEP_ALIVE);
  };
  ping();
  const timer = setInterval(ping, KEEP_ALIVE_MS);
  res.once('close', () => clearInterval(timer));
}

/** An event stream the faults can read: SSE with no content encoding. */
function isPlainEventStream(headers: IncomingHttpHeaders): boolean {
  const encoding = headers['content-encoding'];
  const type = headers['content-type'] ?? '';
  return type.includes('text/event-stream') && (encoding === undefined || encoding === 'identity');
}

function sendUpstream(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | undefined,
  options: ForwardOptions,
  stream: FaultStream | undefined,
  /** A request fault's headers (lower-case names), in place of the client's of the same name. */
  replaced: Record<string, string> = {},
): void {
  const { trace } = options;
  const target = new URL(req.url ?? '/', options.upstream());
  const headers = { ...forwardableHeaders(req.headers, ['content-length']), ...replaced };
  if (body) headers['content-length'] = String(body.length);
  const send = target.protocol === 'https:' ? requestTls : request;
  const upstream = send(target, { method: req.method, headers, agent: false });
  let cut = false;
  res.on('close', () => {
    stream?.finish('abandoned');
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.on('error', (error) => {
    // A client that went away made us drop the upstream side: nobody is left to answer.
    if (cut || res.destroyed) return;
    if (!res.headersSent) {
      const text = JSON.stringify({ error: `upstream unavailable: ${error.message}` });
      writeHead(res, trace, 502, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      trace?.write(Buffer.from(text));
      res.end(text);
      return;
    }
    trace?.end('failed', 'the upstream connection failed');
    res.destroy();
  });
  upstream.on('response', (origin) => {
    const faulted = stream && isPlainEventStream(origin.headers) ? stream : undefined;
    if (stream && !faulted) stream.finish();
    const status = origin.statusCode ?? 502;
    const headers = forwardableHeaders(origin.headers, faulted ? ['content-length'] : []);
    const writer = new ResponseWriter(res, origin, faulted, {
      writeHead: () => writeHead(res, trace, status, headers),
      write: (bytes) => {
        trace?.write(bytes);
        return res.write(bytes);
      },
      cut: () => {
        cut = true;
        trace?.cut();
        upstream.destroy();
        cutResponse(res, () => trace?.end('aborted'));
      },
    });
    writer.start();
    origin.on('data', (chunk: Buffer) => {
      if (!cut) writer.push(faulted ? faulted.push(chunk) : [{ op: 'write', bytes: chunk }]);
    });
    origin.on('end', () => {
      if (!cut) writer.end();
    });
    origin.on('error', () => {
      if (cut) return;
      trace?.end('failed', 'the upstream stream failed');
      res.destroy();
    });
  });
  upstream.end(body);
}
