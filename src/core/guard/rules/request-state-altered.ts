// Runs anywhere (pure core): rule request-state-altered.
import { idKey } from '../../mcp/jsonrpc';
import type { JsonRpcMessage } from '../../mcp/types';
import type { ConnectionView } from '../../model/types';
import { at, describeId } from '../facts';
import { bodyMessage, deliveredOn, paramsOf, resultOf, statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

/** The body field that names what a multi-round-trip request is about (the only methods that may ask for input). */
const SUBJECT: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

const subjectOf = (message: JsonRpcMessage): unknown =>
  message.method === undefined ? undefined : paramsOf(message)?.[SUBJECT[message.method] ?? ''];

/** A later request of the same method and subject that answers the round (carries inputResponses or requestState). */
function retryOf(
  original: JsonRpcMessage,
  later: readonly ConnectionView[],
): [ConnectionView, JsonRpcMessage] | undefined {
  for (const conn of later) {
    const message = bodyMessage(conn);
    if (message?.kind !== 'request' || message.method !== original.method) continue;
    if (subjectOf(message) !== subjectOf(original)) continue;
    const params = paramsOf(message) ?? {};
    if ('inputResponses' in params || 'requestState' in params) return [conn, message];
  }
  return undefined;
}

/** What the retry got wrong, if anything. */
function problemsOf(original: JsonRpcMessage, state: unknown, retry: JsonRpcMessage): string[] {
  const problems: string[] = [];
  const echoed = paramsOf(retry)?.['requestState'];
  if (state === undefined && echoed !== undefined) problems.push('adds a requestState the server never sent');
  else if (state !== undefined && echoed === undefined) problems.push('drops the requestState');
  else if (state !== echoed)
    problems.push(`changes the requestState (${JSON.stringify(state)} -> ${JSON.stringify(echoed)})`);
  if (retry.id !== undefined && original.id !== undefined && idKey(retry.id) === idKey(original.id))
    problems.push('reuses the request id');
  return problems;
}

export const requestStateAltered: Rule = {
  id: 'request-state-altered',
  severity: 'error',
  title: 'Multi-round-trip retry altered its requestState or reused its id',
  summary:
    'In protocol 2026-07-28 a request answered input_required is retried as a new request (new id) echoing the requestState byte for byte; this retry did not.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const [index, conn] of session.connections.entries()) {
        const original = bodyMessage(conn);
        if (original?.kind !== 'request' || original.id === undefined) continue;
        const id = original.id;
        const round = deliveredOn(model, conn).find(
          ({ message }) =>
            message.kind === 'response' && message.id === id && resultOf(message)?.['resultType'] === 'input_required',
        );
        if (!round) continue;
        const retry = retryOf(original, session.connections.slice(index + 1));
        if (!retry) continue; // "Servers MUST NOT assume that clients will ... retry the original request."
        const problems = problemsOf(original, resultOf(round.message)?.['requestState'], retry[1]);
        if (problems.length === 0) continue;
        reports.push({
          message: `The retry on ${retry[0].id} of ${original.method ?? 'request'} (id ${describeId(id)}, answered input_required on ${conn.id}) ${problems.join(' and ')}.`,
          ...at(retry[0], { time: retry[0].record.startTime }),
        });
      }
    }
    return reports;
  },
};
