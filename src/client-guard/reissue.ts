// Runs anywhere (browsers, Node, Workers): the 2026-07-28 re-issue. With no resumption in that era, a response
// stream broken before its answer loses the request; the guard asks again, once, with a new JSON-RPC id, and hands
// the answer on under the id the client is waiting for. Touches no DOM and no Node API.
import type { JsonRpcId } from '../core/mcp/types';
import type { BodyHooks } from './guarded-body';
import { keyOf, type StreamState } from './ledger';
import type { OutgoingRequest } from './request';

/** Which requests to re-issue: all (`true`, the default), none, or as a function says (false: not idempotent). */
export type ReissuePolicy = boolean | ((request: { method: string; id: JsonRpcId; params: unknown }) => boolean);

const encoder = new TextEncoder();

/** The request's one JSON-RPC request, when the body holds exactly one. */
function singleRequest(
  request: OutgoingRequest,
): { method: string; id: JsonRpcId; value: Record<string, unknown> } | undefined {
  const [message, ...rest] = request.messages;
  if (rest.length > 0 || message?.kind !== 'request' || message.id === undefined || message.method === undefined)
    return undefined;
  return { method: message.method, id: message.id, value: message.value as Record<string, unknown> };
}

export function wantsReissue(policy: ReissuePolicy | undefined, request: OutgoingRequest): boolean {
  const single = singleRequest(request);
  if (!single || policy === false) return false;
  if (policy === undefined || policy === true) return true;
  return policy({ method: single.method, id: single.id, params: single.value['params'] });
}

/** The re-issued body, and the hooks that hand its answer on under the original id; undefined when not possible. */
export function reissueHooks(
  request: OutgoingRequest,
  stream: StreamState,
  report: (finding: { rule: string; action: 'reissued'; message: string }) => void,
): { body: string; hooks: (base: BodyHooks) => BodyHooks } | undefined {
  const single = singleRequest(request);
  if (!single || !stream.pending.has(keyOf(single.id))) return undefined;
  const newId = `mcp-guard-reissue-${String(single.id)}`;
  report({
    rule: 'stateless-request-not-reissued',
    action: 'reissued',
    message: `the stream of ${single.method} (id ${JSON.stringify(single.id)}) broke before its answer; re-issued as id "${newId}"`,
  });
  const body = JSON.stringify({ ...single.value, id: newId });
  const hooks = (base: BodyHooks): BodyHooks => ({
    ...base,
    judge(event) {
      const restored = event.data.includes(newId) ? withOriginalId(event.data, newId, single.id) : undefined;
      if (restored === undefined) return base.judge(event);
      const verdict = base.judge({ ...event, data: restored });
      if (verdict !== 'keep') return verdict;
      const type = event.type === 'message' ? '' : `event: ${event.type}\n`;
      return { replace: encoder.encode(`${type}data: ${restored}\n\n`) };
    },
  });
  return { body, hooks };
}

/** The event's JSON-RPC answer to `newId`, re-addressed to `original`; undefined when it is not that answer. */
function withOriginalId(data: string, newId: string, original: JsonRpcId): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined; // not JSON: not the answer, handed on as it came
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  if (message['id'] !== newId || !('result' in message || 'error' in message)) return undefined;
  return JSON.stringify({ ...message, id: original });
}
