// Runs in Node (node:http, Express, Fastify's raw objects; typed structurally, so no Node types are needed): the
// pre-check a Node server runs before the SDK transport's handleRequest.
import { REFUSAL_HEADERS, refusalBody, RESUME_REFUSED_STATUS } from './refusal';
import type { GuardedEventStore } from './types';
import { resumeCursor } from './web';

/** What the pre-check reads of a Node request (`http.IncomingMessage` fits). */
export interface NodeRequestLike {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** What the pre-check writes to a Node response (`http.ServerResponse` fits). */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}

const utf8 = new TextEncoder();
const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Writes the refusal for a resume the store cannot continue exactly and resolves true; resolves false (nothing
 * written) otherwise: hand the request to the transport then. Same rules as `refuseStaleResume`.
 *
 * ```ts
 * if (await refuseStaleResumeNode(req, res, store, sessionId)) return;
 * await transport.handleRequest(req, res, body);
 * ```
 */
export async function refuseStaleResumeNode(
  req: NodeRequestLike,
  res: NodeResponseLike,
  store: GuardedEventStore,
  sessionId?: string,
): Promise<boolean> {
  const cursor = resumeCursor(req.method, first(req.headers['last-event-id']));
  const session = sessionId ?? first(req.headers['mcp-session-id']);
  if (cursor === undefined || !session) return false;
  const refused = await store.checkResume(cursor, session);
  if (!refused) return false;
  const body = JSON.stringify(refusalBody(refused));
  res.writeHead(RESUME_REFUSED_STATUS, { ...REFUSAL_HEADERS, 'content-length': String(utf8.encode(body).length) });
  res.end(body);
  return true;
}
