// Runs in Node (lab server and proxy): small helpers over node:http shared by both.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The JSON-RPC error body the SDK transport sends with HTTP errors. */
export function jsonRpcError(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** Listens on 127.0.0.1 (never another interface) and resolves the bound port. */
export function listenOnLoopback(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Keeps the open sockets of a server so close() can end long-lived streams at once. */
export function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

/** Stops accepting, destroys every open socket, and resolves when the server has closed. */
export function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
  });
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** How long a cut response stays open after its last write before its socket ends. */
const CUT_SETTLE_MS = 150;

/**
 * Cuts a streaming response as a dropped connection looks to the client: the socket ends (FIN) after what was
 * written, without the terminating chunk. A RST (`res.destroy()`) or an immediate end lets Chromium drop bytes
 * it had received but the page had not read yet, so the page would see a different cut than the one sent
 * (measured through the lab proxy: 8 of 18 runs lost bytes without the pause, 0 of 18 with it).
 */
export function cutResponse(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) {
    res.destroy();
    return;
  }
  setTimeout(() => socket.end(), CUT_SETTLE_MS);
  setTimeout(() => socket.destroy(), CUT_SETTLE_MS + 2000).unref();
}
