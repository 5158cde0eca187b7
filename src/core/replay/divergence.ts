// Runs anywhere (pure core): where the live client did something the recorded one did not, and what the replay
// answered then (docs/replay.md, "When the client diverges"). Not a guard rule: the guard judges a server and a
// client; a divergence compares two clients, so it is reported beside the findings, never among them.
import type { RequestShape } from './request-shape';

/**
 * - `unrecorded-request`: a request (method) the recording never answered, or one more than it answered.
 * - `reissued-request`: a request the client sent again (same method and params) after the recording's was used.
 * - `other-params`: a request matched by its method, in order, though its params differ from the recorded one's.
 * - `other-cursor`: a resume from a cursor (Last-Event-ID) that no recorded resume used, where the recorded client
 *   resumed the same stream from another one.
 * - `resumed-where-recorded-gave-up`: a resume of a stream the recorded client never resumed (from that point).
 * - `unknown-session`: an Mcp-Session-Id the recording never issued.
 * - `unrecorded-notification`: a notification, or an answer to a server request, the recording does not hold.
 * - `unrecorded-stream`: a GET stream (or DELETE) the recorded client never opened.
 */
export type DivergenceKind =
  | 'unrecorded-request'
  | 'reissued-request'
  | 'other-params'
  | 'other-cursor'
  | 'resumed-where-recorded-gave-up'
  | 'unknown-session'
  | 'unrecorded-notification'
  | 'unrecorded-stream';

/** What the replay did about a divergence. */
export type DivergenceAnswer = 'played' | 'continued' | 'refused' | 'accepted';

/** One place where the live client did what the recorded one did not, and what the replay answered. */
export interface Divergence {
  kind: DivergenceKind;
  /** The live request, as `POST /mcp tools/call #3` or `GET /mcp Last-Event-ID 5`. */
  request: string;
  /** One sentence: what differs, and what the replay answered. */
  message: string;
  answer: DivergenceAnswer;
  /** The recorded exchange played for it, if one was. */
  exchangeId?: string;
  /** The HTTP status the replay answered with. */
  status?: number;
}

/** `POST /mcp tools/call #3`: the live request in a few words. */
export function describeRequest(shape: RequestShape): string {
  const parts = [shape.httpMethod, shape.path];
  if (shape.rpc?.method !== undefined) parts.push(shape.rpc.method);
  else if (shape.kind === 'answer') parts.push('answer');
  if (shape.rpc?.id !== undefined) parts.push(`#${JSON.stringify(shape.rpc.id)}`);
  if (shape.lastEventId !== undefined) parts.push(`Last-Event-ID ${shape.lastEventId}`);
  return parts.join(' ');
}
