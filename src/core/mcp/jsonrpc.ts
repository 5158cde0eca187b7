// Runs anywhere (pure core): JSON-RPC 2.0 classification of MCP messages (single or 2025-03-26 batches).
import type { JsonRpcEnvelope, JsonRpcId, JsonRpcMessage } from './types';

/** A failure says why, and whether the text was JSON at all (`json`: valid JSON that is not JSON-RPC). */
export type ParsedMessages = { ok: true; messages: JsonRpcMessage[] } | { ok: false; error: string; json: boolean };

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The envelope a message object's members make, or undefined when they make no JSON-RPC 2.0 message: the one
 * decision, for parsed values (classifyMessage) and for scanned text (envelope-scan.ts).
 * @param jsonrpc whether `jsonrpc` is "2.0"; `id`, `method`: the members' values (undefined when absent); whether
 * `result` and `error` are present.
 */
export function envelopeOfMembers(
  jsonrpc: boolean,
  id: unknown,
  method: unknown,
  hasResult: boolean,
  hasError: boolean,
): JsonRpcEnvelope | undefined {
  if (!jsonrpc) return undefined;
  if (typeof method === 'string') {
    if (id === undefined) return { kind: 'notification', method };
    return isId(id) ? { kind: 'request', id, method } : undefined;
  }
  // An error the server could not tie to a request (a parse error) carries id null, or none.
  if ((id === null || id === undefined) && hasError) return { kind: 'error' };
  if (!isId(id)) return undefined;
  if (hasError) return { kind: 'error', id };
  if (hasResult) return { kind: 'response', id };
  return undefined;
}

/** Classifies one parsed value; undefined when it is not a JSON-RPC 2.0 message. */
export function classifyMessage(value: unknown): JsonRpcMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const envelope = envelopeOfMembers(
    record['jsonrpc'] === '2.0',
    record['id'],
    record['method'],
    'result' in record,
    'error' in record,
  );
  return envelope && { ...envelope, value };
}

/** Parses text holding one JSON-RPC message or a batch; explains precisely why when it does not. */
export function parseMessages(text: string): ParsedMessages {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `not complete JSON (${reason})`, json: false };
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return { ok: false, error: 'an empty JSON-RPC batch', json: true };
  const messages: JsonRpcMessage[] = [];
  for (const [index, item] of items.entries()) {
    const message = classifyMessage(item);
    if (!message) {
      const where = Array.isArray(value) ? ` (batch item ${index})` : '';
      return { ok: false, error: `valid JSON but not a JSON-RPC 2.0 message${where}`, json: true };
    }
    messages.push(message);
  }
  return { ok: true, messages };
}

/** A stable map key for a JSON-RPC id (1 and "1" are different ids). */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** The envelope of a classified message: what rules and lists read, without its params or result. */
export function envelopeOf(message: JsonRpcMessage): JsonRpcEnvelope {
  const envelope: JsonRpcEnvelope = { kind: message.kind };
  if (message.id !== undefined) envelope.id = message.id;
  if (message.method !== undefined) envelope.method = message.method;
  if (message.method === 'notifications/cancelled') {
    const requestId = (message.value as { params?: { requestId?: unknown } }).params?.requestId;
    if (isId(requestId)) envelope.cancels = requestId;
  }
  return envelope;
}
