// Runs anywhere (pure core): rule version-fallback.
import { RESUMABLE_ERAS, STATELESS_ERA } from '../../mcp/era';
import type { ConnectionView } from '../../model/types';
import { at, factsOf } from '../facts';
import type { Report, Rule } from '../types';

/** What the server answered a probe: its status, and the JSON-RPC error's message when it gave one. */
function answerOf(conn: ConnectionView): string {
  const status = conn.record.status;
  const error = conn.responseMessages.find((m) => m.kind === 'error');
  const text = (error?.value as { error?: { message?: unknown } } | undefined)?.error?.message;
  const said = typeof text === 'string' ? ` ${JSON.stringify(text)}` : '';
  return `${status === undefined ? 'no response' : String(status)}${said}`;
}

function what(conn: ConnectionView): string {
  const method = conn.requestMessages.find((m) => m.method !== undefined)?.method;
  return `${method ?? `${conn.record.method} without a session`} on ${conn.id}`;
}

export const versionFallback: Rule = {
  id: 'version-fallback',
  severity: 'info',
  title: 'Version probe, then a fallback',
  summary:
    'The client probed the 2026-07-28 protocol (server/discover) before initializing, the server answered with an error, and the client fell back to an older handshake: the probe is part of this session.',
  // The handshakes a client falls back to; a 2026-07-28 session has no fallback to report.
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      const probes = session.connections.filter((c) => c.probe);
      const modern = probes.find((c) => c.requestEra === STATELESS_ERA);
      const init = session.connections.find((c) =>
        c.requestMessages.some((m) => m.kind === 'request' && m.method === 'initialize'),
      );
      if (!modern || !init) continue;
      const others = probes.filter((c) => c !== modern);
      const also =
        others.length > 0 ? `; before it also ${others.map((c) => `${what(c)} (${answerOf(c)})`).join(', ')}` : '';
      reports.push({
        message: `the client probed ${STATELESS_ERA} (${what(modern)}, answered ${answerOf(modern)}) and fell back to initialize ${session.session.era} on ${init.id}${also}.`,
        ...at(modern),
      });
    }
    return reports;
  },
};
