// Runs anywhere (pure core): rule method-header-mismatch.
import { decodeMirroredValue, headerValue } from '../../mcp/headers';
import type { JsonRpcMessage } from '../../mcp/types';
import { at, describeId } from '../facts';
import { bodyMessage, paramsOf, statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

/** The requests whose `Mcp-Name` header is required, and the body field it mirrors. */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** What is wrong with a request's Mcp-Method and Mcp-Name headers, if anything. */
export function headerProblems(message: JsonRpcMessage, method?: string, name?: string): string[] {
  const problems: string[] = [];
  if (method === undefined) problems.push('has no Mcp-Method header');
  else if (method !== message.method) problems.push(`sends Mcp-Method ${JSON.stringify(method)}`);
  const field = message.method === undefined ? undefined : NAMED[message.method];
  if (field === undefined) return problems;
  const body = paramsOf(message)?.[field];
  if (typeof body !== 'string') return problems;
  if (name === undefined) return [...problems, `has no Mcp-Name header (params.${field} is ${JSON.stringify(body)})`];
  const decoded = decodeMirroredValue(name);
  if (!decoded.ok) problems.push(`sends an Mcp-Name whose Base64 sentinel does not decode (${JSON.stringify(name)})`);
  else if (decoded.text !== body) {
    const shown = decoded.encoded
      ? `${JSON.stringify(name)} (decoded ${JSON.stringify(decoded.text)})`
      : JSON.stringify(name);
    problems.push(`sends Mcp-Name ${shown} for params.${field} ${JSON.stringify(body)}`);
  }
  return problems;
}

export const methodHeaderMismatch: Rule = {
  id: 'method-header-mismatch',
  severity: 'error',
  title: 'Mcp-Method or Mcp-Name header missing or different from the body',
  summary:
    'In protocol 2026-07-28 every request mirrors its method into Mcp-Method, and tools/call, prompts/get and resources/read their name or uri into Mcp-Name (Base64 sentinel for unsafe values); here one is missing or differs.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const conn of session.connections) {
        const message = bodyMessage(conn);
        // Header requirements for notification POSTs "are not defined by this revision".
        if (message?.kind !== 'request' || message.id === undefined) continue;
        const headers = conn.record.requestHeaders;
        const problems = headerProblems(message, headerValue(headers, 'mcp-method'), headerValue(headers, 'mcp-name'));
        if (problems.length === 0) continue;
        reports.push({
          message: `${message.method ?? 'request'} (id ${describeId(message.id)}) on ${conn.id} ${problems.join(' and ')}.`,
          ...at(conn, { time: conn.record.startTime }),
        });
      }
    }
    return reports;
  },
};
