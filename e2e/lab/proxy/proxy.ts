// Runs in Node (lab proxy): the fault-injecting reverse proxy on 127.0.0.1. Forwards MCP paths to
// the live origin instance chunk by chunk (no buffering), lets the current fault cut or rewrite
// SSE responses, serves the demo page for every other path, and answers /__lab/ control calls.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Backend } from '../server/backend';
import { LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH } from '../server/legacy-sse';
import { MCP_PATH } from '../server/instance';
import {
  closeServer,
  cutResponse,
  headerValue,
  listenOnLoopback,
  readBody,
  sendJson,
  trackSockets,
} from '../node-http';
import { findScenario, type Scenario, type ScenarioName, scenarios } from '../scenarios';
import { type Exchange, type ExchangePlan, FaultRun, type LabLogEntry, type LogDetail } from './fault-run';
import { faults } from './faults/index';
import { SseTap } from './sse-tap';
import { serveStatic } from './static-files';
import type { ExchangeTrace, WireRecorder } from './wire-recorder';

export const CONTROL_PREFIX = '/__lab/';
const PROXIED = new Set([MCP_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]);
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

export interface ProxyOptions {
  port?: number;
  backend: Backend;
  /** The built demo page (dist/lab). */
  staticDir: string;
  scenario: ScenarioName;
  /** Records every proxied exchange as the client received it (the fixture recorder). */
  recorder?: WireRecorder;
}

export interface LabProxy {
  readonly url: string;
  readonly scenario: Scenario;
  setScenario(name: string): Promise<Scenario>;
  log(): LabLogEntry[];
  close(): Promise<void>;
}

function forwardableHeaders(headers: IncomingHttpHeaders, drop: string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || drop.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** sendJson, telling the trace what was sent. */
function respond(
  res: ServerResponse,
  trace: ExchangeTrace | undefined,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (trace) {
    const text = JSON.stringify(body);
    trace.head(status, STATUS_CODES[status] ?? '', {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    trace.write(Buffer.from(text));
  }
  sendJson(res, status, body, headers);
}

function parseRpc(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

class FaultProxy implements LabProxy {
  url = '';
  private current: Scenario;
  private run: FaultRun;
  private entries: LabLogEntry[] = [];
  private readonly http = createServer((req, res) => {
    this.route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  private readonly sockets = trackSockets(this.http);

  constructor(private readonly options: ProxyOptions) {
    this.current = this.scenarioNamed(options.scenario);
    this.run = this.newRun(this.current);
  }

  get scenario(): Scenario {
    return this.current;
  }

  async listen(): Promise<void> {
    const port = await listenOnLoopback(this.http, this.options.port ?? 0);
    this.url = `http://127.0.0.1:${port}`;
  }

  async setScenario(name: string): Promise<Scenario> {
    const scenario = this.scenarioNamed(name);
    this.entries = [];
    this.current = scenario;
    const origin = await this.options.backend.reset(scenario.origin);
    this.run = this.newRun(scenario);
    this.addLog('scenario', {
      name: scenario.name,
      origin: origin.name,
      epoch: origin.epoch,
      idScheme: scenario.origin.idScheme,
    });
    return scenario;
  }

  log(): LabLogEntry[] {
    return this.entries.map((entry) => ({ ...entry, detail: { ...entry.detail } }));
  }

  close(): Promise<void> {
    return closeServer(this.http, this.sockets);
  }

  private scenarioNamed(name: string): Scenario {
    const scenario = findScenario(name);
    if (!scenario) throw new Error(`unknown scenario "${name}"; known: ${scenarios.map((s) => s.name).join(', ')}`);
    return scenario;
  }

  private newRun(scenario: Scenario): FaultRun {
    return new FaultRun(faults[scenario.name], this.options.backend, (action, detail) => this.addLog(action, detail));
  }

  private addLog(action: string, detail: LogDetail): void {
    this.entries.push({ t: new Date().toISOString(), scenario: this.current.name, action, detail });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith(CONTROL_PREFIX))
      return this.control(req, res, url.pathname.slice(CONTROL_PREFIX.length));
    if (PROXIED.has(url.pathname)) return this.forward(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: 'method not allowed' });
      return;
    }
    return serveStatic(this.options.staticDir, url.pathname, res);
  }

  private async control(req: IncomingMessage, res: ServerResponse, what: string): Promise<void> {
    if (what === 'scenario' && req.method === 'POST') {
      const body = parseRpc(await readBody(req)) as { name?: unknown } | undefined;
      const name = typeof body?.name === 'string' ? body.name : '';
      if (!findScenario(name)) {
        sendJson(res, 400, { error: `unknown scenario "${name}"` });
        return;
      }
      const scenario = await this.setScenario(name);
      sendJson(res, 200, {
        name: scenario.name,
        origin: this.options.backend.current.name,
        epoch: this.options.backend.current.epoch,
      });
      return;
    }
    if (what === 'scenario' && req.method === 'GET') return sendJson(res, 200, { name: this.current.name });
    if (what === 'log' && req.method === 'GET')
      return sendJson(res, 200, { scenario: this.current.name, entries: this.log() });
    if (what === 'scenarios' && req.method === 'GET') return sendJson(res, 200, scenarios);
    sendJson(res, 404, { error: `no control endpoint ${req.method} ${CONTROL_PREFIX}${what}` });
  }

  private async forward(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const trace = this.options.recorder?.begin(req, this.url);
    if (trace) {
      res.once('finish', () => trace.end('complete'));
      res.once('close', () => trace.end(res.writableFinished ? 'complete' : 'aborted'));
    }
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    trace?.requestBody(body);
    const run = this.run;
    await run.settled();
    const exchange: Exchange = {
      method: req.method ?? 'GET',
      path: url.pathname,
      sessionId: headerValue(req, 'mcp-session-id'),
      lastEventId: headerValue(req, 'last-event-id'),
      rpc: url.pathname === MCP_PATH ? parseRpc(body) : undefined,
    };
    const plan = run.plan(exchange);
    if (plan.kind === 'respond') {
      respond(res, trace, plan.status, plan.body, plan.headers);
      return;
    }
    this.sendUpstream(req, res, body, plan, trace);
  }

  private sendUpstream(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
    plan: Extract<ExchangePlan, { kind: 'forward' }>,
    trace: ExchangeTrace | undefined,
  ): void {
    const target = new URL(req.url ?? '/', this.options.backend.current.url);
    const headers = forwardableHeaders(req.headers, ['content-length']);
    if (body) headers['content-length'] = String(body.length);
    const upstream = request(target, { method: req.method, headers, agent: false });
    let cut = false;
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('error', () => {
      // A client that went away made us drop the origin side: nobody is left to answer.
      if (cut || res.destroyed) return;
      if (!res.headersSent) {
        respond(res, trace, 502, { error: 'origin unavailable' });
        return;
      }
      trace?.end('failed', 'the origin connection failed');
      res.destroy();
    });
    upstream.on('response', (origin) => {
      const sse = (origin.headers['content-type'] ?? '').includes('text/event-stream');
      const tap = sse && plan.tap ? new SseTap(plan.tap) : undefined;
      const status = origin.statusCode ?? 502;
      const headers = forwardableHeaders(origin.headers, tap ? ['content-length'] : []);
      res.writeHead(status, headers);
      trace?.head(status, STATUS_CODES[status] ?? '', headers);
      res.flushHeaders();
      origin.on('data', (chunk: Buffer) => {
        if (cut) return;
        let flowing = true;
        for (const op of tap ? tap.push(chunk) : [{ op: 'write' as const, bytes: chunk }]) {
          if (op.op === 'write') {
            flowing = res.write(op.bytes) && flowing;
            trace?.write(op.bytes);
            continue;
          }
          cut = true;
          trace?.cut();
          this.cutConnection(res, upstream);
          plan.onCut?.(op.info);
          return;
        }
        if (!flowing) {
          origin.pause();
          res.once('drain', () => origin.resume());
        }
      });
      origin.on('end', () => {
        if (!cut) res.end();
      });
      origin.on('error', () => {
        if (cut) return;
        trace?.end('failed', 'the origin stream failed');
        res.destroy();
      });
    });
    upstream.end(body);
  }

  /** Ends the client connection after what was written, without the terminating chunk, and drops the origin side. */
  private cutConnection(res: ServerResponse, upstream: ReturnType<typeof request>): void {
    upstream.destroy();
    cutResponse(res);
  }
}

export async function startProxy(options: ProxyOptions): Promise<LabProxy> {
  const proxy = new FaultProxy(options);
  await proxy.listen();
  return proxy;
}
