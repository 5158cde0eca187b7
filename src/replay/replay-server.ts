// Runs in Node (`mcp-stream-inspector replay`, and the library for test fixtures and benches): a recorded MCP
// server served again on 127.0.0.1. Each live request is matched and planned by the core (core/replay/), played by
// player.ts, optionally struck by the fault proxy's faults (core/fault/ planner, the proxy's writer) and recorded by
// the proxy's recorder; divergences from the recorded client are reported as they happen.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Capture, HttpHeader } from '../core/capture/model';
import type { Fault } from '../core/fault/fault';
import { type ExchangePlan, type FaultReport, FaultPlanner } from '../core/fault/planner';
import { type Divergence, ReplayPlanner } from '../core/replay/planner';
import { answerForFault, exchangeOf, writeHead } from '../proxy/forward';
import { closeServer, headerPairs, listen, readBody, trackSockets } from '../proxy/node-http';
import type { ExchangeRecorder, ExchangeTrace } from '../proxy/trace';
import { Arrivals } from './arrivals';
import { answerCors, withoutCors } from './cors';
import { play } from './player';

/** What {@link startReplay} serves, and how. */
export interface ReplayOptions {
  /** The recording to serve (loadInput() reads capture files and HARs into one). */
  capture: Capture;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Recorded times are divided by it: 1 (default) as recorded, 2 twice as fast, 0 as fast as possible. */
  speed?: number;
  /** The fault proxy's faults, struck on the replayed responses as the proxy strikes them. */
  faults?: readonly Fault[];
  /** Hears every exchange as the live client received it (the proxy's CaptureRecorder writes a capture). */
  recorder?: ExchangeRecorder;
  /** Each divergence of the live client from the recorded one, as it happens. */
  onDivergence?(divergence: Divergence): void;
  /** Each fault as it strikes. */
  onFault?(report: FaultReport): void;
  /**
   * Serve pages of any origin (default false): the replay answers preflights and allows the request's Origin itself,
   * in place of the recorded Access-Control-* headers. For a page under test whose origin is not the replay's.
   */
  cors?: boolean;
}

/** A running replay: its address, what the live client did differently, and how to stop it. */
export interface ReplayServer {
  /** Where to point the client: this server's origin with the path of the first recorded request. */
  readonly url: string;
  readonly origin: string;
  /** Every divergence so far, in order. */
  divergences(): readonly Divergence[];
  /** The recorded exchanges whose body the input lacked (DevTools HARs drop cut streams' bodies), in words. */
  missingBodies(): string[];
  /** Stops accepting and ends every open connection. */
  close(): Promise<void>;
}

/**
 * Serves `options.capture` again to any client until close().
 * @example const replay = await startReplay({ capture: loadInput(bytes, 'bug.har'), speed: 0 });
 */
export async function startReplay(options: ReplayOptions): Promise<ReplayServer> {
  const host = options.host ?? '127.0.0.1';
  const speed = options.speed ?? 1;
  if (!(speed >= 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be 0 or more, got ${speed}`);
  const scale = speed === 0 ? 0 : 1 / speed;
  const arrivals = new Arrivals();
  let planner: ReplayPlanner | undefined;
  const faults =
    options.faults && options.faults.length > 0
      ? new FaultPlanner(options.faults, {
          report: (report) => options.onFault?.(report),
          newEpoch: () => randomBytes(3).toString('hex'),
        })
      : undefined;
  let origin = '';
  const server = createServer((req, res) => {
    if (!planner) throw new Error('replay: a request before the server listened');
    if (options.cors && answerCors(req, res)) return;
    const replay = planner;
    const trace = options.recorder?.begin(req, origin);
    const cors = options.cors === true;
    serve(req, res, { replay, faults, arrivals, scale, trace, cors, onDivergence: options.onDivergence }).catch(
      (error: unknown) => {
        if (res.headersSent) res.destroy();
        else res.writeHead(500, { 'content-type': 'text/plain' }).end(`replay: ${String(error)}`);
      },
    );
  });
  const sockets = trackSockets(server);
  const port = await listen(server, options.port ?? 0, host);
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  planner = new ReplayPlanner(options.capture, { origin });
  const first = planner.script.exchanges[0]?.shape.path ?? '/';
  return {
    url: `${origin}${first.split('?')[0] ?? '/'}`,
    origin,
    divergences: () => planner?.divergences ?? [],
    missingBodies: () =>
      (planner?.script.missingBodies ?? []).map((e) => `${e.id} ${e.shape.httpMethod} ${e.shape.path} (${e.end})`),
    close: () => closeServer(server, sockets),
  };
}

interface ServeContext {
  replay: ReplayPlanner;
  faults: FaultPlanner | undefined;
  arrivals: Arrivals;
  scale: number;
  trace: ExchangeTrace | undefined;
  cors: boolean;
  onDivergence: ((divergence: Divergence) => void) | undefined;
}

async function serve(req: IncomingMessage, res: ServerResponse, context: ServeContext): Promise<void> {
  const { trace } = context;
  if (trace) {
    res.once('finish', () => trace.end('complete'));
    res.once('close', () => trace.end(res.writableFinished ? 'complete' : 'aborted'));
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
  trace?.requestBody(body);
  const plan: ExchangePlan = context.faults?.plan(exchangeOf(req, body)) ?? { kind: 'forward', delayMs: 0 };
  if (plan.kind !== 'forward') return answerForFault(res, trace, plan);
  if (plan.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  // A request fault changes what "the server" got: the replay matches what it would have seen.
  const sent = plan.rewrite?.body === undefined ? body : Buffer.from(plan.rewrite.body);
  if (plan.rewrite) trace?.rewritten?.(plan.rewrite.headers, sent);
  const headers = withReplaced(headerPairs(req.rawHeaders), plan.rewrite?.headers ?? {});
  const planned = context.replay.answer({
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers,
    ...(sent && sent.length > 0 && { body: sent.toString('utf8') }),
  });
  const answer = context.cors ? { ...planned, headers: withoutCors(planned.headers) } : planned;
  if (answer.divergence) context.onDivergence?.(answer.divergence);
  if (answer.kind === 'refuse') {
    plan.stream?.finish();
    const head = Object.fromEntries(answer.headers.map((h) => [h.name, h.value]));
    writeHead(res, trace, answer.status, { ...head, 'content-length': String(Buffer.byteLength(answer.body)) });
    const bytes = Buffer.from(answer.body);
    if (bytes.length > 0) trace?.write(bytes);
    res.end(bytes);
    return;
  }
  context.arrivals.arrived(answer.exchangeId);
  await play(res, answer, { scale: context.scale, arrivals: context.arrivals, trace, stream: plan.stream });
}

function withReplaced(headers: HttpHeader[], replaced: Record<string, string>): HttpHeader[] {
  const names = new Set(Object.keys(replaced));
  return [
    ...headers.filter((h) => !names.has(h.name.toLowerCase())),
    ...Object.entries(replaced).map(([name, value]) => ({ name, value })),
  ];
}
