// Runs anywhere (pure core): rule stateless-request-not-reissued.
import { idKey } from '../../mcp/jsonrpc';
import type { JsonRpcMessage } from '../../mcp/types';
import { at, describeId, factsOf } from '../facts';
import type { Report, Rule } from '../types';

/** Params compared without `_meta`: the SDK gives a re-issued request a new progress token. */
function paramsOf(message: JsonRpcMessage): string {
  const params = (message.value as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return JSON.stringify(params ?? null);
  const { _meta: _ignored, ...rest } = params as Record<string, unknown>;
  return JSON.stringify(rest);
}

export const statelessRequestNotReissued: Rule = {
  id: 'stateless-request-not-reissued',
  severity: 'error',
  title: 'Broken request not re-issued',
  summary:
    'In protocol 2026-07-28 a broken response stream loses its request: the client must send it again with a new request id. This one was never re-issued (or reused its id).',
  eras: ['2026-07-28'],
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      for (const [index, conn] of session.connections.entries()) {
        // In 2026-07-28 closing a response stream is how a client cancels: only a network failure breaks one.
        const broken =
          conn.isSse &&
          (conn.record.end === 'network-error' || (conn.tail !== undefined && conn.record.end === 'complete'));
        if (!broken) continue;
        const until = conn.record.endTime ?? conn.record.startTime;
        for (const request of conn.requestMessages) {
          if (request.kind !== 'request' || request.id === undefined) continue;
          if ((session.answeredAt.get(idKey(request.id)) ?? Number.POSITIVE_INFINITY) <= until) continue;
          const later = session.connections.slice(index + 1).flatMap((c) => c.requestMessages);
          const again = later.filter(
            (m) => m.kind === 'request' && m.method === request.method && paramsOf(m) === paramsOf(request),
          );
          if (again.some((m) => m.id !== undefined && idKey(m.id) !== idKey(request.id as string | number))) continue;
          reports.push({
            message:
              again.length > 0
                ? `${request.method ?? 'request'} (id ${describeId(request.id)}) lost on ${conn.id} was re-issued with the SAME id; 2026-07-28 requires a new id.`
                : `${request.method ?? 'request'} (id ${describeId(request.id)}) lost on ${conn.id} was never re-issued.`,
            ...at(conn, { time: until }),
          });
        }
      }
    }
    return reports;
  },
};
