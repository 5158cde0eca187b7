// Runs anywhere (pure core): rule response-id-mismatch.
import { idKey } from '../../mcp/jsonrpc';
import { at, describeId } from '../facts';
import { deliveredOn, statelessRequests } from '../stateless';
import type { Report, Rule } from '../types';

export const responseIdMismatch: Rule = {
  id: 'response-id-mismatch',
  severity: 'error',
  title: 'Response id differs from the request it answers',
  summary:
    "In protocol 2026-07-28 each POST's response (JSON or SSE stream) belongs to that one request: a response carrying another id answers nothing the client is waiting for on it.",
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const { conn, message: request } of statelessRequests(model)) {
      const expected = idKey(request.id);
      // An error the server could not tie to a request (a parse error) carries no id: not a mismatch.
      const other = deliveredOn(model, conn).find(
        ({ message }) =>
          (message.kind === 'response' || message.kind === 'error') &&
          message.id !== undefined &&
          idKey(message.id) !== expected,
      );
      if (!other || other.message.id === undefined) continue;
      const where = other.event ? 'on its SSE stream' : 'in its JSON body';
      reports.push({
        message: `${request.method ?? 'request'} (id ${describeId(request.id)}) on ${conn.id} got a ${other.message.kind === 'error' ? 'error' : 'response'} for id ${describeId(other.message.id)} ${where}.`,
        ...at(conn, other.event ? { byteOffset: other.event.start, time: other.event.time } : {}),
      });
    }
    return reports;
  },
};
