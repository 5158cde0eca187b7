// Runs anywhere (pure core): what the analysis could not see in the file it was given, said once per capture.
import type { ConnectionView, Notice } from './types';

const LISTED = 5;

/** The MCP exchanges whose bodies the file lacked (see ConnectionRecord.bodyMissing), as one notice. */
export function noticesOf(connections: readonly ConnectionView[]): Notice[] {
  const missing = connections.filter((c) => c.record.bodyMissing);
  if (missing.length === 0) return [];
  const named = missing.slice(0, LISTED).map((c) => `${c.id} ${c.record.method} ${what(c)}`);
  const more = missing.length > LISTED ? ` and ${missing.length - LISTED} more` : '';
  const count = missing.length === 1 ? '1 response has' : `${missing.length} responses have`;
  return [
    {
      kind: 'body-missing',
      connectionIds: missing.map((c) => c.id),
      message: `${count} no body in this file (${named.join(', ')}${more}): its writer dropped them (DevTools and Playwright do for cut and aborted streams), so their events, and any torn event, cannot be seen and no rule judged them; nor is a request or server request of their sessions called lost, as its answer may be there. Record with the MCP Streams panel or a proxy to see them.`,
    },
  ];
}

function what(conn: ConnectionView): string {
  const request = conn.requestMessages.find((m) => m.method !== undefined);
  if (request?.method) return request.method;
  return conn.lastEventIdSent !== undefined ? 'resume' : conn.role === 'get' ? 'stream' : conn.role;
}
