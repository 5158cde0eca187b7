// Runs anywhere (pure core): 2026-07-28 multi round-trip requests as one logical request. A server that needs
// input answers `input_required`; the client retries the request (a new id) carrying `inputResponses` or
// `requestState`. Each retry is linked to the round it answers.
import type { JsonRpcMessage } from '../mcp/types';
import type { ParsedConnection } from './connection';
import { answerTo, paramsField, resultField } from './sessions';

/** The methods that may answer input_required, and the params field naming what they are about. */
const SUBJECT: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

function roundOf(conn: ParsedConnection): JsonRpcMessage | undefined {
  const [message] = conn.requestMessages;
  if (conn.requestMessages.length !== 1 || message?.kind !== 'request' || message.method === undefined)
    return undefined;
  return SUBJECT[message.method] === undefined ? undefined : message;
}

const subjectOf = (message: JsonRpcMessage): unknown => paramsField(message.value, SUBJECT[message.method ?? ''] ?? '');

function isRetry(message: JsonRpcMessage): boolean {
  return (
    paramsField(message.value, 'inputResponses') !== undefined ||
    paramsField(message.value, 'requestState') !== undefined
  );
}

/**
 * For each connection (in time order) that retries a round, the index of the connection whose request was answered
 * input_required and that it retries: the latest earlier one of the same method and subject not retried yet.
 */
export function retriedRounds(connections: readonly ParsedConnection[]): Map<number, number> {
  const links = new Map<number, number>();
  const open: { index: number; message: JsonRpcMessage }[] = [];
  for (const [index, conn] of connections.entries()) {
    const message = roundOf(conn);
    if (!message) continue;
    if (isRetry(message)) {
      const at = open.findLastIndex(
        (r) => r.message.method === message.method && subjectOf(r.message) === subjectOf(message),
      );
      if (at >= 0) {
        links.set(index, (open[at] as (typeof open)[number]).index);
        open.splice(at, 1);
      }
    }
    if (resultField(answerTo(conn, message)?.value, 'resultType') === 'input_required') open.push({ index, message });
  }
  return links;
}
