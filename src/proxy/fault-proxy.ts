// Runs in Node (`mcp-stream-inspector proxy`): a reverse proxy in front of one upstream MCP server. Every path goes
// to the upstream origin with the same path and query (Streamable HTTP and the 2024-11-05 HTTP+SSE endpoints
// alike); the faults strike as the planner says; the recorder hears every exchange.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Fault } from '../core/fault/fault';
import { type FaultReport, FaultPlanner } from '../core/fault/planner';
import { forwardExchange } from './forward';
import { closeServer, listen, trackSockets } from './node-http';
import type { ExchangeRecorder } from './trace';

export interface FaultProxyOptions {
  /** The upstream MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  upstream: URL;
  host: string;
  /** 0 picks a free port. */
  port: number;
  faults: readonly Fault[];
  onReport(report: FaultReport): void;
  recorder?: ExchangeRecorder;
}

export interface FaultProxy {
  /** The proxy's address for the upstream's endpoint: same path, this host and port. */
  readonly url: string;
  /** Stops accepting and ends every open exchange. */
  close(): Promise<void>;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const planner = new FaultPlanner(options.faults, {
    report: options.onReport,
    newEpoch: () => randomBytes(3).toString('hex'),
  });
  let base = '';
  const server = createServer((req, res) => {
    forwardExchange(req, res, {
      upstream: () => options.upstream.origin,
      plan: (exchange) => planner.plan(exchange),
      ...(options.recorder && { trace: options.recorder.begin(req, base) }),
    }).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`fault proxy: ${String(error)}`);
    });
  });
  const sockets = trackSockets(server);
  const port = await listen(server, options.port, options.host);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  base = `http://${host}:${port}`;
  const { pathname, search } = options.upstream;
  return { url: `${base}${pathname}${search}`, close: () => closeServer(server, sockets) };
}
