// Node (unit tests only): a loopback HTTP server and a tap installed on a private fetch, to test the tap in Node.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultArm } from '../protocol/break';
import type { TapToBridge } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { TapBreaker } from './break/breaker';
import { TapChannel } from './channel';
import { tapFetch } from './fetch-tap';
import { captureNatives } from './natives';
import { BRIDGE_SOURCE, TAP_PORT_EVENT } from './wire';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  url: string;
  /** Requests whose connection the client closed before the response ended. */
  closedEarly: string[];
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Handler>): Promise<TestServer> {
  const closedEarly: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.on('close', () => {
      if (!res.writableFinished) closedEarly.push(path);
    });
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    closedEarly,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TappedFetch {
  fetch: typeof fetch;
  /** Every delta the tap sent over its port. */
  deltas: ConnectionDelta[];
  /**
   * Waits until every connection the tap started has ended and the tap has sent that: no timer of its own. While a
   * record is still open (or its end still queued in the tap), waits for the tap's next batch and looks again.
   */
  settle(): Promise<void>;
  /** Closes the bridge's end of the tap's port (a Node MessagePort keeps the process alive). */
  close(): void;
  /** Body bytes recorded for a connection, joined. */
  bodyOf(id: string): string;
  /** Plays the bridge relaying the Break menu: arms (or disarms) the tap's faults over its port. */
  setBreak(arm: FaultArm | null): Promise<void>;
  /** The tap's breaker, to see whether it is armed. */
  breaker: TapBreaker;
}

/** `upstream` replaces the network (the native fetch the tap wraps), for exact control of chunking. */
export function installTap(options: { revealSecrets?: boolean; upstream?: typeof fetch } = {}): TappedFetch {
  const natives = { ...captureNatives(globalThis), ...(options.upstream ? { fetch: options.upstream } : {}) };
  const bus = new EventTarget();
  const deltas: ConnectionDelta[] = [];
  let nextBatch: (() => void)[] = [];
  let port: MessagePort | undefined;
  // Plays the bridge: takes the tap's port, answers with the settings, collects every batch.
  bus.addEventListener(TAP_PORT_EVENT, (event) => {
    if (port || !(event instanceof MessageEvent) || !event.ports[0]) return;
    port = event.ports[0];
    port.onmessage = (message: MessageEvent<TapToBridge>) => {
      deltas.push(...message.data.deltas);
      const waiting = nextBatch;
      nextBatch = [];
      waiting.forEach((wake) => wake());
    };
    port.postMessage({ source: BRIDGE_SOURCE, revealSecrets: options.revealSecrets ?? false });
  });
  let counter = 0;
  /** Every record the tap opened (it asked for an id) has its end among what arrived. */
  const allEnded = (): boolean => {
    const ended = new Set(deltas.flatMap((d) => (d.kind === 'end' ? [d.id] : [])));
    for (let i = 1; i <= counter; i++) if (!ended.has(`c${i}`)) return false;
    return true;
  };
  const settle = async (): Promise<void> => {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (allEnded()) return;
      await new Promise<void>((resolve) => nextBatch.push(resolve));
    }
  };
  const channel = new TapChannel(natives, bus, 'test');
  const breaker = new TapBreaker(natives, channel, globalThis);
  channel.onBreak = (arm) => breaker.set(arm);
  channel.open();
  const target = { fetch: natives.fetch };
  tapFetch(target, {
    natives,
    disguise: () => undefined,
    sink: channel,
    nextId: () => `c${++counter}`,
    baseUrl: () => 'http://127.0.0.1/',
    documentUrl: () => 'http://127.0.0.1/page',
    breaker,
  });
  // The tapped fetch is called as `tap.fetch(...)`, so `this` is the object it was installed on, as `window` in a page.
  const rest: Omit<TappedFetch, 'fetch'> = {
    deltas,
    settle,
    close: () => port?.close(),
    breaker,
    setBreak: async (arm) => {
      port?.postMessage({ source: BRIDGE_SOURCE, revealSecrets: options.revealSecrets ?? false, break: arm });
      // The tap takes it in a task of its own, as from the bridge.
      while (breaker.armed !== (arm !== null)) await new Promise<void>((resolve) => setImmediate(resolve));
    },
    bodyOf: (id) =>
      deltas
        .filter((d): d is Extract<ConnectionDelta, { kind: 'chunk' }> => d.kind === 'chunk' && d.id === id)
        .map((d) => Buffer.from(d.bytes).toString('utf8'))
        .join(''),
  };
  return Object.assign(target, rest);
}

/** Writes `parts` with a pause between them, then ends (or, with `cut`, destroys the socket mid-stream). */
export function streamParts(
  parts: string[],
  options: { gapMs?: number; cut?: boolean; contentType?: string } = {},
): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': options.contentType ?? 'text/event-stream', 'cache-control': 'no-store' });
    let i = 0;
    const next = (): void => {
      if (res.destroyed) return;
      const part = parts[i++];
      if (part === undefined) {
        if (options.cut) res.destroy();
        else res.end();
        return;
      }
      res.write(part);
      setTimeout(next, options.gapMs ?? 15);
    };
    next();
  };
}

/** A fetch that answers every request with these exact body chunks, as an event stream. */
export function chunkedUpstream(chunks: string[]): typeof fetch {
  return async () => {
    const queue = chunks.map((c) => new TextEncoder().encode(c));
    const body = new ReadableStream<Uint8Array>({
      type: 'bytes',
      pull(controller) {
        const next = queue.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}
