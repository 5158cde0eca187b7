// Runs anywhere (pure core): rule protocol-version-mismatch.
import { metaProtocolVersion, PROTOCOL_VERSION_META } from '../../mcp/era';
import { headerValue } from '../../mcp/headers';
import { at, describeId } from '../facts';
import { bodyMessage, statelessSessions } from '../stateless';
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
    for (const session of statelessSessions(model)) {
      for (const conn of session.connections) {
        const message = bodyMessage(conn);
        if (!message || (message.kind !== 'request' && message.kind !== 'notification')) continue;
        const header = headerValue(conn.record.requestHeaders, 'mcp-protocol-version');
        const meta = metaProtocolVersion(message);
        const what = `${message.method ?? 'message'}${message.id === undefined ? '' : ` (id ${describeId(message.id)})`} on ${conn.id}`;
        let problem: string | undefined;
        if (header === undefined) problem = `has no MCP-Protocol-Version header (its _meta says ${meta ?? 'nothing'})`;
        else if (meta === undefined && message.kind === 'request')
          problem = `sends MCP-Protocol-Version ${header} but its _meta has no ${PROTOCOL_VERSION_META}`;
        else if (meta !== undefined && meta !== header)
          problem = `sends MCP-Protocol-Version ${header} but its _meta says ${meta}`;
        if (problem !== undefined)
          reports.push({ message: `${what} ${problem}.`, ...at(conn, { time: conn.record.startTime }) });
      }
    }
    return reports;
  },
};
