// Runs anywhere (pure core): rule protocol-version-mismatch.
import { at, describeId } from '../facts';
import { versionProblem } from '../mirrored-headers';
import { statelessPosts } from '../stateless';
import type { Report, Rule } from '../types';

export const protocolVersionMismatch: Rule = {
  id: 'protocol-version-mismatch',
  severity: 'error',
  title: 'MCP-Protocol-Version header disagrees with the body',
  summary:
    'In protocol 2026-07-28 every POST carries the MCP-Protocol-Version header and every request the same version in _meta; here one is missing or they differ, and servers must reject it.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const { conn, message } of statelessPosts(model)) {
      if (message.kind !== 'request' && message.kind !== 'notification') continue;
      const what = `${message.method ?? 'message'}${message.id === undefined ? '' : ` (id ${describeId(message.id)})`} on ${conn.id}`;
      const problem = versionProblem(conn, message)?.text;
      if (problem !== undefined)
        reports.push({ message: `${what} ${problem}.`, ...at(conn, { time: conn.record.startTime }) });
    }
    return reports;
  },
};
