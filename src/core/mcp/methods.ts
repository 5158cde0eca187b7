// Runs anywhere (pure core): MCP's own vocabulary on the wire: its JSON-RPC method names and its HTTP headers.

/** Methods outside the families below (2024-11-05 to 2026-07-28). */
const METHODS: ReadonlySet<string> = new Set(['initialize', 'ping']);

/**
 * Method families MCP defines (`tools/call`, `notifications/progress`, `server/discover`, ...). A family, not a
 * list: every revision adds methods to these, and no other JSON-RPC protocol seen on the web names its methods so
 * (Ethereum: `eth_call`, LSP: `textDocument/...` and `$/...`).
 */
const FAMILIES: readonly string[] = [
  'notifications/',
  'tools/',
  'resources/',
  'prompts/',
  'completion/',
  'logging/',
  'sampling/',
  'elicitation/',
  'roots/',
  'tasks/',
  'server/',
];

/** True when `method` is one of MCP's methods (or of its method families). */
export function isMcpMethod(method: string): boolean {
  return METHODS.has(method) || FAMILIES.some((family) => method.startsWith(family));
}

/** Headers only MCP sends, lower-cased, with how a classification names them. */
export const MCP_HEADERS: readonly (readonly [name: string, label: string])[] = [
  ['mcp-session-id', 'Mcp-Session-Id'],
  ['mcp-protocol-version', 'MCP-Protocol-Version'],
  ['mcp-method', 'Mcp-Method'],
  ['mcp-name', 'Mcp-Name'],
];
