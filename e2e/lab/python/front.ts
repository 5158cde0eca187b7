// Runs in Node (the lab, browser tests): the Python SDK server (mcp 2.3.0) behind one loopback origin that also
// serves the v2 demo page, so the page's real TS SDK v2 client talks to its own origin (the Python server sends no
// CORS headers). `/mcp` is piped to the Python server byte for byte as it streams; POST /__lab/tools-changed has a
// Node client call the server's `touch_tools`, which publishes tools/list_changed to the page's listen stream.
import { createServer, request } from 'node:http';
import { closeServer, listen, trackSockets } from '../../../src/proxy/node-http';
import { serveStatic } from '../proxy/static-files';
import { startPythonServer } from './peers';
import { touchTools } from './runs';

export interface PythonFront {
  /** The page's origin, `http://127.0.0.1:<port>/`. */
  pageUrl: string;
  close(): Promise<void>;
}

export async function startPythonFront(python: string, pageDir: string): Promise<PythonFront> {
  const upstream = await startPythonServer(python);
  const target = new URL(upstream.url);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'POST' && path === '/__lab/tools-changed') {
      touchTools(upstream.url).then(
        () => res.writeHead(204).end(),
        (error: unknown) => res.writeHead(502).end(String(error)),
      );
      return;
    }
    if (path !== '/mcp') return void serveStatic(pageDir, path, res);
    const headers = { ...req.headers, host: target.host };
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // Each upstream chunk goes out as it came: the SSE stream stays a stream.
        answer.on('data', (chunk: Buffer) => res.write(chunk));
        answer.on('end', () => res.end());
        answer.on('error', () => res.destroy());
      },
    );
    forward.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // The page aborting its request aborts the upstream one, as a direct connection would.
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  const sockets = trackSockets(server);
  const port = await listen(server);
  return {
    pageUrl: `http://127.0.0.1:${port}/`,
    close: async () => {
      await closeServer(server, sockets);
      await upstream.close();
    },
  };
}
