// Runs anywhere (pure core): what the replay answers when the live client diverged and no recorded exchange fits
// (docs/replay.md). Why these answers: each ends the client's wait at once and names the replay as its author, so
// nothing it says can pass for the recorded server's silence or for a lost session.
// - A request: 400 with a JSON-RPC error. Not 404 (a 2025 client would take its session for gone and the rules
//   would judge a re-initialization), not an empty or silent stream (the client would hang or resume in a loop:
//   request-hang, reconnect-storm, findings the recorded server never caused).
// - A resume from a cursor the recording never resumed from: when the recorded stream holds events after that
//   cursor, they are sent, as an event store would replay them (so a fault the replay itself overlays can be resumed);
//   otherwise 400, because what the server would have said was never recorded.
// - A GET stream or DELETE never recorded: 405, the spec's answer of a server that offers no such stream.
// - A notification or an answer to a server request never recorded: 202, as any server accepts them.
// - A session id never issued: 404, what a server says of a session it does not know.
import type { HttpHeader } from '../capture/model';
import type { DivergenceKind } from './divergence';
import type { RequestShape } from './request-shape';
import type { RecordedExchange, ReplayScript } from './script';

/** The header the replay sets on the answers it makes itself (the recording of a replay says which they are). */
export const REPLAY_HEADER = 'x-mcp-stream-inspector-replay';

export interface Refusal {
  status: number;
  headers: HttpHeader[];
  body: string;
  /** A 202: the request was taken, not refused. */
  accepted: boolean;
  /** What the replay answered, in words. */
  words: string;
}

export function refusal(shape: RequestShape, kind: DivergenceKind): Refusal {
  const marked = { name: REPLAY_HEADER, value: kind };
  if (kind === 'unrecorded-notification')
    return {
      status: 202,
      headers: [marked],
      body: '',
      accepted: true,
      words: 'accepted (202), nothing recorded to play',
    };
  if (kind === 'unrecorded-stream')
    return {
      status: 405,
      headers: [marked, { name: 'allow', value: 'POST' }],
      body: '',
      accepted: false,
      words: 'refused 405: the recorded client never opened it',
    };
  const status = kind === 'unknown-session' ? 404 : 400;
  const why =
    kind === 'unknown-session'
      ? `the recording never issued session ${shape.session ?? ''}`
      : `the recording holds no answer for this ${shape.kind} (${kind})`;
  const message = `mcp-stream-inspector replay: ${why}`;
  const id = shape.kind === 'request' ? (shape.rpc?.id ?? null) : null;
  return {
    status,
    headers: [marked, { name: 'content-type', value: 'application/json' }],
    body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } }),
    accepted: false,
    words: `refused ${status}: ${why}`,
  };
}

export interface Continuation {
  exchange: RecordedExchange;
  offset: { at: number; hasMore: boolean };
  /** The recorded client resumed that stream too, from another cursor. */
  resumedElsewhere: boolean;
}

/**
 * Where a resume from `shape.lastEventId` continues in the recording: the first recorded stream of the session that
 * delivered that event id whole, after that event. Undefined when no recorded stream delivered it.
 */
export function continuation(script: ReplayScript, shape: RequestShape): Continuation | undefined {
  const cursor = shape.lastEventId;
  if (cursor === undefined) return undefined;
  for (const exchange of script.exchanges) {
    if (!exchange.eventStream || (shape.session !== undefined && exchange.conversation !== shape.session)) continue;
    const frame = exchange.sites.frames.find((f) => f.id === cursor);
    if (!frame) continue;
    const resumedElsewhere = script.exchanges.some(
      (e) => e.shape.kind === 'resume' && e.order > exchange.order && e.conversation === exchange.conversation,
    );
    return { exchange, offset: { at: frame.end, hasMore: frame.end < exchange.body.length }, resumedElsewhere };
  }
  return undefined;
}
