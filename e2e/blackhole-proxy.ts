// Node (tests, lab): a loopback HTTP proxy that refuses everything and records what was tried. Every browser the
// project starts points at it, so nothing can reach the internet and every attempt is visible.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxyAttempt {
  /** ms since the proxy started. */
  at: number;
  method: string;
  /** host[:port] the browser wanted. */
  host: string;
  /** Full URL for plain-HTTP requests; absent for CONNECT (TLS tunnels show only the host). */
  url?: string;
}

export interface BlackholeProxy {
  port: number;
  /** For --proxy-server. */
  url: string;
  readonly attempts: readonly ProxyAttempt[];
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? host;
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(hostName(host).toLowerCase());
}

function targetOf(req: IncomingMessage): { host: string; url?: string } {
  const raw = req.url ?? '';
  try {
    const url = new URL(raw);
    return { host: url.host, url: raw };
  } catch {
    return { host: req.headers.host ?? raw };
  }
}

export async function startBlackholeProxy(): Promise<BlackholeProxy> {
  const started = Date.now();
  const attempts: ProxyAttempt[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    attempts.push({ at: Date.now() - started, method: req.method ?? '?', ...targetOf(req) });
    res
      .writeHead(403, { connection: 'close', 'content-type': 'text/plain' })
      .end('blocked by the test black-hole proxy');
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    attempts.push({ at: Date.now() - started, method: 'CONNECT', host: req.url ?? '?' });
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
