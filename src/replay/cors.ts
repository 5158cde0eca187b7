// Runs in Node (the replay server, when serving a page of another origin, as the Playwright fixture does): the
// replay answers CORS itself. A recording never holds the browser's preflights (fetch() does not see them), and the
// recorded Access-Control-* headers name the page origin of the recording, not the page under test.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpHeader } from '../core/capture/model';
import { headerValue } from '../proxy/node-http';

/** Answers a preflight (true: done, nothing to plan or record); otherwise allows the request's origin on `res`. */
export function answerCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = headerValue(req, 'origin');
  if (origin === undefined) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'origin');
  if (req.method !== 'OPTIONS' || headerValue(req, 'access-control-request-method') === undefined) {
    // The client reads Mcp-Session-Id and the like: every header of the answer is exposed (no credentials are sent).
    res.setHeader('access-control-expose-headers', '*');
    return false;
  }
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': headerValue(req, 'access-control-request-headers') ?? '*',
    'access-control-max-age': '600',
  });
  res.end();
  return true;
}

/** The recorded headers without the recorded CORS answer, which the replay gives itself. */
export function withoutCors(headers: HttpHeader[]): HttpHeader[] {
  return headers.filter((h) => !h.name.toLowerCase().startsWith('access-control-'));
}
