// Runs in Node (lab proxy): the lab in front of its origin on 127.0.0.1. MCP paths go through the product's own
// fault proxy (src/proxy/forward.ts: chunk by chunk, no buffering, the scenario's faults from src/core/fault), every
// other path serves the demo page, and /__lab/ answers the control calls.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { forwardExchange } from '../../../src/proxy/forward';
import { closeServer, listen, readBody, trackSockets } from '../../../src/proxy/node-http';
import type { ExchangeRecorder } from '../../../src/proxy/trace';
import type { Backend } from '../server/backend';
import { LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH } from '../server/legacy-sse';
import { MCP_PATH } from '../server/instance';
import { sendJson } from '../node-http';
import { findScenario, type LabIdScheme, type Scenario, type ScenarioName, scenarios } from '../scenarios';

/** The origin ids a run may ask for instead of its scenario's (`POST /__lab/scenario` `idScheme`). */
const ID_SCHEMES: readonly LabIdScheme[] = ['sdk-stream', 'integer', 'epoch-seq'];
import { FaultRun, type LabLogEntry, type LogDetail } from './fault-run';
import { faults } from './faults/index';
import { answerChat } from './chat-completions';
import { serveStatic } from './static-files';

export const CONTROL_PREFIX = '/__lab/';
/** The fake LLM completion stream an AI chat page reads beside its MCP session. */
export const CHAT_PATH = '/v1/chat/completions';
const PROXIED = new Set([MCP_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]);
export interface ProxyOptions {
  port?: number;
  backend: Backend;
  /** The built demo page (dist/lab). */
  staticDir: string;
  scenario: ScenarioName;
  /** Records every proxied exchange as the client received it (the fixture recorder). */
  recorder?: ExchangeRecorder;
}

export interface LabProxy {
  readonly url: string;
  readonly scenario: Scenario;
  setScenario(name: string): Promise<Scenario>;
  log(): LabLogEntry[];
  close(): Promise<void>;
}

function parseJson(body: Buffer): unknown {
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
    const port = await listen(this.http, this.options.port ?? 0);
    this.url = `http://127.0.0.1:${port}`;
  }

  /** `idScheme` replaces the scenario's origin ids for this run (the demo page's Break playground). */
  async setScenario(name: string, idScheme?: LabIdScheme): Promise<Scenario> {
    const named = this.scenarioNamed(name);
    const scenario = idScheme ? { ...named, origin: { ...named.origin, idScheme } } : named;
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
    if (PROXIED.has(url.pathname)) return this.forward(req, res);
    if (url.pathname === CHAT_PATH && req.method === 'POST') return answerChat(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: 'method not allowed' });
      return;
    }
    return serveStatic(this.options.staticDir, url.pathname, res);
  }

  private async control(req: IncomingMessage, res: ServerResponse, what: string): Promise<void> {
    if (what === 'scenario' && req.method === 'POST') {
      const body = parseJson(await readBody(req)) as { name?: unknown; idScheme?: unknown } | undefined;
      const name = typeof body?.name === 'string' ? body.name : '';
      if (!findScenario(name)) {
        sendJson(res, 400, { error: `unknown scenario "${name}"` });
        return;
      }
      const idScheme = body?.idScheme;
      if (idScheme !== undefined && !ID_SCHEMES.includes(idScheme as LabIdScheme)) {
        sendJson(res, 400, { error: `unknown idScheme ${JSON.stringify(idScheme)}; known: ${ID_SCHEMES.join(', ')}` });
        return;
      }
      const scenario = await this.setScenario(name, idScheme as LabIdScheme | undefined);
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

  /** The product's forwarding, with this scenario's faults; the origin is whichever instance is live then. */
  private forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const run = this.run;
    return forwardExchange(req, res, {
      upstream: () => this.options.backend.current.url,
      plan: (exchange) => run.plan(exchange),
      ...(this.options.recorder && { trace: this.options.recorder.begin(req, this.url) }),
    });
  }
}

export async function startProxy(options: ProxyOptions): Promise<LabProxy> {
  const proxy = new FaultProxy(options);
  await proxy.listen();
  return proxy;
}
