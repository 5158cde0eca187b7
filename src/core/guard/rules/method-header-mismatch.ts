// Runs anywhere (pure core): rule method-header-mismatch.
import { at, describeId } from '../facts';
import { methodProblems } from '../mirrored-headers';
import { statelessRequests } from '../stateless';
import type { Report, Rule } from '../types';

export const methodHeaderMismatch: Rule = {
  id: 'method-header-mismatch',
  severity: 'error',
  title: 'Mcp-Method or Mcp-Name header missing or different from the body',
  summary:
    'In protocol 2026-07-28 every request mirrors its method into Mcp-Method, and tools/call, prompts/get and resources/read their name or uri into Mcp-Name (Base64 sentinel for unsafe values); here one is missing or differs.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    // Header requirements for notification POSTs "are not defined by this revision": requests only.
    for (const { conn, message } of statelessRequests(model)) {
      const problems = methodProblems(conn, message);
      if (problems.length === 0) continue;
      reports.push({
        message: `${message.method ?? 'request'} (id ${describeId(message.id)}) on ${conn.id} ${problems.map((p) => p.text).join(' and ')}.`,
        ...at(conn, { time: conn.record.startTime }),
      });
    }
    return reports;
  },
};
