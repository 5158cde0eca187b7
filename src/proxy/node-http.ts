// Runs in Node (the fault proxy, and the lab's servers): small helpers over node:http.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HttpHeader } from '../core/capture/model';
import type { AddressInfo, Socket } from 'node:net';

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Listens on `host` (127.0.0.1 unless told otherwise) and resolves the bound port. */
export function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
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
export const CUT_SETTLE_MS = 150;

/**
 * Cuts a streaming response as a dropped connection looks to the client: the socket ends (FIN) after what was
 * written, without the terminating chunk. A RST (`res.destroy()`) or an immediate end lets Chromium drop bytes
 * it had received but the page had not read yet, so the page would see a different cut than the one sent
 * (measured through the lab proxy: 8 of 18 runs lost bytes without the pause, 0 of 18 with it).
 */
export function cutResponse(res: ServerResponse, onEnded?: () => void): void {
  const socket = res.socket;
  if (!socket) {
    res.destroy();
    onEnded?.();
    return;
  }
  setTimeout(() => {
    // The moment the client's stream ends, for recorders: the response's 'close' comes only once the client has
    // closed its side too, which a loaded machine can delay past the client's own reconnect.
    onEnded?.();
    socket.end();
  }, CUT_SETTLE_MS);
  setTimeout(() => socket.destroy(), CUT_SETTLE_MS + 2000).unref();
}

/** A request's raw header list (`req.rawHeaders`) as name/value pairs, names as the client spelled them. */
export function headerPairs(raw: string[]): HttpHeader[] {
  const out: HttpHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i] as string, value: raw[i + 1] as string });
  return out;
}
