// Runs in any server runtime (WHATWG Response only): a refused resume as the client sees it, one status and one
// JSON-RPC error body for every reason. Touches no Node API (the node:http writer is in node.ts).
import type { Refusal, RefusalReason } from './types';

/**
 * The HTTP status of a refused resume: 400, the status the SDK itself gives when a store refuses a cursor, so a
 * server answers the same with or without the pre-check. Not 404 (the spec's "session gone": the session may be
 * fine), not 409 (the SDK's "stream already connected", which a retry mends). docs/event-store.md says why.
 */
export const RESUME_REFUSED_STATUS = 400;

/**
 * The JSON-RPC error code of a refused resume (`error.code`), in the implementation-defined server range and
 * used by neither SDK (they use -32000, -32001, -32002, -32020 to -32022, -32042). `error.data.reason` says why.
 */
export const RESUMPTION_REJECTED_CODE = -32011;

/** The JSON-RPC error response a refusal is sent as (`id: null`, like the SDK's own HTTP errors). */
export interface RefusalBody {
  jsonrpc: '2.0';
  id: null;
  error: {
    code: typeof RESUMPTION_REJECTED_CODE;
    message: string;
    data: { reason: RefusalReason; cursor: string; serverEpoch: string };
  };
}

/** What the client must do next, per reason: the message says it so a log line is enough to act on. */
const NEXT: Record<RefusalReason, string> = {
  'foreign-epoch': 'issued before a server restart or by another server; re-initialize the session',
  evicted: 'no longer retained, so the events after it are lost; fail the requests pending on that stream',
  'other-session': "another session's event; resume only your own stream, or re-initialize",
  malformed: 'not an event id of this server; re-initialize the session',
  unknown: 'never issued by this server; re-initialize the session',
};

/** A refusal with its one-sentence message. */
export function refusal(reason: RefusalReason, cursor: string, epoch: string): Refusal {
  return { reason, cursor, epoch, message: `Resume refused (${reason}): Last-Event-ID ${cursor} was ${NEXT[reason]}.` };
}

/** The JSON-RPC error body of a refusal. */
export function refusalBody(refused: Refusal): RefusalBody {
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: RESUMPTION_REJECTED_CODE,
      message: refused.message,
      data: { reason: refused.reason, cursor: refused.cursor, serverEpoch: refused.epoch },
    },
  };
}

/**
 * The response headers of a refusal. `no-store`: a 400 to a GET is not heuristically cacheable, but an intermediary
 * that cached it anyway would refuse every later GET of the endpoint, whatever its cursor.
 */
export const REFUSAL_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
};

/** The refusal as a WHATWG Response (web-standard servers: the SDK's WebStandardStreamableHTTPServerTransport). */
export function refusalResponse(refused: Refusal): Response {
  return new Response(JSON.stringify(refusalBody(refused)), {
    status: RESUME_REFUSED_STATUS,
    headers: REFUSAL_HEADERS,
  });
}

/**
 * What `replayEventsAfter` rejects with when a cursor cannot be continued exactly: the SDK turns it into a 500, never
 * a 200 that replays the wrong events or nothing. Carries the refusal for the app's `onerror` log.
 */
export class ResumeRefusedError extends Error {
  override readonly name = 'ResumeRefusedError';

  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}
