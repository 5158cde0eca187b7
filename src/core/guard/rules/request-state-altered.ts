// Runs anywhere (pure core): rule request-state-altered.
import { idKey } from '../../mcp/jsonrpc';
import type { JsonRpcMessage } from '../../mcp/types';
import { at, describeId, factsOf } from '../facts';
import { bodyMessage, deliveredOn, paramsOf, resultOf, statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

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
    const { connection } = factsOf(model);
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      // The model links each retry to its round ("Servers MUST NOT assume that clients will ... retry": none is fine).
      for (const conn of session.connections) {
        const first = conn.retryOf === undefined ? undefined : connection.get(conn.retryOf);
        const original = first && bodyMessage(first);
        const retry = bodyMessage(conn);
        if (!first || original?.id === undefined || !retry) continue;
        const id = original.id;
        const round = deliveredOn(model, first).find(({ message }) => message.kind === 'response' && message.id === id);
        const problems = problemsOf(original, round && resultOf(round.message)?.['requestState'], retry);
        if (problems.length === 0) continue;
        reports.push({
          message: `The retry on ${conn.id} of ${original.method ?? 'request'} (id ${describeId(id)}, answered input_required on ${first.id}) ${problems.join(' and ')}.`,
          ...at(conn, { time: conn.record.startTime }),
        });
      }
    }
    return reports;
  },
};
