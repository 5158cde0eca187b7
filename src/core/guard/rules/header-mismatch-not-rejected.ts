// Runs anywhere (pure core): rule header-mismatch-not-rejected.
import { at, describeId } from '../facts';
import { methodProblems, versionProblem } from '../mirrored-headers';
import { deliveredOn, statelessRequests } from '../stateless';
import type { Report, Rule } from '../types';

/** The JSON-RPC error code 2026-07-28 assigns to a header that is missing or disagrees with the body. */
const HEADER_MISMATCH = -32020;

export const headerMismatchNotRejected: Rule = {
  id: 'header-mismatch-not-rejected',
  severity: 'error',
  title: 'Header mismatch not answered with 400 and -32020',
  summary:
    'In protocol 2026-07-28 a server must reject a request whose MCP headers are missing or disagree with its body with 400 Bad Request and JSON-RPC error -32020 (HeaderMismatch); this one answered otherwise.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const { conn, message } of statelessRequests(model)) {
      const problems = [versionProblem(conn, message), ...methodProblems(conn, message)].filter(
        (p) => p?.headerMismatch === true,
      );
      const status = conn.record.status;
      if (problems.length === 0 || status === undefined) continue;
      const codes = deliveredOn(model, conn).flatMap(({ message: m }) => {
        const code = (m.value as { error?: { code?: unknown } }).error?.code;
        return m.kind === 'error' && typeof code === 'number' ? [code] : [];
      });
      if (status === 400 && codes.includes(HEADER_MISMATCH)) continue;
      const answer =
        codes.length > 0 ? `${status} with JSON-RPC error ${codes.join(', ')}` : `${status} without a JSON-RPC error`;
      reports.push({
        message: `${message.method ?? 'request'} (id ${describeId(message.id)}) on ${conn.id} ${problems[0]?.text ?? ''}, and the server answered ${answer} (expected 400 with ${HEADER_MISMATCH}).`,
        ...at(conn),
      });
    }
    return reports;
  },
};
