// Runs anywhere (pure core): the 2026-07-28 request headers that mirror body fields (MCP-Protocol-Version, Mcp-Method,
// Mcp-Name) checked against the body, as a server must before it runs the request.
import { metaProtocolVersion, PROTOCOL_VERSION_META } from '../mcp/era';
import { decodeMirroredValue, headerValue, needsSentinel } from '../mcp/headers';
import type { JsonRpcMessage } from '../mcp/types';
import type { ConnectionView } from '../model/types';
import { paramsOf } from './stateless';

/** The requests whose `Mcp-Name` header is required, and the body field it mirrors. */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** A disagreement; `headerMismatch` when the spec's answer to it is 400 with `-32020` (HeaderMismatch). */
export interface HeaderProblem {
  text: string;
  headerMismatch: boolean;
}

/** What is wrong with the MCP-Protocol-Version header against the body's `_meta` version, if anything. */
export function versionProblem(conn: ConnectionView, message: JsonRpcMessage): HeaderProblem | undefined {
  const header = headerValue(conn.record.requestHeaders, 'mcp-protocol-version');
  const meta = metaProtocolVersion(message);
  if (header === undefined)
    return { text: `has no MCP-Protocol-Version header (its _meta says ${meta ?? 'nothing'})`, headerMismatch: true };
  // A request without the required _meta field is malformed: -32602, not a header mismatch.
  if (meta === undefined && message.kind === 'request')
    return {
      text: `sends MCP-Protocol-Version ${header} but its _meta has no ${PROTOCOL_VERSION_META}`,
      headerMismatch: false,
    };
  if (meta !== undefined && meta !== header)
    return { text: `sends MCP-Protocol-Version ${header} but its _meta says ${meta}`, headerMismatch: true };
  return undefined;
}

/** What is wrong with a request's Mcp-Method and Mcp-Name headers, if anything. */
export function methodProblems(conn: ConnectionView, message: JsonRpcMessage): HeaderProblem[] {
  const method = headerValue(conn.record.requestHeaders, 'mcp-method');
  const name = headerValue(conn.record.requestHeaders, 'mcp-name');
  const problems: string[] = [];
  if (method === undefined) problems.push('has no Mcp-Method header');
  else if (method !== message.method) problems.push(`sends Mcp-Method ${JSON.stringify(method)}`);
  const field = message.method === undefined ? undefined : NAMED[message.method];
  const body = field === undefined ? undefined : paramsOf(message)?.[field];
  if (typeof body === 'string') {
    const decoded = name === undefined ? undefined : decodeMirroredValue(name);
    if (decoded === undefined) problems.push(`has no Mcp-Name header (params.${field} is ${JSON.stringify(body)})`);
    else if (!decoded.ok)
      problems.push(`sends an Mcp-Name whose Base64 sentinel does not decode (${JSON.stringify(name)})`);
    else if (decoded.text !== body) {
      const shown = decoded.encoded
        ? `${JSON.stringify(name)} (decoded ${JSON.stringify(decoded.text)})`
        : JSON.stringify(name);
      const hint = !decoded.encoded && needsSentinel(body) ? ' (a value like this travels as =?base64?...?=)' : '';
      problems.push(`sends Mcp-Name ${shown} for params.${field} ${JSON.stringify(body)}${hint}`);
    }
  }
  return problems.map((text) => ({ text, headerMismatch: true }));
}
