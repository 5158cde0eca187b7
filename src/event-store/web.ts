// Runs in any server runtime with WHATWG Request/Response (Node 18+, Deno, Bun, Workers): the pre-check a
// web-standard server runs before the SDK transport. Touches no Node API.
import { refusalResponse } from './refusal';
import type { GuardedEventStore } from './types';

/** The cursor of a resume: a GET's non-empty `Last-Event-ID` (the SDK ignores the header on other methods). */
export function resumeCursor(method: string | undefined, lastEventId: string | null | undefined): string | undefined {
  return method === 'GET' && lastEventId ? lastEventId : undefined;
}

/**
 * The refusal response for a resume the store cannot continue exactly, or undefined: hand the request to the
 * transport then. Run it after the app found the session's transport (an unknown session is the SDK's 404, which
 * tells a client to re-initialize). `sessionId` defaults to the request's `Mcp-Session-Id`; without either, there
 * is nothing to check (a session-less request is the SDK's to refuse).
 *
 * ```ts
 * const refused = await refuseStaleResume(request, store);
 * return refused ?? transport.handleRequest(request);
 * ```
 */
export async function refuseStaleResume(
  req: Request,
  store: GuardedEventStore,
  sessionId?: string,
): Promise<Response | undefined> {
  const cursor = resumeCursor(req.method, req.headers.get('last-event-id'));
  const session = sessionId ?? req.headers.get('mcp-session-id');
  if (cursor === undefined || !session) return undefined;
  const refused = await store.checkResume(cursor, session);
  return refused && refusalResponse(refused);
}
